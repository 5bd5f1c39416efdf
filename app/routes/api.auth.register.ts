import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { registerAccount } from "~/models/account.server";
import { accountMessages } from "~/utils/account-validation";
import { emailSchema, passwordSchema } from "~/utils/account-validation.server";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/utils/api.server";

const bodySchema = z.object({ email: emailSchema, password: passwordSchema });

/** POST { email, password } → 201, the same for a new and a registered address (DESIGN.md section 5). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, bodySchema);
  const outcome = await registerAccount({ ...body, ip: context.clientIp });
  if (!outcome.ok) {
    return apiError(outcome.status, outcome.message, {
      issues: outcome.fieldErrors,
      retryAfterSeconds: outcome.retryAfterSeconds,
    });
  }
  return apiJson({ message: accountMessages.verificationEmailSent }, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
