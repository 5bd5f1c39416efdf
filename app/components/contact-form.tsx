import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { LinkDescriptor } from "@remix-run/node";
import { Form, useActionData, useFormAction, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { contactForm } from "~/content/contact";
import contactStyles from "~/styles/contact.css";
import { contactSchema } from "~/utils/contact-schema";

/** For the `links` of every route that renders the form. */
export const contactFormLinks: LinkDescriptor[] = [{ rel: "stylesheet", href: contactStyles }];

type HeadingLevel = 1 | 2 | 3;

/**
 * The contact form. It posts to the route that renders it, whose action calls
 * handleContactForm, and shows the errors that action returns.
 */
export function ContactForm({ headingLevel = 2 }: { headingLevel?: HeadingLevel }) {
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const [form, fields] = useForm({
    id: "contact-form",
    lastResult,
    constraint: getZodConstraint(contactSchema),
    // Not on blur: a message appearing as the last field loses focus would move
    // the button away from under the pointer that is about to click it.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });
  const sending = useSubmissionOfThisForm(lastResult, form.reset);
  const Heading = `h${headingLevel}` as const;
  const headingId = `${form.id}-title`;
  const { labels } = contactForm;

  return (
    <Form method="post" className="contact-form" aria-labelledby={headingId} {...getFormProps(form)}>
      <Heading id={headingId} className="contact-form__title">
        {contactForm.title}
      </Heading>
      <p className="contact-form__intro">{contactForm.intro}</p>
      <p className="contact-form__note">{contactForm.allRequired}</p>
      {form.errors?.length ? (
        <p id={form.errorId} className="form-error" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <HoneypotInputs />
      <div className="contact-form__names">
        <TextField meta={fields.firstName} label={labels.firstName} type="text" autoComplete="given-name" />
        <TextField meta={fields.lastName} label={labels.lastName} type="text" autoComplete="family-name" />
      </div>
      <TextField meta={fields.email} label={labels.email} type="email" autoComplete="email" />
      <MessageField meta={fields.message} label={labels.message} />
      <button type="submit" className="button contact-form__submit" disabled={sending}>
        {contactForm.submit}
      </button>
    </Form>
  );
}

/**
 * Whether this form is being sent; and once a message was sent (the action
 * redirected, so there is no action data), a fresh form, so the sent message
 * does not linger in the fields.
 */
function useSubmissionOfThisForm(lastResult: SubmissionResult<string[]> | undefined, reset: () => void) {
  const navigation = useNavigation();
  const formAction = useFormAction();
  const submitted = useRef(false);
  const sending = navigation.state === "submitting" && navigation.formMethod === "POST" && navigation.formAction === formAction;
  useEffect(() => {
    if (sending) submitted.current = true;
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (!lastResult) reset();
  }, [sending, navigation.state, lastResult, reset]);
  return sending;
}

// Conform hands out a `key` (so that a reset re-mounts the control); React wants it apart from the spread.

function TextField({
  meta,
  label,
  type,
  autoComplete,
}: {
  meta: FieldMetadata<string>;
  label: string;
  type: "text" | "email";
  autoComplete: string;
}) {
  const { key, ...props } = getInputProps(meta, { type });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input key={key} {...props} autoComplete={autoComplete} />
      <FieldError meta={meta} />
    </div>
  );
}

function MessageField({ meta, label }: { meta: FieldMetadata<string>; label: string }) {
  const { key, ...props } = getTextareaProps(meta);
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <textarea key={key} {...props} rows={6} />
      <FieldError meta={meta} />
    </div>
  );
}

function FieldError({ meta }: { meta: FieldMetadata<string> }) {
  const error = meta.errors?.[0];
  if (!error) return null;
  return (
    <p id={meta.errorId} className="field__error">
      {error}
    </p>
  );
}
