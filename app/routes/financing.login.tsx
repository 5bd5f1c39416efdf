import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { AuthCard, CurrentPasswordField, EmailField, keepRetryAfter } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { authNotices } from "~/content/account-pages/common";
import { loginPage } from "~/content/account-pages/login";
import { logIn } from "~/models/account.server";
import { createUserSession, requireAnonymous } from "~/models/session.server";
import { loginSchema } from "~/utils/account-validation.server";
import { formRefusal, readFormBody } from "~/utils/form-body.server";
import { parseSubmission } from "~/utils/form-submission.server";
import { honeypotFields } from "~/utils/honeypot.server";
import { useLiveValidation } from "~/utils/live-validation";
import { pageMeta } from "~/utils/meta";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return { honeypot: await honeypotFields() };
}

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
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }

  return createUserSession({
    userId: outcome.user.id,
    request,
    redirectTo: "/financing",
    toast: { message: authNotices.loggedIn, type: "success" },
  });
}

export const meta: MetaFunction = () => pageMeta(loginPage.title, loginPage.description);

export const headers = keepRetryAfter;

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("login", actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={loginPage.heading} intro={loginPage.intro}>
        {/* SPEC's hidden 'Remember Password' checkbox did nothing, so it is left out (sessions are decided by DESIGN.md section 5). */}
        <Form method="post" {...formProps}>
          <FormErrors id="login-form-error" errors={formErrors} />
          <EmailField field={fieldProps("email")} />
          <CurrentPasswordField field={fieldProps("password")} />
          <button type="submit" className="button">
            {loginPage.submit}
          </button>
        </Form>
        {actionData?.unverifiedEmail ? <ResendVerification email={actionData.unverifiedEmail} /> : null}
        <div className="auth-links">
          <p>
            {loginPage.noAccount} <Link to="/financing/signup">{loginPage.createLink}</Link>
          </p>
          <p>
            <Link to="/financing/forgotpassword">{loginPage.forgotLink}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}

/** Beside the refusal of an unverified account: one click mails a fresh link. */
function ResendVerification({ email }: { email: string }) {
  return (
    <Form method="post" action="/financing/verify-email" className="auth-resend">
      <HoneypotFields />
      <input type="hidden" name="email" value={email} />
      <p>{loginPage.resendIntro}</p>
      <button type="submit" className="button button--secondary">
        {loginPage.resendButton}
      </button>
    </Form>
  );
}
