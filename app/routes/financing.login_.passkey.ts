import type { ActionFunctionArgs } from "@remix-run/node";
import { codeMessages } from "~/content/second-factor";
import { apiError, apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import {
  completeCodeStep,
  homeAfterSignIn,
  pendingCodeStepUser,
  requireAnonymous,
  sessionHeadersFor,
} from "~/http/auth.server";
import { signInWithPasskey } from "~/models/second-factor/passkey.server";
import { passkeySignInSchema } from "~/models/second-factor/second-factor-schemas.server";

/**
 * POST { challengeId, response } → a session, and { redirectTo } for the page's script to follow.
 * A passkey signs in alone; as a pending login's second step it must be that account's.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const body = await readJsonBody(request, passkeySignInSchema);
  const outcome = await signInWithPasskey({ ...body, ip: context.clientIp });
  if (!outcome.ok) return apiRefusal(outcome);

  const pending = await pendingCodeStepUser(request);
  const asSecondStep = pending?.id === outcome.user.id;
  if (asSecondStep && !(await completeCodeStep(request))) return apiError(401, codeMessages.noPendingStep);
  const headers = await sessionHeadersFor({
    user: outcome.user,
    authMethod: asSecondStep ? "password+passkey" : "passkey",
    request,
    ip: context.clientIp,
  });
  headers.set("Cache-Control", "private, no-store");
  return apiJson({ redirectTo: await homeAfterSignIn(outcome.user.id) }, { headers });
}

export const loader = () => methodNotAllowed(["POST"]);
