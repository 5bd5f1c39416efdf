import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { CodeField } from "~/components/code-field";
import { FormErrors } from "~/components/form-field";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { codeStepChoice } from "~/content/recovery-codes";
import { codeStepPage } from "~/content/second-factor";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { action, loader } from "./financing.login_.code.server";

export { action, loader };

export const meta: MetaFunction = () => pageMeta(codeStepPage.title, codeStepPage.description);

export const headers = keepRetryAfter;

const CODE_STEP = "/financing/login/code";

/**
 * The login's second step: a code from the authenticator app, or, as a choice of its own, a recovery
 * code (its field takes letters, so a phone shows its ordinary keyboard), or a passkey.
 */
export default function CodeStepPage() {
  const { totp, passkeys, recovery } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Checked when sent, not when left: the field starts focused, and leaving it for another way in
  // (a recovery code, a passkey) must not put a message in the way of that click.
  const { formProps, formErrors, fieldProps } = useLiveValidation("code-step", actionData?.result, "submit");
  const intro = recovery ? (totp ? codeStepChoice.introRecovery : codeStepPage.introPasskeyOnly) : codeStepPage.intro;

  return (
    <div className="auth-page">
      <AuthCard heading={codeStepPage.heading} intro={intro}>
        <Form method="post" {...formProps}>
          <FormErrors id="code-step-form-error" errors={formErrors} />
          <CodeField
            // A new field for the other kind of code, so the cursor moves into it.
            key={recovery ? "recovery" : "app"}
            field={fieldProps("code")}
            label={recovery ? codeStepChoice.recoveryLabel : codeStepPage.codeLabel}
            kind={recovery ? "recovery" : "app"}
            focusOnArrival
          />
          <button type="submit" className="button">
            {codeStepPage.submit}
          </button>
        </Form>
        {totp ? (
          <p className="code-step-choice">
            <Link to={recovery ? CODE_STEP : `${CODE_STEP}?recovery=1`} replace>
              {recovery ? codeStepChoice.useApp : codeStepChoice.useRecoveryCode}
            </Link>
          </p>
        ) : null}
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
