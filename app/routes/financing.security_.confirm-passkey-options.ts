import type { ActionFunctionArgs } from "@remix-run/node";
import { codeMessages } from "~/content/second-factor";
import { apiJson, apiRefusal, methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { requireUser } from "~/http/auth.server";
import { passkeyConfirmationOptions } from "~/models/second-factor/passkey.server";
import { throttleAuthRequest } from "~/models/throttle.server";

/** POST → the options of a passkey's "Confirm it's you", for the signed-in account's own passkeys. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireUser(request, { enrolling: true });
  await readEmptyBody(request);
  // Each call stores a challenge: counted with the other sign-in requests of the address.
  const throttle = await throttleAuthRequest(context.clientIp);
  if (!throttle.allowed) return apiRefusal({ status: 429, message: codeMessages.throttled, ...throttle });
  return apiJson(await passkeyConfirmationOptions(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export const loader = () => methodNotAllowed(["POST"]);
