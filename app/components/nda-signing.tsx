import { Form } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { ndaContent } from "~/content/nda";
import type { FormReply } from "~/lib/form-reply";

export type NdaSection = {
  step: string;
  fullName: string;
  hasSecondFactor: boolean;
  disclosure: { title: string; paragraphs: string[]; agree: string };
  copy: { templateVersion: number; sha256: string } | null;
};

const PDF_PATH = "/financing/nda.pdf";

/**
 * The NDA on the status page: the agreement to review (in the page where the browser shows PDFs, and a link
 * either way), and the signature with "Confirm it's you", which carries the consent to electronic records
 * while none is in force. One plain form: the same without JavaScript.
 */
export function NdaSigning({ nda, lastResult }: { nda: NdaSection; lastResult: FormReply | undefined }) {
  const words = ndaContent;
  const errors = lastResult?.error ?? {};
  if (nda.step === "waiting-for-countersignature") {
    return (
      <section className="nda-signing" aria-labelledby="nda-signing-heading">
        <h2 id="nda-signing-heading">{words.heading}</h2>
        <p>{words.waiting}</p>
        <p>
          <a href={PDF_PATH}>{words.download}</a>
        </p>
      </section>
    );
  }
  if (nda.step !== "consent-needed" && nda.step !== "ready-to-sign") return null;
  return (
    <section className="nda-signing" aria-labelledby="nda-signing-heading">
      <h2 id="nda-signing-heading">{words.heading}</h2>
      <FormErrors id="nda-signing-error" errors={errors[""]} />
      {nda.copy ? (
        <>
          <h3>{words.reviewHeading}</h3>
          <p>{words.reviewIntro(nda.copy.templateVersion)}</p>
          <object className="nda-signing__viewer" data={PDF_PATH} type="application/pdf" title={words.viewerTitle}>
            <p>
              <a href={PDF_PATH}>{words.openPdf}</a>
            </p>
          </object>
          <p>
            <a href={PDF_PATH} target="_blank" rel="noreferrer">
              {words.openPdf}
            </a>
          </p>
          <Form method="post" className="nda-signing__sign" aria-labelledby="nda-sign-heading">
            <h3 id="nda-sign-heading">{words.signHeading}</h3>
            <input type="hidden" name="copySha256" value={nda.copy.sha256} />
            {nda.step === "consent-needed" ? <ConsentBox disclosure={nda.disclosure} errors={errors.agree} /> : null}
            <Field
              id="nda-typed-name"
              name="typedName"
              label={words.typedName}
              hint={words.typedNameHint(nda.fullName)}
              autoComplete="name"
              required
              errors={errors.typedName}
            />
            <div className="field field--checkbox">
              <input id="nda-intent" type="checkbox" name="signIntent" required />
              <label htmlFor="nda-intent">{words.intent}</label>
            </div>
            <FormErrors id="nda-intent-error" errors={errors.signIntent} />
            <fieldset>
              <legend>{words.confirmHeading}</legend>
              <Field
                id="nda-password"
                name="password"
                type="password"
                label={words.password}
                autoComplete="current-password"
                required
                errors={errors.password}
              />
              {nda.hasSecondFactor ? (
                <Field
                  id="nda-code"
                  name="code"
                  label={words.code}
                  autoComplete="one-time-code"
                  inputMode="text"
                  required
                  errors={errors.code}
                />
              ) : null}
            </fieldset>
            <button type="submit" name="intent" value="nda-sign" className="button">
              {words.signButton}
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}

/**
 * Consent to electronic records, given with the signature: the disclosure in full, and its own box (the
 * disclosure's words, whose hash the consent records).
 */
function ConsentBox({ disclosure, errors }: { disclosure: NdaSection["disclosure"]; errors: string[] | undefined }) {
  return (
    <div className="nda-signing__consent">
      <p>{ndaContent.consentIntro}</p>
      <h4>{disclosure.title}</h4>
      {disclosure.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <div className="field field--checkbox">
        <input
          id="nda-agree"
          type="checkbox"
          name="agree"
          required
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? "nda-agree-error" : undefined}
        />
        <label htmlFor="nda-agree">{disclosure.agree}</label>
      </div>
      <FormErrors id="nda-agree-error" errors={errors} />
    </div>
  );
}
