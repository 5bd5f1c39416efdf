import type { ActionFunctionArgs } from "@remix-run/node";
import { securityMessages } from "~/content/second-factor";
import { apiError, apiJson, methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { requireUserSession } from "~/http/auth.server";
import { isReauthenticated } from "~/models/account/session.server";
import { passkeyRegistrationOptions } from "~/models/second-factor/passkey.server";

/** POST → the options of a new passkey's registration, once the user has confirmed it is them. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const session = await requireUserSession(request);
  await readEmptyBody(request);
  if (!isReauthenticated(session)) return apiError(403, securityMessages.reauthenticate);
  return apiJson(await passkeyRegistrationOptions(session.user), { headers: { "Cache-Control": "private, no-store" } });
}

export const loader = () => methodNotAllowed(["POST"]);
