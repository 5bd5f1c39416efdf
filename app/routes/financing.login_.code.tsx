import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { CodeField } from "~/components/code-field";
import { FormErrors } from "~/components/form-field";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { codeStepPage } from "~/content/second-factor";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { action, loader } from "./financing.login_.code.server";

export { action, loader };

export const meta: MetaFunction = () => pageMeta(codeStepPage.title, codeStepPage.description);

export const headers = keepRetryAfter;

/** The login's second step: a code from the authenticator app, a recovery code, or a passkey. */
export default function CodeStepPage() {
  const { totp, passkeys } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("code-step", actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={codeStepPage.heading} intro={totp ? codeStepPage.intro : codeStepPage.introPasskeyOnly}>
        <Form method="post" {...formProps}>
          <FormErrors id="code-step-form-error" errors={formErrors} />
          <CodeField field={fieldProps("code")} label={codeStepPage.codeLabel} />
          <button type="submit" className="button">
            {codeStepPage.submit}
          </button>
        </Form>
        {passkeys ? <PasskeySignIn label={codeStepPage.passkeyButton} secondStep /> : null}
        <div className="auth-links">
          <p>
            <Link to="/financing/login">{codeStepPage.startOver}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}
