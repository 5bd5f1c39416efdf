import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiJson, methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { logOutApiClient } from "~/http/auth.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST → 200: revokes the token families of the bearer token and the refresh cookie, and clears the cookie. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readEmptyBody(request);
  const clearCookie = await logOutApiClient(request);
  return apiJson({ message: accountMessages.loggedOut } satisfies AnswerOf<"Message">, {
    headers: { "Set-Cookie": clearCookie },
  });
}

export const loader = () => methodNotAllowed(["POST"]);
