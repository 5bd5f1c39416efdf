import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiError, apiJson, methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { refreshApiTokens } from "~/models/api-token.server";
import { throttleAuthRequest } from "~/models/throttle.server";

const refreshRefused = "Your session has ended. Please log in again.";

/** POST (empty body, the refresh cookie) → { accessToken: { access_token, expires_in } } and a rotated cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readEmptyBody(request);
  const throttle = await throttleAuthRequest(context.clientIp);
  if (!throttle.allowed)
    return apiError(429, accountMessages.throttled, { retryAfterSeconds: throttle.retryAfterSeconds });
  const outcome = await refreshApiTokens(request);
  if (!outcome.ok) return apiError(401, refreshRefused, { headers: { "Set-Cookie": outcome.clearCookie } });
  return apiJson(
    { accessToken: { access_token: outcome.accessToken, expires_in: outcome.expiresIn } },
    { headers: { "Set-Cookie": outcome.refreshCookie } },
  );
}

export const loader = () => methodNotAllowed(["POST"]);
