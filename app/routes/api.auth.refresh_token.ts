import type { ActionFunctionArgs } from "@remix-run/node";
import { accountMessages } from "~/content/account-messages";
import { apiMessages } from "~/content/api-messages";
import { apiError, apiJson, apiRefusal, methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { clearedRefreshCookie, refreshCookieFor, refreshTokenOf } from "~/http/auth.server";
import { refreshApiTokens } from "~/models/account/api-token.server";
import { throttleAuthRequest } from "~/models/throttle.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST (empty body, the refresh cookie) → { accessToken: { access_token, expires_in } } and a rotated cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  await readEmptyBody(request);
  const throttle = await throttleAuthRequest(context.clientIp);
  if (!throttle.allowed) return apiRefusal({ status: 429, message: accountMessages.throttled, ...throttle });
  const outcome = await refreshApiTokens(await refreshTokenOf(request));
  if (!outcome.ok) {
    return apiError(401, apiMessages.refreshRefused, { headers: { "Set-Cookie": await clearedRefreshCookie() } });
  }
  return apiJson(
    {
      accessToken: { access_token: outcome.accessToken, expires_in: outcome.expiresIn },
    } satisfies AnswerOf<"RefreshAnswer">,
    { headers: { "Set-Cookie": await refreshCookieFor(outcome) } },
  );
}

export const loader = () => methodNotAllowed(["POST"]);
