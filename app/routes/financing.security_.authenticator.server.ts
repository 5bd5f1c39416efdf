import { type ActionFunctionArgs, json, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import type { AfterRecoveryCodes } from "~/components/recovery-codes";
import { securityMessages } from "~/content/second-factor";
import { ENROL_PATH, requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { formLevelBeyond, parseSubmission } from "~/http/form-submission.server";
import { reauthenticationState } from "~/http/reauthentication.server";
import { refusalInit } from "~/http/retry-after";
import { reauthenticate } from "~/models/account/reauthentication.server";
import { isReauthenticated, upgradePasswordSession } from "~/models/account/session.server";
import { totpEnrolmentSchema } from "~/models/second-factor/second-factor-schemas.server";
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  secondFactorStatus,
} from "~/models/second-factor/second-factor.server";
import { qrCodeSvg } from "~/server/qr-code.server";

const NO_STORE = { "Cache-Control": "private, no-store" };
const SECRET_FIELDS = ["code", "password", "passkeyAnswer"];

/**
 * The authenticator app's set-up: once the user has confirmed it is them, a secret of this session's
 * own as a QR code and as text, until the app's first code confirms it. Open to an administrator who
 * has no second factor yet: it is the one page they may use.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request, { enrolling: true });
  const { user } = session;
  const status = await secondFactorStatus(user.id);
  const mustEnrol = user.role.name === "administrator" && !status.totp && status.passkeys === 0;
  if (!isReauthenticated(session)) {
    return json(
      { setUp: null, reauthentication: reauthenticationState(session, status), mustEnrol },
      { headers: NO_STORE },
    );
  }
  const { secret, uri } = await beginTotpEnrolment({ user, sessionIdHash: session.idHash });
  return json(
    { setUp: { secret, uri, qrSvg: await qrCodeSvg(uri), replacing: status.totp }, reauthentication: null, mustEnrol },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request, { enrolling: true });
  const { user } = session;
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), recoveryCodes: null }, { status: body.status });
  const submission = parseSubmission(body.formData, totpEnrolmentSchema);
  if (submission.status !== "success") {
    // The page shows one form at a time: the code's (and the password's), or the form's own messages.
    const reply = formLevelBeyond(submission.reply({ hideFields: SECRET_FIELDS }), ["code", "password"]);
    return json({ result: reply, recoveryCodes: null }, { status: 400 });
  }
  const refuse = (failure: { status: number; message: string; retryAfterSeconds?: number }) =>
    json(
      { result: submission.reply({ formErrors: [failure.message], hideFields: SECRET_FIELDS }), recoveryCodes: null },
      refusalInit(failure),
    );
  const ip = context.clientIp;

  if (submission.value.intent === "confirm") {
    const outcome = await reauthenticate({ user, sessionIdHash: session.idHash, proof: submission.value, ip });
    if (!outcome.ok) return refuse(outcome);
    return redirect(ENROL_PATH);
  }
  if (!isReauthenticated(session)) return refuse({ status: 403, message: securityMessages.reauthenticate });
  // The administrator's first factor, asked for before anything else, leads on to the portal; a set-up
  // begun from the security settings leads back to them.
  const before = await secondFactorStatus(user.id);
  const continueTo: AfterRecoveryCodes =
    user.role.name === "administrator" && !before.totp && before.passkeys === 0 ? "/financing" : "/financing/security";
  const outcome = await confirmTotpEnrolment({ user, sessionIdHash: session.idHash, code: submission.value.code, ip });
  if (!outcome.ok) return refuse(outcome);

  // The code just proved the second factor: a session opened with the password alone now counts as both.
  await upgradePasswordSession(session.idHash, "password+totp");
  return json(
    { result: submission.reply({ hideFields: SECRET_FIELDS }), recoveryCodes: outcome.recoveryCodes, continueTo },
    { headers: NO_STORE },
  );
}
