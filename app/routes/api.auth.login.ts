import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { refreshCookieFor } from "~/http/auth.server";
import { loginSchema } from "~/models/account-schemas.server";
import { logIn } from "~/models/account.server";
import { issueApiTokens } from "~/models/api-token.server";

/** POST { email, password } → { accessToken, user, expiresIn } and the HttpOnly refresh cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, loginSchema);
  const outcome = await logIn({ ...body, ip: context.clientIp });
  if (!outcome.ok) {
    return apiRefusal(outcome);
  }
  const tokens = await issueApiTokens(outcome.user.id);
  return apiJson(
    { accessToken: tokens.accessToken, user: outcome.user, expiresIn: tokens.expiresIn },
    { headers: { "Set-Cookie": await refreshCookieFor(tokens) } },
  );
}

export const loader = () => methodNotAllowed(["POST"]);
