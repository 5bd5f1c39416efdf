import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { accountMessages } from "~/content/account-messages";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { passwordSchema } from "~/models/account-schemas.server";
import { resetPassword } from "~/models/account.server";

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
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson({ message: accountMessages.passwordReset });
}

export const loader = () => methodNotAllowed(["POST"]);
