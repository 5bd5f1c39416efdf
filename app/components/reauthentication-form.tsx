import { Form } from "@remix-run/react";
import { useRef, useState, type MouseEvent } from "react";
import { passkeyMessages, reauthenticationForm, securityPage } from "~/content/second-factor";
import { validationMessages } from "~/content/validation-messages";
import { useHydrated } from "~/hooks/use-hydrated";
import { useLiveValidation } from "~/hooks/use-live-validation";
import type { FormReply } from "~/lib/form-reply";
import { postJson } from "~/lib/post-json";
import { CurrentPasswordField } from "./auth-form";
import { CodeField } from "./code-field";
import { FormErrors } from "./form-field";

/**
 * "Confirm it's you" before a security change: the password, with a code (the app's or a recovery
 * code) or a passkey where the account has a second factor. A passkey's answer rides in a hidden
 * field of the same form, so the page's one action checks every proof.
 */
export function ReauthenticationForm({
  reply,
  asksForCode,
  codeFromApp = true,
  offersPasskey,
  minutes,
  action,
  intro = reauthenticationForm.intro,
}: {
  reply: FormReply | undefined;
  asksForCode: boolean;
  codeFromApp?: boolean;
  offersPasskey: boolean;
  minutes: number;
  /** Where the form posts: the page's own action unless given. */
  action?: string;
  intro?: (minutes: number) => string;
}) {
  const { formProps, formErrors, fieldProps } = useLiveValidation("confirm", reply, "submit");
  const hydrated = useHydrated();
  const passkeyAnswer = useRef<HTMLInputElement>(null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);

  async function confirmWithPasskey(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    const password = form?.elements.namedItem("password") as HTMLInputElement | null;
    if (!form || !passkeyAnswer.current) return;
    if (!password?.value) return setPasskeyError(validationMessages.passwordEmpty);
    setPasskeyError(null);
    const { browserSupportsWebAuthn, startAuthentication } = await import("@simplewebauthn/browser");
    if (!browserSupportsWebAuthn()) return setPasskeyError(passkeyMessages.unsupported);
    const options = await postJson("/financing/security/confirm-passkey-options", {});
    if (!options.ok) return setPasskeyError(options.message);
    try {
      const response = await startAuthentication({ optionsJSON: options.body.options });
      passkeyAnswer.current.value = JSON.stringify({ challengeId: options.body.challengeId, response });
    } catch {
      return setPasskeyError(passkeyMessages.cancelled);
    }
    form.requestSubmit();
  }

  return (
    <section className="security-section" aria-labelledby="confirm-heading">
      <h2 id="confirm-heading">{reauthenticationForm.heading}</h2>
      <p>{intro(minutes)}</p>
      <Form method="post" action={action} className="security-form" {...formProps}>
        <FormErrors id="confirm-form-error" errors={formErrors} />
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="passkeyAnswer" ref={passkeyAnswer} defaultValue="" />
        <CurrentPasswordField field={fieldProps("password")} />
        {asksForCode ? (
          <CodeField
            field={fieldProps("code")}
            label={reauthenticationForm.codeLabel}
            kind={codeFromApp ? "app" : "recovery"}
            or={offersPasskey ? "passkeyAnswer" : undefined}
          />
        ) : null}
        {asksForCode || !offersPasskey ? (
          <button type="submit" className="button">
            {reauthenticationForm.submit}
          </button>
        ) : null}
        {offersPasskey ? (
          hydrated ? (
            <>
              <button type="button" className="button button--secondary" onClick={confirmWithPasskey}>
                {reauthenticationForm.passkeyButton}
              </button>
              <div className="form-error" role="alert">
                {passkeyError ? <p>{passkeyError}</p> : null}
              </div>
            </>
          ) : (
            <p>{securityPage.passkeyConfirmNeedsScript}</p>
          )
        ) : null}
      </Form>
    </section>
  );
}

/** Made once: a formatter is costly to make, and an administrator's every page says the time. */
const closingFormat = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "UTC" });

/** The time the confirmed changes close again, as the pages say it ("12:15 AM", UTC). */
export function closingTime(until: string) {
  return closingFormat.format(new Date(until));
}

/** When the confirmed changes close again, as the page says it. */
export function reauthenticatedUntil(until: string) {
  return reauthenticationForm.confirmedUntil(closingTime(until));
}
