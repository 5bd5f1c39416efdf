import type { LinkDescriptor } from "@remix-run/node";
import { Form, useActionData, useFormAction, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type RefObject } from "react";
import { Field, FormErrors } from "~/components/form-field";
import { HoneypotFields } from "~/components/honeypot-fields";
import { EMAIL_MAX_LENGTH, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from "~/content/constants";
import { contactForm } from "~/content/contact";
import { useLiveValidation } from "~/hooks/use-live-validation";
import type { FormReply } from "~/lib/form-reply";
import contactStyles from "~/styles/contact.css";

/** For the `links` of every route that renders the form. */
export const contactFormLinks: LinkDescriptor[] = [{ rel: "stylesheet", href: contactStyles }];

type HeadingLevel = 1 | 2 | 3;

/**
 * The contact form. It posts to the route that renders it, whose action calls
 * handleContactForm (the real check), and shows the errors that action
 * returns. With JavaScript the fields are checked when the form is first sent,
 * then as they are corrected; not on blur: a message appearing as the last
 * field loses focus would move the button away from under the pointer that is
 * about to click it.
 */
export function ContactForm({ headingLevel = 2 }: { headingLevel?: HeadingLevel }) {
  const lastResult = useActionData<FormReply>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("contact-form", lastResult, "submit");
  const sending = useSubmissionOfThisForm(formProps.ref, lastResult);
  const Heading = `h${headingLevel}` as const;
  const headingId = "contact-form-title";
  const { labels, errors } = contactForm;

  return (
    <Form method="post" className="contact-form" aria-labelledby={headingId} {...formProps}>
      <Heading id={headingId} className="contact-form__title">
        {contactForm.title}
      </Heading>
      <p className="contact-form__intro">{contactForm.intro}</p>
      <p className="contact-form__note">{contactForm.allRequired}</p>
      <FormErrors id="contact-form-form-error" errors={formErrors} />
      <HoneypotFields />
      <div className="contact-form__names">
        <Field
          {...fieldProps("firstName")}
          label={labels.firstName}
          autoComplete="given-name"
          required
          maxLength={CONTACT_NAME_MAX_LENGTH}
          data-missing={errors.firstNameRequired}
        />
        <Field
          {...fieldProps("lastName")}
          label={labels.lastName}
          autoComplete="family-name"
          required
          maxLength={CONTACT_NAME_MAX_LENGTH}
          data-missing={errors.lastNameRequired}
        />
      </div>
      <Field
        {...fieldProps("email")}
        label={labels.email}
        type="email"
        autoComplete="email"
        required
        maxLength={EMAIL_MAX_LENGTH}
        data-missing={errors.emailRequired}
        data-invalid={errors.emailInvalid}
      />
      <Field
        {...fieldProps("message")}
        label={labels.message}
        multiline
        rows={6}
        required
        maxLength={CONTACT_MESSAGE_MAX_LENGTH}
        data-missing={errors.messageRequired}
      />
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
function useSubmissionOfThisForm(form: RefObject<HTMLFormElement>, lastResult: FormReply | undefined) {
  const navigation = useNavigation();
  const formAction = useFormAction();
  const submitted = useRef(false);
  const sending =
    navigation.state === "submitting" && navigation.formMethod === "POST" && navigation.formAction === formAction;
  useEffect(() => {
    if (sending) submitted.current = true;
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (!lastResult) form.current?.reset();
  }, [sending, navigation.state, lastResult, form]);
  return sending;
}
