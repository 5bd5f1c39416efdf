import { type ActionFunctionArgs, json, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { authNotices } from "~/content/account-pages/notices.server";
import { codeMessages } from "~/content/second-factor";
import {
  completeCodeStep,
  createUserSession,
  homeAfterSignIn,
  LOGIN_PATH,
  pendingCodeStepUser,
  requireAnonymous,
} from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { refusalInit } from "~/http/retry-after";
import { codeStepSchema } from "~/models/second-factor/second-factor-schemas.server";
import { checkSecondFactorCode, secondFactorStatus } from "~/models/second-factor/second-factor.server";

/**
 * Only after the right password: without a pending step the login starts again. `?recovery=1` asks
 * for a recovery code rather than the app's (a link, so the choice needs no script); an account
 * without an app is always asked for a recovery code, beside its passkey.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const user = await pendingCodeStepUser(request);
  if (!user) throw redirect(LOGIN_PATH);
  const status = await secondFactorStatus(user.id);
  const askedForRecovery = new URL(request.url).searchParams.get("recovery") === "1";
  return json({ totp: status.totp, passkeys: status.passkeys > 0, recovery: askedForRecovery || !status.totp });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const user = await pendingCodeStepUser(request);
  if (!user) return json({ result: formRefusal(codeMessages.noPendingStep) }, { status: 401 });

  const submission = parseSubmission(body.formData, codeStepSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  }
  const outcome = await checkSecondFactorCode({ user, code: submission.value.code, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      { result: submission.reply({ formErrors: [outcome.message], hideFields: ["code"] }) },
      refusalInit(outcome),
    );
  }
  // Two tabs sending right codes at once: only the one that closes the step gets a session.
  if (!(await completeCodeStep(request))) {
    return json({ result: formRefusal(codeMessages.noPendingStep) }, { status: 401 });
  }
  return createUserSession({
    user,
    authMethod: outcome.method === "totp" ? "password+totp" : "password+recovery_code",
    request,
    ip: context.clientIp,
    redirectTo: await homeAfterSignIn(user.id),
    toast: { message: authNotices.loggedIn, type: "success" },
  });
}
