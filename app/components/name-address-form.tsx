import { Form } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { NAME_FIELD_MAX_LENGTH } from "~/content/constants";
import { nameAddressMessages, portalStatus } from "~/content/portal";
import { useLiveValidation } from "~/hooks/use-live-validation";
import type { FormReply } from "~/lib/form-reply";

const ADDRESS_LINES = ["addressLine1", "addressLine2", "addressLine3"];

/**
 * State 0 of /financing: the full name and up to three address lines for the
 * NDA. The action checks them (models/investors/name-address-schema.server.ts); one address
 * line is enough, so Address Line 1 is required unless line 2 or 3 is filled.
 */
export function NameAddressForm({ lastResult }: { lastResult: FormReply | undefined }) {
  const { formProps, formErrors, fieldProps } = useLiveValidation("name-address", lastResult);

  return (
    <section className="auth-card portal-card" aria-labelledby="name-address-heading">
      <h1 id="name-address-heading">{portalStatus.form.heading}</h1>
      <p className="auth-card__intro">{portalStatus.form.intro}</p>
      <Form method="post" {...formProps}>
        <FormErrors id="name-address-form-error" errors={formErrors} />
        <Field
          {...fieldProps("fullName")}
          label={portalStatus.form.fullName}
          autoComplete="name"
          required
          maxLength={NAME_FIELD_MAX_LENGTH}
          data-missing={nameAddressMessages.fullNameRequired}
        />
        {ADDRESS_LINES.map((name, index) => (
          <Field
            key={name}
            {...fieldProps(name)}
            label={portalStatus.form.addressLines[index]}
            autoComplete={`address-line${index + 1}`}
            required={index === 0}
            maxLength={NAME_FIELD_MAX_LENGTH}
            data-missing={index === 0 ? nameAddressMessages.addressRequired : undefined}
            data-or={index === 0 ? ADDRESS_LINES.slice(1).join(" ") : undefined}
          />
        ))}
        <button type="submit" className="button">
          {portalStatus.form.submit}
        </button>
      </Form>
    </section>
  );
}
