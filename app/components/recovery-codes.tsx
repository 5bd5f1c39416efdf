import { Form } from "@remix-run/react";
import { useState } from "react";
import { RECOVERY_CODES_FILE_PATH, RECOVERY_CODES_PATH, recoveryCodesPage } from "~/content/recovery-codes";
import { useHydrated } from "~/hooks/use-hydrated";
import { FormErrors } from "./form-field";

/** Where "Continue" may lead once the codes are saved. */
export type AfterRecoveryCodes = "/financing" | "/financing/security";

/**
 * A new set of recovery codes, shown once: to copy (with the page's script), download as a .txt file,
 * or print (only the codes are printed), and "I have saved these codes" before "Continue". Both forms
 * carry the codes back, as the page showed them: the file is made from them, and a "Continue" without
 * the box ticked shows them again rather than losing them.
 */
export function RecoveryCodes({
  codes,
  continueTo,
  errors,
}: {
  codes: string[];
  continueTo: AfterRecoveryCodes;
  /** The refusal of a "Continue" without the box ticked. */
  errors?: string[];
}) {
  const hydrated = useHydrated();
  const shown = codes.join(" ");
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading">{recoveryCodesPage.heading}</h2>
      <p>{recoveryCodesPage.intro}</p>
      <ul className="recovery-codes__list" aria-label={recoveryCodesPage.listLabel}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="recovery-codes__actions">
        {hydrated ? <CopyCodes codes={codes} /> : null}
        {/*
          A plain form, which the browser sends itself and whose answer it saves, script or not. The
          codes go back in a POST body, to the server that made them, over the same connection: never in
          an address, which browsers keep in their history and servers and proxies write to their logs.
          The answer is not stored anywhere (no-store). A data: link would not send them again, but
          browsers save such a link unevenly (some open it instead), so the file is a real answer.
        */}
        <form method="post" action={RECOVERY_CODES_FILE_PATH}>
          <input type="hidden" name="codes" value={shown} />
          <button type="submit" className="button button--secondary">
            {recoveryCodesPage.download}
          </button>
        </form>
        {hydrated ? (
          <button type="button" className="button button--secondary" onClick={() => window.print()}>
            {recoveryCodesPage.print}
          </button>
        ) : (
          <p className="recovery-codes__print-hint">{recoveryCodesPage.printWithoutScript}</p>
        )}
      </div>
      <Form method="post" action={RECOVERY_CODES_PATH} className="recovery-codes__done">
        <FormErrors id="recovery-codes-form-error" errors={errors} />
        <input type="hidden" name="intent" value="continue" />
        <input type="hidden" name="codes" value={shown} />
        <input type="hidden" name="next" value={continueTo} />
        <div className="recovery-codes__saved">
          <input
            type="checkbox"
            id="recovery-codes-saved"
            name="saved"
            value="on"
            required
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? "recovery-codes-form-error" : undefined}
          />
          <label htmlFor="recovery-codes-saved">{recoveryCodesPage.saved}</label>
        </div>
        <button type="submit" className="button">
          {recoveryCodesPage.continue}
        </button>
      </Form>
    </section>
  );
}

/** Copies the codes, one a line: the one part of this page that needs the script. */
function CopyCodes({ codes }: { codes: string[] }) {
  const [said, setSaid] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setSaid(recoveryCodesPage.copied);
    } catch {
      setSaid(recoveryCodesPage.copyFailed);
    }
  }
  return (
    <>
      <button type="button" className="button button--secondary" onClick={copy}>
        {recoveryCodesPage.copy}
      </button>
      <p className="form-status" role="status">
        {said}
      </p>
    </>
  );
}
