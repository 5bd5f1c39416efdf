import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { passkeyNames } from "~/content/account-sessions";
import { reauthenticationForm, secondFactorNotices, securityMessages } from "~/content/second-factor";
import { requireUserSession } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { formLevelBeyond, parseSubmission } from "~/http/form-submission.server";
import { reauthenticationState } from "~/http/reauthentication.server";
import { refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { reauthenticate } from "~/models/account/reauthentication.server";
import { isReauthenticated } from "~/models/account/session.server";
import { canGoWithoutSecondFactor } from "~/models/library/access.server";
import { activeConsent } from "~/models/nda/nda-consent.server";
import { hasSignedNdaFile } from "~/models/nda/nda-document.server";
import { listPasskeys, removePasskey, renamePasskey } from "~/models/second-factor/passkey.server";
import { securityChangeSchema } from "~/models/second-factor/second-factor-schemas.server";
import {
  hasSecondFactor,
  regenerateRecoveryCodes,
  removeSecondFactor,
  secondFactorStatus,
} from "~/models/second-factor/second-factor.server";

const NO_STORE = { "Cache-Control": "private, no-store" };
const SECURITY_PATH = "/financing/security";
/** The fields each form shows its messages beside; the others' messages are the form's own. */
const shownFields: Record<string, string[]> = { confirm: ["password", "code"], "rename-passkey": ["name"] };
/** Fields never sent back to the page. */
const SECRET_FIELDS = ["password", "code", "passkeyAnswer"];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireUserSession(request);
  const [status, passkeys, ndaConsent, ndaSigned] = await Promise.all([
    secondFactorStatus(session.user.id),
    listPasskeys(session.user.id),
    activeConsent(session.user.id),
    hasSignedNdaFile(session.user.id),
  ]);
  return json(
    {
      status,
      passkeys,
      canTurnOff: canGoWithoutSecondFactor(session.user),
      reauthentication: reauthenticationState(session, status),
      ndaConsent: ndaConsent !== null,
      ndaSigned,
    },
    { headers: NO_STORE },
  );
}

/**
 * "Confirm it's you" (the password, and the second factor where there is one) opens the changes for
 * a few minutes; each change then ends the account's other sessions and tokens and is e-mailed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUserSession(request);
  const { user } = session;
  const body = await readFormBody(request);
  if (!body.ok) {
    return json(
      { intent: null, passkeyId: null, result: formRefusal(body.message), recoveryCodes: null },
      { status: body.status },
    );
  }
  const submission = parseSubmission(body.formData, securityChangeSchema);
  // Which of the page's forms the answer belongs to, so its message shows beside it.
  const intent = String(body.formData.get("intent") ?? "");
  const passkeyId = String(body.formData.get("passkeyId") ?? "");
  const refuse = (failure: { status: number; message: string; retryAfterSeconds?: number }) =>
    json(
      {
        intent,
        passkeyId,
        result: submission.reply({ formErrors: [failure.message], hideFields: SECRET_FIELDS }),
        recoveryCodes: null,
      },
      refusalInit(failure),
    );
  if (submission.status !== "success") {
    const reply = submission.reply({ hideFields: SECRET_FIELDS });
    return json(
      {
        intent,
        passkeyId,
        result: formLevelBeyond(reply, shownFields[intent] ?? []),
        recoveryCodes: null,
      },
      { status: 400 },
    );
  }

  const change = submission.value;
  const ip = context.clientIp;
  if (change.intent === "confirm") {
    const outcome = await reauthenticate({ user, sessionIdHash: session.idHash, proof: change, ip });
    if (!outcome.ok) return refuse(outcome);
    return redirectWithSuccess(SECURITY_PATH, reauthenticationForm.confirmed);
  }
  if (!isReauthenticated(session)) return refuse({ status: 403, message: securityMessages.reauthenticate });
  const status = await secondFactorStatus(user.id);
  if (!hasSecondFactor(status)) return refuse({ status: 400, message: securityMessages.noFactorYet });
  if (change.intent === "remove" && !canGoWithoutSecondFactor(user)) {
    return refuse({ status: 403, message: securityMessages.adminKeepsFactor });
  }
  if (change.intent === "remove-passkey" && !canGoWithoutSecondFactor(user) && !status.totp && status.passkeys <= 1) {
    return refuse({ status: 403, message: securityMessages.adminLastPasskey });
  }

  const inSession = { user, sessionIdHash: session.idHash, ip };
  switch (change.intent) {
    case "regenerate-codes": {
      const recoveryCodes = await regenerateRecoveryCodes(inSession);
      return json(
        { intent, passkeyId, result: submission.reply({ hideFields: SECRET_FIELDS }), recoveryCodes },
        { headers: NO_STORE },
      );
    }
    case "remove":
      await removeSecondFactor(inSession);
      return redirectWithSuccess(SECURITY_PATH, secondFactorNotices.removed);
    case "rename-passkey":
      if (!(await renamePasskey({ ...inSession, passkeyId: change.passkeyId, name: change.name }))) {
        return refuse({ status: 404, message: securityMessages.noSuchPasskey });
      }
      return redirectWithSuccess(SECURITY_PATH, passkeyNames.renamed);
    case "remove-passkey":
      if (!(await removePasskey({ ...inSession, passkeyId: change.passkeyId }))) {
        return refuse({ status: 404, message: securityMessages.noSuchPasskey });
      }
      return redirectWithSuccess(SECURITY_PATH, secondFactorNotices.passkeyRemoved);
  }
}
