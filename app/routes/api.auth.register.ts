import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { newAccountSchema } from "~/models/account/account-schemas.server";
import { registerAccount } from "~/models/account/sign-up.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

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
