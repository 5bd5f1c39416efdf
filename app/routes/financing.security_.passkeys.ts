import type { ActionFunctionArgs } from "@remix-run/node";
import { securityMessages } from "~/content/second-factor";
import { apiError, apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireUserSession } from "~/http/auth.server";
import { clientOf } from "~/models/account/client-device.server";
import { isReauthenticated } from "~/models/account/session.server";
import { registerPasskey } from "~/models/second-factor/passkey.server";
import { passkeyRegistrationSchema } from "~/models/second-factor/second-factor-schemas.server";

/**
 * POST { challengeId, response } → the new passkey is stored: 201 with the recovery codes made with
 * it (the account's first set, shown once) or null, or a 4xx with `{ message }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const body = await readJsonBody(request, passkeyRegistrationSchema);
  if (!isReauthenticated(session)) return apiError(403, securityMessages.reauthenticate);
  const outcome = await registerPasskey({
    user: session.user,
    sessionIdHash: session.idHash,
    ...body,
    ip: context.clientIp,
    userAgent: clientOf(request, context.clientIp).userAgent,
  });
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson(
    { ok: true, recoveryCodes: outcome.recoveryCodes },
    { status: 201, headers: { "Cache-Control": "private, no-store" } },
  );
}

export const loader = () => methodNotAllowed(["POST"]);
