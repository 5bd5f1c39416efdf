import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { secondFactorNotices, securityMessages } from "~/content/second-factor";
import { requireUser, sessionAuthMethod } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { canGoWithoutSecondFactor } from "~/models/access.server";
import { confirmPassword } from "~/models/account.server";
import { listPasskeys, removePasskey } from "~/models/passkey.server";
import { securityChangeSchema } from "~/models/second-factor-schemas.server";
import {
  hasSecondFactor,
  regenerateRecoveryCodes,
  removeSecondFactor,
  secondFactorStatus,
} from "~/models/second-factor.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [status, passkeys, authMethod] = await Promise.all([
    secondFactorStatus(user.id),
    listPasskeys(user.id),
    sessionAuthMethod(request),
  ]);
  return json({ status, passkeys, authMethod, canTurnOff: canGoWithoutSecondFactor(user) }, { headers: NO_STORE });
}

/** Each change asks for the password again, is recorded in the audit trail and e-mailed to the account. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
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
        result: submission.reply({ formErrors: [failure.message], hideFields: ["password"] }),
        recoveryCodes: null,
      },
      refusalInit(failure),
    );
  if (submission.status !== "success") {
    return json(
      {
        intent,
        passkeyId,
        result: passwordFieldOnly(submission.reply({ hideFields: ["password"] })),
        recoveryCodes: null,
      },
      { status: 400 },
    );
  }

  const change = submission.value;
  const status = await secondFactorStatus(user.id);
  if (!hasSecondFactor(status)) return refuse({ status: 400, message: securityMessages.noFactorYet });
  // Refused before the password is checked: the answer is the same whatever the password.
  if (change.intent === "remove" && !canGoWithoutSecondFactor(user)) {
    return refuse({ status: 403, message: securityMessages.adminKeepsFactor });
  }
  if (change.intent === "remove-passkey" && !canGoWithoutSecondFactor(user) && !status.totp && status.passkeys <= 1) {
    return refuse({ status: 403, message: securityMessages.adminLastPasskey });
  }
  const check = await confirmPassword({ user, password: change.password, ip: context.clientIp });
  if (!check.ok) return refuse(check);

  const ip = context.clientIp;
  switch (change.intent) {
    case "regenerate-codes": {
      const recoveryCodes = await regenerateRecoveryCodes({ user, ip });
      return json(
        { intent, passkeyId, result: submission.reply({ hideFields: ["password"] }), recoveryCodes },
        { headers: NO_STORE },
      );
    }
    case "remove":
      await removeSecondFactor({ user, ip });
      return redirectWithSuccess("/financing/security", secondFactorNotices.removed);
    case "remove-passkey":
      if (!(await removePasskey({ user, passkeyId: change.passkeyId, ip }))) {
        return refuse({ status: 404, message: securityMessages.noSuchPasskey });
      }
      return redirectWithSuccess("/financing/security", secondFactorNotices.passkeyRemoved);
  }
}

/** The password is these forms' only field: any other refusal (a change sent twice, an unknown one) is the form's own. */
function passwordFieldOnly(reply: FormReply): FormReply {
  const { password, ...others } = reply.error;
  const formErrors = Object.values(others).flat();
  return {
    ...reply,
    error: { ...(password ? { password } : {}), ...(formErrors.length > 0 ? { "": formErrors } : {}) },
  };
}
