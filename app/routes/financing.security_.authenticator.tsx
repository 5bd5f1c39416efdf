import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { CodeField } from "~/components/code-field";
import { FormErrors } from "~/components/form-field";
import { ReauthenticationForm } from "~/components/reauthentication-form";
import { RecoveryCodes } from "~/components/recovery-codes";
import { openInApp } from "~/content/recovery-codes";
import { enrolPage, securityPage } from "~/content/second-factor";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { keepRetryAfter } from "~/http/retry-after";
import type { FormReply } from "~/lib/form-reply";
import { pageMeta } from "~/lib/meta";
import securityStyles from "~/styles/security.css";
import { action, loader } from "./financing.security_.authenticator.server";

export { action, loader };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: securityStyles }];

export const meta: MetaFunction = () => pageMeta(enrolPage.title, enrolPage.description);

export const headers = keepRetryAfter;

export default function AuthenticatorSetUpPage() {
  const { setUp, reauthentication, mustEnrol } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (actionData?.recoveryCodes && "continueTo" in actionData) {
    return (
      <div className="auth-page">
        <AuthCard heading={enrolPage.heading}>
          <RecoveryCodes codes={actionData.recoveryCodes} continueTo={actionData.continueTo} />
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={enrolPage.heading} intro={mustEnrol ? securityPage.adminRequired : undefined}>
        {setUp ? (
          <SetUpForm {...setUp} reply={actionData?.result} />
        ) : reauthentication ? (
          <ReauthenticationForm reply={actionData?.result} {...reauthentication} />
        ) : null}
        {mustEnrol ? null : (
          <p className="auth-links">
            <Link to="/financing/security">{securityPage.heading}</Link>
          </p>
        )}
      </AuthCard>
    </div>
  );
}

function SetUpForm({
  secret,
  uri,
  qrSvg,
  replacing,
  reply,
}: {
  secret: string;
  uri: string;
  qrSvg: string;
  replacing: boolean;
  reply: FormReply | undefined;
}) {
  const { formProps, formErrors, fieldProps } = useLiveValidation("authenticator", reply, "submit");
  return (
    <>
      <ol className="enrol-steps">
        <li>
          <p>{enrolPage.steps[0]}</p>
          {/* Server-made SVG of our own secret's address: markup we produced, not user input. */}
          <div
            className="qr-code"
            role="img"
            aria-label={enrolPage.qrLabel}
            dangerouslySetInnerHTML={{ __html: qrSvg }}
          />
        </li>
        <li>
          <p>{enrolPage.steps[1]}</p>
          <p className="totp-secret">
            <span className="visually-hidden">{enrolPage.secretLabel}: </span>
            <code>{secret.replace(/(.{4})/g, "$1 ").trim()}</code>
          </p>
          {/* On the phone that holds the app, which cannot scan its own screen. */}
          <p>
            <a href={uri} className="button button--secondary">
              {openInApp}
            </a>
          </p>
        </li>
        <li>
          <p>{enrolPage.steps[2]}</p>
        </li>
      </ol>
      <Form method="post" {...formProps}>
        <FormErrors id="authenticator-form-error" errors={formErrors} />
        <input type="hidden" name="intent" value="enrol" />
        {replacing ? <p>{enrolPage.replacingNote}</p> : null}
        <CodeField field={fieldProps("code")} label={enrolPage.codeLabel} focusOnArrival />
        <button type="submit" className="button">
          {enrolPage.submit}
        </button>
      </Form>
    </>
  );
}
