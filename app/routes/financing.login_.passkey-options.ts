import type { ActionFunctionArgs } from "@remix-run/node";
import { codeMessages } from "~/content/second-factor";
import { apiError, apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { pendingCodeStepUser, requireAnonymous } from "~/http/auth.server";
import { passkeySignInOptions } from "~/models/second-factor/passkey.server";
import { passkeyOptionsSchema } from "~/models/second-factor/second-factor-schemas.server";
import { throttleAuthRequest } from "~/models/throttle.server";

/** POST { secondStep } → the options of a passkey sign-in: alone, or as a pending login's second step. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const { secondStep } = await readJsonBody(request, passkeyOptionsSchema);
  // Each call stores a challenge: counted with the other sign-in requests of the address.
  const throttle = await throttleAuthRequest(context.clientIp);
  if (!throttle.allowed) return apiRefusal({ status: 429, message: codeMessages.throttled, ...throttle });
  let userId: string | null = null;
  if (secondStep) {
    const user = await pendingCodeStepUser(request);
    if (!user) return apiError(401, codeMessages.noPendingStep);
    userId = user.id;
  }
  return apiJson(await passkeySignInOptions(userId), { headers: { "Cache-Control": "private, no-store" } });
}

export const loader = () => methodNotAllowed(["POST"]);
