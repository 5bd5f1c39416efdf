import { z } from "zod";
import { ADDRESS_MAX_LENGTH, NAME_FIELD_MAX_LENGTH } from "~/content/constants";
import { nameAddressMessages } from "~/content/portal";

export { ADDRESS_MAX_LENGTH };

// C0 and C1 controls, DEL, and the line and paragraph separators: nothing a name or address needs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Zero-width characters and text-direction controls: invisible, they let one name display as another
// in the administrator's table (an override reverses what follows) and hide a formula from a spreadsheet.
const INVISIBLE_CHARACTERS = /[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u061c]/;

/**
 * A trimmed text field of at most `max` characters, control and invisible characters refused,
 * in Unicode's composed form (NFC), so that one name is stored one way whatever keyboard typed it.
 */
export function textField(max: number) {
  return z
    .string()
    .refine((value) => !CONTROL_CHARACTERS.test(value), nameAddressMessages.controlCharacters)
    .refine((value) => !INVISIBLE_CHARACTERS.test(value), nameAddressMessages.invisibleCharacters)
    .transform((value) => value.normalize("NFC").trim())
    .pipe(z.string().max(max, nameAddressMessages.tooLong(max)));
}

export function collapseSpaces(text: string) {
  return text.replace(/\s+/g, " ").trim();
}

export function joinAddress(lines: readonly string[]) {
  return lines.map(collapseSpaces).filter(Boolean).join(" ");
}

const optionalLine = z.preprocess((value) => value ?? "", textField(NAME_FIELD_MAX_LENGTH));

/**
 * The /financing form (components/name-address-form.tsx): Full Name and
 * Address Line 1-3, joined by single spaces. Its action's check; the API
 * checks the joined fields with setNameAddressSchema.
 */
export const nameAddressFormSchema = z
  .object({
    fullName: z.preprocess(
      (value) => value ?? "",
      textField(NAME_FIELD_MAX_LENGTH).pipe(z.string().min(1, nameAddressMessages.fullNameRequired)),
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

/** A correction of details given: the full name and the whole address on one line (what is stored). */
export const detailsCorrectionSchema = z.object({
  fullName: z.preprocess(
    (value) => value ?? "",
    textField(NAME_FIELD_MAX_LENGTH).pipe(z.string().min(1, nameAddressMessages.fullNameRequired)),
  ),
  address: z.preprocess(
    (value) => value ?? "",
    textField(ADDRESS_MAX_LENGTH).pipe(z.string().min(1, nameAddressMessages.addressRequired)),
  ),
});
