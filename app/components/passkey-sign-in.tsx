import { useState } from "react";
import { passkeyMessages } from "~/content/second-factor";
import { useHydrated } from "~/hooks/use-hydrated";
import { postJson } from "~/lib/post-json";

/**
 * Signs in with a passkey: alone from the login page, or as the second step of a pending login.
 * It needs the browser's WebAuthn, so it shows only once the page's script runs; the WebAuthn
 * library is loaded on the first press, not with the page.
 */
export function PasskeySignIn({ label, secondStep = false }: { label: string; secondStep?: boolean }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hydrated) return null;

  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      const { browserSupportsWebAuthn, startAuthentication } = await import("@simplewebauthn/browser");
      if (!browserSupportsWebAuthn()) return setError(passkeyMessages.unsupported);
      const options = await postJson("/financing/login/passkey-options", { secondStep });
      if (!options.ok) return setError(options.message);
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options.body.options });
      } catch {
        return setError(passkeyMessages.cancelled);
      }
      const result = await postJson("/financing/login/passkey", { challengeId: options.body.challengeId, response });
      if (!result.ok) return setError(result.message);
      window.location.assign(result.body.redirectTo);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="passkey-action">
      <button type="button" className="button button--secondary" onClick={signIn} disabled={busy}>
        {label}
      </button>
      <div className="form-error" role="alert">
        {error ? <p>{error}</p> : null}
      </div>
    </div>
  );
}
