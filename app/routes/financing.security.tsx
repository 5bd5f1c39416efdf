import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AddPasskey } from "~/components/add-passkey";
import { AuthCard, CurrentPasswordField } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { RecoveryCodes } from "~/components/recovery-codes";
import { securityPage } from "~/content/second-factor";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { keepRetryAfter } from "~/http/retry-after";
import type { FormReply } from "~/lib/form-reply";
import { pageMeta } from "~/lib/meta";
import securityStyles from "~/styles/security.css";
import { action, loader } from "./financing.security.server";

export { action, loader };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: securityStyles }];

export const meta: MetaFunction = () => pageMeta(securityPage.title, securityPage.description);

export const headers = keepRetryAfter;

/** The account's second factor: the authenticator app, recovery codes and passkeys. */
export default function SecurityPage() {
  const { status, passkeys, canTurnOff } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const replyFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const hasFactor = status.totp || status.passkeys > 0;
  // A reply for no form the page shows (an unknown change, an unreadable body, a change the account
  // cannot make yet) is shown above them all.
  const shownForms = [
    ...(hasFactor ? ["regenerate-codes"] : []),
    ...(hasFactor && canTurnOff ? ["remove"] : []),
    ...(passkeys.some((passkey) => passkey.id === actionData?.passkeyId) ? ["remove-passkey"] : []),
  ];
  const unplaced =
    actionData && !shownForms.includes(actionData.intent ?? "")
      ? Object.values(actionData.result.error).flat()
      : undefined;

  if (actionData?.recoveryCodes) {
    return (
      <div className="auth-page">
        <AuthCard heading={securityPage.heading}>
          <RecoveryCodes codes={actionData.recoveryCodes} continueTo="/financing/security" />
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={securityPage.heading} intro={securityPage.intro}>
        <FormErrors id="security-form-error" errors={unplaced} />
        <section className="security-section" aria-labelledby="security-app">
          <h2 id="security-app">{securityPage.appHeading}</h2>
          <p>{status.totp ? securityPage.appOn : securityPage.appOff}</p>
          <p>
            <Link to="/financing/security/authenticator" className="button button--secondary">
              {status.totp ? securityPage.replaceApp : securityPage.setUpApp}
            </Link>
          </p>
        </section>

        {hasFactor ? (
          <section className="security-section" aria-labelledby="security-codes">
            <h2 id="security-codes">{securityPage.codesHeading}</h2>
            <p>{securityPage.codesLeft(status.recoveryCodesLeft)}</p>
            <PasswordConfirmedForm
              intent="regenerate-codes"
              label={securityPage.regenerateCodes}
              reply={replyFor("regenerate-codes")}
            />
          </section>
        ) : null}

        <section className="security-section" aria-labelledby="security-passkeys">
          <h2 id="security-passkeys">{securityPage.passkeysHeading}</h2>
          {passkeys.length === 0 ? <p>{securityPage.passkeysNone}</p> : null}
          {passkeys.map((passkey, index) => (
            <div key={passkey.id} className="security-passkey">
              <p>{securityPage.passkeyName(index + 1, passkey.createdAt.slice(0, 10))}</p>
              <PasswordConfirmedForm
                intent="remove-passkey"
                formId={`remove-passkey-${index + 1}`}
                label={securityPage.removePasskey}
                reply={
                  actionData?.intent === "remove-passkey" && actionData.passkeyId === passkey.id
                    ? actionData.result
                    : undefined
                }
                hidden={{ passkeyId: passkey.id }}
              />
            </div>
          ))}
          <AddPasskey />
        </section>

        {hasFactor ? (
          <section className="security-section" aria-labelledby="security-off">
            <h2 id="security-off">{securityPage.removeApp}</h2>
            {canTurnOff ? (
              <PasswordConfirmedForm intent="remove" label={securityPage.removeApp} reply={replyFor("remove")} />
            ) : (
              <p>{securityPage.removeAdminNote}</p>
            )}
          </section>
        ) : null}

        <p className="auth-links">
          <Link to="/financing">{securityPage.backToPortal}</Link>
        </p>
      </AuthCard>
    </div>
  );
}

/** A change that asks for the password again, as its own small form. */
function PasswordConfirmedForm({
  intent,
  formId = intent,
  label,
  reply,
  hidden = {},
}: {
  intent: string;
  formId?: string;
  label: string;
  reply: FormReply | undefined;
  hidden?: Record<string, string>;
}) {
  const { formProps, formErrors, fieldProps } = useLiveValidation(formId, reply, "submit");
  return (
    <Form method="post" className="security-form" {...formProps}>
      <FormErrors id={`${formId}-form-error`} errors={formErrors} />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <CurrentPasswordField field={{ ...fieldProps("password") }} />
      <button type="submit" className="button button--secondary">
        {label}
      </button>
    </Form>
  );
}
