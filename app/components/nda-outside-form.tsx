import { Form } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { investorPageContent, REASON_MAX_LENGTH } from "~/content/investor-page";
import type { FormReply } from "~/lib/form-reply";

const words = investorPageContent.actions.nda.outside;

/**
 * Marking the NDA completed by hand on an investor's page, for one signed outside the portal: the reason
 * (required) and the signed copy (a PDF, optional). A plain multipart form: it works without JavaScript.
 */
export function NdaOutsideForm({
  returnTo,
  refusal,
  reply,
}: {
  returnTo: string;
  /** The refusal of the last post of this form, if it was refused. */
  refusal: string[] | undefined;
  reply: FormReply | null | undefined;
}) {
  return (
    <section aria-labelledby="nda-outside-heading" className="investor-page__nda-outside">
      <h4 id="nda-outside-heading">{words.heading}</h4>
      <p>{words.intro}</p>
      <Form method="post" encType="multipart/form-data" className="investor-page__form" noValidate>
        <input type="hidden" name="intent" value="nda-outside" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <FormErrors id="nda-outside-error" errors={refusal ?? reply?.error[""]} />
        <Field
          id="nda-outside-reason"
          name="reason"
          label={words.reason}
          hint={words.reasonHint}
          defaultValue={reply?.initialValue.reason ?? ""}
          errors={reply?.error.reason}
          maxLength={REASON_MAX_LENGTH}
          multiline
          required
        />
        <Field id="nda-outside-file" name="file" type="file" accept="application/pdf" label={words.file} />
        <button type="submit" className="button">
          {words.submit}
        </button>
      </Form>
    </section>
  );
}
