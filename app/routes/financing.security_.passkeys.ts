import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireUser } from "~/http/auth.server";
import { registerPasskey } from "~/models/passkey.server";
import { passkeyRegistrationSchema } from "~/models/second-factor-schemas.server";

/** POST { challengeId, response } → the new passkey is stored: 201, or a 4xx with `{ message }`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const body = await readJsonBody(request, passkeyRegistrationSchema);
  const outcome = await registerPasskey({ user, ...body, ip: context.clientIp });
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson({ ok: true }, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
