import { type ActionFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { AuthCard, EmailField } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { HoneypotFields } from "~/components/honeypot-fields";
import { NewPasswordFields } from "~/components/new-password-fields";
import { authNotices } from "~/content/account-pages/notices.server";
import { signupPage } from "~/content/account-pages/signup";
import { EMAIL_MAX_LENGTH } from "~/content/constants";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { accountDoorLoader } from "~/http/account-door.server";
import { requireAnonymous } from "~/http/auth.server";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { isSpam } from "~/http/honeypot.server";
import { keepRetryAfter, refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { rememberVerificationSent } from "~/http/verification-sent.server";
import { pageMeta } from "~/lib/meta";
import { signupSchema } from "~/models/account/account-schemas.server";
import { registerAccount } from "~/models/account/sign-up.server";
import { log } from "~/server/log.server";

const PASSWORD_FIELDS = ["password", "confirmPassword"];

export const loader = accountDoorLoader;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message) }, { status: body.status });
  const { formData } = body;
  // A bot gets the same answer as a person, so it learns nothing; nothing is stored or sent.
  if (isSpam(formData)) {
    log("warn", "signup.honeypot", { ip: context.clientIp });
    return toTheInbox(formData.get("email"));
  }

  const submission = parseSubmission(formData, signupSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 });
  }

  const { email, password } = submission.value;
  const outcome = await registerAccount({ email, password, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      { result: submission.reply({ formErrors: [outcome.message], hideFields: PASSWORD_FIELDS }) },
      refusalInit(outcome),
    );
  }
  return toTheInbox(email);
}

/**
 * Every sign-up that is not refused ends the same way, whether the address was new, already had an
 * account, or came from a bot: on the page that says where the link went and offers to send it again.
 */
async function toTheInbox(email: FormDataEntryValue | null) {
  const address = typeof email === "string" ? email.trim().slice(0, EMAIL_MAX_LENGTH) : "";
  return redirectWithSuccess("/financing/verify-email", authNotices.verificationSent, {
    headers: { "Set-Cookie": await rememberVerificationSent(address) },
  });
}

export const meta: MetaFunction = () => pageMeta(signupPage.title, signupPage.description);

export const headers = keepRetryAfter;

export default function SignupPage() {
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("signup", actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={signupPage.heading}>
        <Form method="post" {...formProps}>
          <HoneypotFields />
          <FormErrors id="signup-form-error" errors={formErrors} />
          <EmailField field={fieldProps("email")} />
          <NewPasswordFields password={fieldProps("password")} confirmPassword={fieldProps("confirmPassword")} />
          <button type="submit" className="button">
            {signupPage.submit}
          </button>
        </Form>
        <div className="auth-links">
          <p>
            {signupPage.haveAccount} <Link to="/financing/login">{signupPage.signInLink}</Link>
          </p>
        </div>
        <section className="auth-terms" aria-labelledby="auth-terms-heading">
          <h2 id="auth-terms-heading">{signupPage.termsHeading}</h2>
          <p>{signupPage.terms}</p>
        </section>
      </AuthCard>
    </div>
  );
}
