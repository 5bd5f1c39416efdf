import type { LoaderFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiError, apiJson, methodNotAllowed } from "~/http/api.server";
import { verifyEmail } from "~/models/account/sign-up.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 when the link's token verifies the address, 400 when it is unknown, used or expired. */
export async function loader({ params }: LoaderFunctionArgs) {
  const outcome = await verifyEmail(params.token);
  if (!outcome.ok) return apiError(400, outcome.message);
  return apiJson({ message: accountMessages.emailVerified } satisfies AnswerOf<"Message">);
}

export const action = () => methodNotAllowed(["GET"]);
