import type { ActionFunctionArgs } from "@remix-run/node";
import { secondFactorApiMessages } from "~/content/second-factor";
import { apiError, apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { refreshCookieFor } from "~/http/auth.server";
import { issueApiTokens } from "~/models/account/api-token.server";
import { clientOf } from "~/models/account/client-device.server";
import { logIn, recordPasswordVerified, recordSignIn } from "~/models/account/sign-in.server";
import { apiLoginSchema } from "~/models/second-factor/second-factor-schemas.server";
import { checkSecondFactorCode, stepAfterPassword } from "~/models/second-factor/second-factor.server";
import type { AnswerOf } from "~/openapi/api-contract.server";
import type { AuthMethod } from "~/server/db.server";

/**
 * POST { email, password, code? } → { accessToken, user, expiresIn } and the HttpOnly refresh cookie.
 * An account with a second factor also sends `code` (the app's or a recovery code); without it the
 * answer is 401 with `mfaRequired`. An administrator must set a second factor up on the website first.
 * Each of these answers comes only after the right password, so none tells a stranger anything.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { code, ...credentials } = await readJsonBody(request, apiLoginSchema);
  const outcome = await logIn({ ...credentials, ip: context.clientIp });
  if (!outcome.ok) return apiRefusal(outcome);

  const next = await stepAfterPassword(outcome.user);
  if (next === "enrol") return apiError(403, secondFactorApiMessages.adminMustEnrol);
  let method: AuthMethod = "password";
  if (next === "code") {
    await recordPasswordVerified({ user: outcome.user, via: "api", ip: context.clientIp });
    if (!code) {
      return apiJson(
        { message: secondFactorApiMessages.mfaRequired, mfaRequired: true } satisfies AnswerOf<"SecondFactorRequired">,
        { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="api"' } },
      );
    }
    const checked = await checkSecondFactorCode({ user: outcome.user, code, ip: context.clientIp });
    if (!checked.ok) return apiRefusal(checked);
    method = checked.method === "totp" ? "password+totp" : "password+recovery_code";
  }
  const tokens = await issueApiTokens(outcome.user.id, clientOf(request, context.clientIp));
  await recordSignIn({ user: outcome.user, method, via: "api", ip: context.clientIp });
  return apiJson(
    {
      accessToken: tokens.accessToken,
      user: outcome.user,
      expiresIn: tokens.expiresIn,
    } satisfies AnswerOf<"LoginAnswer">,
    { headers: { "Set-Cookie": await refreshCookieFor(tokens) } },
  );
}

export const loader = () => methodNotAllowed(["POST"]);
