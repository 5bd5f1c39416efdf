import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useState } from "react";
import { AddPasskey } from "~/components/add-passkey";
import { AuthCard } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { MyDataSection } from "~/components/my-data";
import { PasskeyFacts, RenamePasskeyForm } from "~/components/passkey-facts";
import { reauthenticatedUntil, ReauthenticationForm } from "~/components/reauthentication-form";
import { RecoveryCodes } from "~/components/recovery-codes";
import { SignInLinks } from "~/components/sign-in-links";
import { ndaContent } from "~/content/nda";
import { securityPage } from "~/content/second-factor";
import { keepRetryAfter } from "~/http/retry-after";
import type { FormReply } from "~/lib/form-reply";
import { pageMeta } from "~/lib/meta";
import sessionsStyles from "~/styles/account-sessions.css";
import securityStyles from "~/styles/security.css";
import { action, loader } from "./route.server";

export { action, loader };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: securityStyles },
  { rel: "stylesheet", href: sessionsStyles },
];

export const meta: MetaFunction = () => pageMeta(securityPage.title, securityPage.description);

export const headers = keepRetryAfter;

/**
 * The account's second factor: the authenticator app, recovery codes and passkeys. What it has is
 * always shown; the changes open once the user confirms it is them.
 */
export default function SecurityPage() {
  const { status, passkeys, canTurnOff, reauthentication, ndaConsent, ndaSigned } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The first passkey's recovery codes, from its script's answer: shown once, like any new set, until
  // the page is left ("Continue" comes back here, as a new visit).
  const { key: visit } = useLocation();
  const [codesWithPasskey, setCodesWithPasskey] = useState<{ codes: string[]; visit: string } | null>(null);
  const replyFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const hasFactor = status.totp || status.passkeys > 0;
  const confirmed = reauthentication.until !== null;
  // A reply for no form the page shows (an unknown change, an unreadable body, a change made after the
  // confirmation ran out) is shown above them all.
  const shownForms = confirmed
    ? [
        ...(hasFactor ? ["regenerate-codes"] : []),
        ...(hasFactor && canTurnOff ? ["remove"] : []),
        ...(passkeys.some((passkey) => passkey.id === actionData?.passkeyId)
          ? ["remove-passkey", "rename-passkey"]
          : []),
      ]
    : ["confirm"];
  const unplaced =
    actionData && !shownForms.includes(actionData.intent ?? "")
      ? Object.values(actionData.result.error).flat()
      : undefined;

  const recoveryCodes =
    actionData?.recoveryCodes ?? (codesWithPasskey?.visit === visit ? codesWithPasskey.codes : null);
  if (recoveryCodes) {
    return (
      <div className="auth-page">
        <AuthCard heading={securityPage.heading}>
          <RecoveryCodes codes={recoveryCodes} continueTo="/financing/security" />
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={securityPage.heading} intro={securityPage.intro}>
        <FormErrors id="security-form-error" errors={unplaced} />
        {confirmed && reauthentication.until ? (
          <p className="form-status" role="status">
            {reauthenticatedUntil(reauthentication.until)}
          </p>
        ) : (
          <ReauthenticationForm
            reply={replyFor("confirm")}
            asksForCode={reauthentication.asksForCode}
            codeFromApp={reauthentication.codeFromApp}
            offersPasskey={reauthentication.offersPasskey}
            minutes={reauthentication.minutes}
          />
        )}

        <section className="security-section" aria-labelledby="security-app">
          <h2 id="security-app">{securityPage.appHeading}</h2>
          <p>{status.totp ? securityPage.appOn : securityPage.appOff}</p>
          {confirmed ? (
            <p>
              <Link to="/financing/security/authenticator" className="button button--secondary">
                {status.totp ? securityPage.replaceApp : securityPage.setUpApp}
              </Link>
            </p>
          ) : null}
        </section>

        {hasFactor ? (
          <section className="security-section" aria-labelledby="security-codes">
            <h2 id="security-codes">{securityPage.codesHeading}</h2>
            <p>{securityPage.codesLeft(status.recoveryCodesLeft)}</p>
            {confirmed ? (
              <ChangeForm
                intent="regenerate-codes"
                label={securityPage.regenerateCodes}
                reply={replyFor("regenerate-codes")}
              />
            ) : null}
          </section>
        ) : null}

        <section className="security-section" aria-labelledby="security-passkeys">
          <h2 id="security-passkeys">{securityPage.passkeysHeading}</h2>
          {passkeys.length === 0 ? <p>{securityPage.passkeysNone}</p> : null}
          {passkeys.map((passkey, index) => (
            <div key={passkey.id} className="security-passkey signed-in">
              <PasskeyFacts passkey={passkey} number={index + 1} />
              {confirmed ? (
                <RenamePasskeyForm
                  passkey={passkey}
                  number={index + 1}
                  reply={
                    actionData?.intent === "rename-passkey" && actionData.passkeyId === passkey.id
                      ? actionData.result
                      : undefined
                  }
                />
              ) : null}
              {confirmed ? (
                <ChangeForm
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
              ) : null}
            </div>
          ))}
          {confirmed ? <AddPasskey onRecoveryCodes={(codes) => setCodesWithPasskey({ codes, visit })} /> : null}
        </section>

        {hasFactor && (confirmed || !canTurnOff) ? (
          <section className="security-section" aria-labelledby="security-off">
            <h2 id="security-off">{securityPage.removeApp}</h2>
            {canTurnOff ? (
              <ChangeForm intent="remove" label={securityPage.removeApp} reply={replyFor("remove")} />
            ) : (
              <p>{securityPage.removeAdminNote}</p>
            )}
          </section>
        ) : null}

        <SignInLinks />
        <MyDataSection confirmed={confirmed} />
        {ndaSigned ? (
          <section className="security-section" aria-labelledby="security-nda-signed">
            <h2 id="security-nda-signed">{ndaContent.heading}</h2>
            <p>
              <a href="/financing/nda.pdf">{ndaContent.download}</a>
            </p>
          </section>
        ) : null}
        {ndaConsent ? (
          <section aria-labelledby="security-nda-consent">
            <h2 id="security-nda-consent">{ndaContent.withdraw}</h2>
            <p>{ndaContent.withdrawIntro}</p>
            <Form method="post" action="/financing/security/nda-consent" className="security-form">
              <button type="submit" className="button button--secondary">
                {ndaContent.withdraw}
              </button>
            </Form>
          </section>
        ) : null}

        <p className="auth-links">
          <Link to="/financing">{securityPage.backToPortal}</Link>
        </p>
      </AuthCard>
    </div>
  );
}

/** One change the confirmation opened, as its own small form: a button, and its message beside it. */
function ChangeForm({
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
  const formErrors = reply ? Object.values(reply.error).flat() : undefined;
  return (
    <Form method="post" className="security-form" id={formId}>
      <FormErrors id={`${formId}-form-error`} errors={formErrors} />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button button--secondary">
        {label}
      </button>
    </Form>
  );
}
