import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import type { AnswerOf } from "~/http/api-contract.server";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { newAccountSchema } from "~/models/account-schemas.server";
import { registerAccount } from "~/models/sign-up.server";

/** POST { email, password } → 201, the same for a new and a registered address (docs/requirements.md, "Account and NDA states"). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, newAccountSchema);
  const outcome = await registerAccount({ ...body, ip: context.clientIp });
  if (!outcome.ok) {
    return apiRefusal(outcome);
  }
  return apiJson({ message: accountMessages.verificationEmailSent } satisfies AnswerOf<"Message">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
