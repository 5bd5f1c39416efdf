import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { AuthCard, CurrentPasswordField, EmailField } from "~/components/auth-form";
import { DeferredPasskeySignIn } from "~/components/deferred-passkey-sign-in";
import { FormErrors } from "~/components/form-field";
import { HoneypotFields } from "~/components/honeypot-fields";
import { loginPage } from "~/content/account-pages/login";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { action, loader } from "./financing.login.server";

export { action, loader };

export const meta: MetaFunction = () => pageMeta(loginPage.title, loginPage.description);

export const headers = keepRetryAfter;

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("login", actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={loginPage.heading} intro={loginPage.intro}>
        {/* The old site's hidden 'Remember Password' checkbox did nothing, so it is left out (sessions: docs/requirements.md). */}
        <Form method="post" {...formProps}>
          <FormErrors id="login-form-error" errors={formErrors} />
          <EmailField field={fieldProps("email")} />
          <CurrentPasswordField field={fieldProps("password")} />
          <button type="submit" className="button">
            {loginPage.submit}
          </button>
        </Form>
        <DeferredPasskeySignIn label={loginPage.passkeySignIn} />
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
