import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { apiResetPasswordSchema } from "~/models/account/account-schemas.server";
import { resetPassword } from "~/models/account/password-reset.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { newPasswordToken, newPassword } → 200; every session and API token of the user ends. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, apiResetPasswordSchema);
  const outcome = await resetPassword({
    token: body.newPasswordToken,
    password: body.newPassword,
    ip: context.clientIp,
  });
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson({ message: accountMessages.passwordReset } satisfies AnswerOf<"Message">);
}

export const loader = () => methodNotAllowed(["POST"]);
