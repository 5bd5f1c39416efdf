import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { validationMessages } from "~/content/account-messages";
import { requireUser, upgradeSessionToSecondFactor } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { refusalInit } from "~/http/retry-after";
import { confirmPassword } from "~/models/account.server";
import { totpEnrolmentSchema } from "~/models/second-factor-schemas.server";
import { beginTotpEnrolment, confirmTotpEnrolment, secondFactorStatus } from "~/models/second-factor.server";
import { qrCodeSvg } from "~/server/qr-code.server";

/**
 * The authenticator app's set-up: the secret as a QR code and as text, until the app's first code
 * confirms it. Open to an administrator who has no second factor yet: it is the one page they may use.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { enrolling: true });
  const [{ secret, uri }, status] = await Promise.all([beginTotpEnrolment(user), secondFactorStatus(user.id)]);
  return json(
    {
      secret,
      qrSvg: await qrCodeSvg(uri),
      replacing: status.totp,
      mustEnrol: user.role.name === "administrator" && !status.totp,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { enrolling: true });
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), recoveryCodes: null }, { status: body.status });
  const submission = parseSubmission(body.formData, totpEnrolmentSchema);
  if (submission.status !== "success") {
    return json(
      { result: submission.reply({ hideFields: ["code", "password"] }), recoveryCodes: null },
      { status: 400 },
    );
  }
  const refuse = (failure: { status: number; message: string; retryAfterSeconds?: number }) =>
    json(
      {
        result: submission.reply({ formErrors: [failure.message], hideFields: ["code", "password"] }),
        recoveryCodes: null,
      },
      refusalInit(failure),
    );

  // Replacing an app already set up needs the password again; a first set-up follows the login itself.
  if ((await secondFactorStatus(user.id)).totp) {
    const { password } = submission.value;
    if (password === undefined) return refuse({ status: 400, message: validationMessages.passwordEmpty });
    const check = await confirmPassword({ user, password, ip: context.clientIp });
    if (!check.ok) return refuse(check);
  }
  const outcome = await confirmTotpEnrolment({ user, code: submission.value.code, ip: context.clientIp });
  if (!outcome.ok) return refuse(outcome);

  // The code just proved the second factor: a session opened with the password alone now counts as both.
  await upgradeSessionToSecondFactor(request, "password+totp");
  return json(
    { result: submission.reply({ hideFields: ["code", "password"] }), recoveryCodes: outcome.recoveryCodes },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
