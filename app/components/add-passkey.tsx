import { useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { passkeyMessages, secondFactorNotices, securityPage } from "~/content/second-factor";
import { useHydrated } from "~/hooks/use-hydrated";
import { postJson } from "~/lib/post-json";

/**
 * Adds a passkey, once the page's "Confirm it's you" has opened the changes: the browser's own
 * passkey dialog. An account's first factor brings its recovery codes, handed to `onRecoveryCodes`. WebAuthn exists only in the browser's script, so without JavaScript this says so
 * (the authenticator app needs none).
 */
export function AddPasskey({ onRecoveryCodes }: { onRecoveryCodes: (codes: string[]) => void }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hydrated) return <p>{securityPage.passkeyNeedsScript}</p>;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const { browserSupportsWebAuthn, startRegistration } = await import("@simplewebauthn/browser");
      if (!browserSupportsWebAuthn()) return setMessage({ text: passkeyMessages.unsupported, error: true });
      const options = await postJson("/financing/security/passkey-options", {});
      if (!options.ok) return setMessage({ text: options.message, error: true });
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.body.options });
      } catch {
        return setMessage({ text: passkeyMessages.cancelled, error: true });
      }
      const result = await postJson("/financing/security/passkeys", {
        challengeId: options.body.challengeId,
        response,
      });
      if (!result.ok) return setMessage({ text: result.message, error: true });
      setMessage({ text: secondFactorNotices.passkeyAdded, error: false });
      // The account's first factor came with its recovery codes: the page shows them before anything else.
      const { recoveryCodes } = result.body as { recoveryCodes: string[] | null };
      if (recoveryCodes) onRecoveryCodes(recoveryCodes);
      revalidator.revalidate();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="security-form" onSubmit={add} noValidate>
      <button type="submit" className="button button--secondary" disabled={busy}>
        {securityPage.addPasskey}
      </button>
      <div className="form-error" role="alert">
        {message?.error ? <p>{message.text}</p> : null}
      </div>
      <div className="form-status" role="status">
        {message && !message.error ? <p>{message.text}</p> : null}
      </div>
    </form>
  );
}
