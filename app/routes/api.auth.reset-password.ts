import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { resetPassword } from "~/models/account.server";
import { accountMessages } from "~/utils/account-validation";
import { passwordSchema } from "~/utils/account-validation.server";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({
  newPasswordToken: z
    .string({ error: accountMessages.resetLinkInvalid })
    .min(1, { error: accountMessages.resetLinkInvalid }),
  newPassword: passwordSchema,
});

/** POST { newPasswordToken, newPassword } → 200; every session and API token of the user ends. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, bodySchema);
  const outcome = await resetPassword({
    token: body.newPasswordToken,
    password: body.newPassword,
    ip: context.clientIp,
  });
  if (!outcome.ok) {
    // The use case names the field as the pages do; the API calls it newPassword.
    const issues = outcome.fieldErrors?.password ? { newPassword: outcome.fieldErrors.password } : undefined;
    return apiError(outcome.status, outcome.message, { issues, retryAfterSeconds: outcome.retryAfterSeconds });
  }
  return apiJson({ message: accountMessages.passwordReset });
}

export const loader = () => methodNotAllowed(["POST"]);
