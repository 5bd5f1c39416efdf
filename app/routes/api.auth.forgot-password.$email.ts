import type { LoaderFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiJson, apiRefusal, methodNotAllowed, readApiParam } from "~/http/api.server";
import { emailSchema } from "~/models/account/account-schemas.server";
import { requestPasswordReset } from "~/models/account/password-reset.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 'Reset Email Sent' for any well-formed address, registered or not. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const email = readApiParam("email", params.email, emailSchema);
  const outcome = await requestPasswordReset({ email, ip: context.clientIp });
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson({ message: accountMessages.resetEmailSent } satisfies AnswerOf<"Message">);
}

export const action = () => methodNotAllowed(["GET"]);
