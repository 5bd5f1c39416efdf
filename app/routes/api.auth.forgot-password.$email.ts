import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestPasswordReset } from "~/models/account.server";
import { accountMessages } from "~/utils/account-validation";
import { apiError, apiJson, methodNotAllowed } from "~/utils/api.server";

/** GET → 200 'Reset Email Sent' for any well-formed address, registered or not. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const outcome = await requestPasswordReset({ email: params.email, ip: context.clientIp });
  if (!outcome.ok) {
    return apiError(outcome.status, outcome.message, {
      issues: outcome.fieldErrors,
      retryAfterSeconds: outcome.retryAfterSeconds,
    });
  }
  return apiJson({ message: accountMessages.resetEmailSent });
}

export const action = () => methodNotAllowed(["GET"]);
