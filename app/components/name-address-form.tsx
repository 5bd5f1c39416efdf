import { getFormProps, getInputProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { z } from "zod";
import { FieldErrors, FormErrors } from "~/components/auth-form";
import { nameAddressMessages, portalStatus } from "~/content/portal";
export const NAME_FIELD_MAX_LENGTH = 200;
export const ADDRESS_LINE_COUNT = 3;
/** Three lines of 200 and the two spaces that join them. */
export const ADDRESS_MAX_LENGTH = ADDRESS_LINE_COUNT * NAME_FIELD_MAX_LENGTH + ADDRESS_LINE_COUNT - 1;

// C0 and C1 controls, DEL, and the line and paragraph separators: nothing a name or address needs.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A trimmed text field of at most `max` characters, control characters refused. */
export function textField(max: number) {
  return z
    .string()
    .refine((value) => !CONTROL_CHARACTERS.test(value), nameAddressMessages.controlCharacters)
    .transform((value) => value.trim())
    .pipe(z.string().max(max, nameAddressMessages.tooLong(max)));
}

export function collapseSpaces(text: string) {
  return text.replace(/\s+/g, " ").trim();
}

export function joinAddress(lines: readonly string[]) {
  return lines.map(collapseSpaces).filter(Boolean).join(" ");
}

const optionalLine = z.preprocess((value) => value ?? "", textField(NAME_FIELD_MAX_LENGTH));

/** The page's form: Full Name and Address Line 1-3, joined by single spaces (shared by browser and server). */
export const nameAddressFormSchema = z
  .object({
    fullName: z.preprocess(
      (value) => value ?? "",
      textField(NAME_FIELD_MAX_LENGTH).pipe(z.string().min(1, nameAddressMessages.fullNameRequired))
    ),
    addressLine1: optionalLine,
    addressLine2: optionalLine,
    addressLine3: optionalLine,
  })
  .superRefine((value, ctx) => {
    if (!joinAddress([value.addressLine1, value.addressLine2, value.addressLine3])) {
      ctx.addIssue({ code: "custom", path: ["addressLine1"], message: nameAddressMessages.addressRequired });
    }
  })
  .transform((value) => ({
    fullName: collapseSpaces(value.fullName),
    address: joinAddress([value.addressLine1, value.addressLine2, value.addressLine3]),
  }));

type Props = { lastResult: SubmissionResult<string[]> | undefined };

/** State 0 of /financing: the full name and up to three address lines for the NDA. */
export function NameAddressForm({ lastResult }: Props) {
  const maxLength = NAME_FIELD_MAX_LENGTH;
  const [form, fields] = useForm({
    id: "name-address",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: nameAddressFormSchema, disableAutoCoercion: true }),
  });
  const lines = [fields.addressLine1, fields.addressLine2, fields.addressLine3];

  return (
    <section className="auth-card portal-card" aria-labelledby="name-address-heading">
      <h1 id="name-address-heading">{portalStatus.form.heading}</h1>
      <p className="auth-card__intro">{portalStatus.form.intro}</p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextField
          field={fields.fullName}
          label={portalStatus.form.fullName}
          autoComplete="name"
          required
          maxLength={maxLength}
        />
        {lines.map((field, index) => (
          <TextField
            key={field.name}
            field={field}
            label={portalStatus.form.addressLines[index]}
            autoComplete={`address-line${index + 1}`}
            required={index === 0}
            maxLength={maxLength}
          />
        ))}
        <button type="submit" className="button">
          {portalStatus.form.submit}
        </button>
      </Form>
    </section>
  );
}

function TextField({
  field,
  label,
  autoComplete,
  required,
  maxLength,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  autoComplete: string;
  required: boolean;
  maxLength: number;
}) {
  const { key, ...inputProps } = getInputProps(field as FieldMetadata<string>, { type: "text" });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        key={key}
        {...inputProps}
        required={false}
        autoComplete={autoComplete}
        maxLength={maxLength}
        aria-required={required || undefined}
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}
