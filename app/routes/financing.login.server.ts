import { type ActionFunctionArgs, json } from "@remix-run/node";
import { authNotices } from "~/content/account-pages/notices.server";
import { accountDoorLoader } from "~/http/account-door.server";
import { createUserSession, ENROL_PATH, HOME_PATH, redirectToCodeStep, requireAnonymous } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { refusalInit } from "~/http/retry-after";
import { loginSchema } from "~/models/account/account-schemas.server";
import { logIn } from "~/models/account/sign-in.server";
import { stepAfterPassword } from "~/models/second-factor/second-factor.server";

export const loader = accountDoorLoader;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), unverifiedEmail: null }, { status: body.status });
  const submission = parseSubmission(body.formData, loginSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }), unverifiedEmail: null }, { status: 400 });
  }

  const outcome = await logIn({ ...submission.value, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }),
        // Only after the right password, so it tells a stranger nothing.
        unverifiedEmail: outcome.code === "unverified" ? submission.value.email : null,
      },
      refusalInit(outcome),
    );
  }

  // With a second factor the session waits for the code; an administrator without one sets it up first.
  const next = await stepAfterPassword(outcome.user);
  if (next === "code") return redirectToCodeStep(outcome.user, context.clientIp);
  return createUserSession({
    user: outcome.user,
    authMethod: "password",
    request,
    ip: context.clientIp,
    enrolmentOnly: next === "enrol",
    redirectTo: next === "enrol" ? ENROL_PATH : HOME_PATH,
    toast: { message: authNotices.loggedIn, type: "success" },
  });
}
