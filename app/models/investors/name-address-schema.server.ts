import { z } from "zod";
import { ADDRESS_MAX_LENGTH, NAME_FIELD_MAX_LENGTH } from "~/content/constants";
import { nameAddressMessages } from "~/content/portal";

export { ADDRESS_MAX_LENGTH };

// C0 and C1 controls, DEL, and the line and paragraph separators: nothing a name or address needs.
const CONTROL_CHARACTERS = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029";
// Zero-width characters and text-direction controls: invisible, they let one name display as another
// in the administrator's table (an override reverses what follows) and hide a formula from a spreadsheet.
const INVISIBLE_CHARACTERS = "\\u200b-\\u200f\\u2060\\ufeff\\u202a-\\u202e\\u2066-\\u2069\\u061c";

const controlCharacter = new RegExp(`[${CONTROL_CHARACTERS}]`, "u");
const invisibleCharacter = new RegExp(`[${INVISIBLE_CHARACTERS}]`, "u");
const LINE = `[^${CONTROL_CHARACTERS}${INVISIBLE_CHARACTERS}]*`;

type TextRules = {
  /** The message for a value that is empty or only spaces; without it, empty is fine. */
  required?: string;
  /** How many lines, joined by a line feed, the field takes (the API's address: the form's three). */
  lines?: number;
  /** The message for a value that is not text at all; without it, the API's plain words. */
  notText?: string;
};

/**
 * A text field's characters and lines as one regular expression: a zod check that exports, so that the
 * OpenAPI document carries the very rule the server applies (as `pattern`). Linear: no part of it can
 * match the same text two ways.
 */
export function textPattern({ required, lines = 1 }: Pick<TextRules, "required" | "lines">): RegExp {
  const notBlank = required ? "(?=\\s*\\S)" : "";
  const moreLines = lines > 1 ? `(?:\\n${LINE}){0,${lines - 1}}` : "";
  return new RegExp(`^${notBlank}${LINE}${moreLines}$`, "u");
}

/** Why the pattern refused a text, in the words the forms and the API have always used. */
function refusalOf(text: string, { required, lines = 1 }: TextRules): string {
  const lineBreaks = text.split("\n").length - 1;
  if (controlCharacter.test(lines > 1 ? text.replaceAll("\n", "") : text)) return nameAddressMessages.controlCharacters;
  if (lineBreaks >= lines) return nameAddressMessages.tooManyLines(lines);
  if (invisibleCharacter.test(text)) return nameAddressMessages.invisibleCharacters;
  return required ?? nameAddressMessages.controlCharacters;
}

/**
 * A text field of at most `max` characters as sent, control and invisible characters refused, not blank
 * when `required`; stored trimmed and in Unicode's composed form (NFC), so that one name is stored one
 * way whatever keyboard typed it. Each rule is a check JSON Schema can say (pattern, minLength,
 * maxLength), so the API's document cannot be looser than the server.
 */
export function textField(max: number, rules: TextRules = {}) {
  const checked = z
    .string(rules.notText ? { error: rules.notText } : undefined)
    .regex(textPattern(rules), { error: (issue) => refusalOf(String(issue.input), rules), abort: true });
  return (rules.required ? checked.min(1, { error: rules.required }) : checked)
    .max(max, { error: nameAddressMessages.tooLong(max) })
    .transform((value) => value.normalize("NFC").trim());
}

export function collapseSpaces(text: string) {
  return text.replace(/\s+/g, " ").trim();
}

/** Address lines as they are kept: spaces within each collapsed, blank ones dropped. */
function keptLines(lines: readonly string[]) {
  return lines.map(collapseSpaces).filter(Boolean);
}

/** What `users` keeps of an address: the one string the specification describes, and the lines it is made of. */
export type StoredAddress = { address: string; addressLines: string | null };

/**
 * An address as given (the form's lines or the API's, joined by line feeds, or the one line a correction
 * types) as it is stored: `address`, the lines joined by single spaces, which the API, the CSV and the
 * audit rows carry; and `addressLines`, the same lines joined by line feeds, which the pages show apart
 * (docs/decisions/0031). The same address given again (a correction of the name alone, whose form shows
 * the address on one line) keeps the lines it was stored with; a changed one is the lines given.
 */
export function addressToStore(given: string, stored?: StoredAddress): StoredAddress {
  const lines = keptLines(given.split("\n"));
  const address = lines.join(" ");
  if (stored?.address === address) return stored;
  return { address, addressLines: lines.length > 0 ? lines.join("\n") : null };
}

const optionalLine = z.preprocess((value) => value ?? "", textField(NAME_FIELD_MAX_LENGTH));

/**
 * The /financing form (components/name-address-form.tsx): Full Name and
 * Address Line 1-3, whose lines come out joined by line feeds, as the API
 * takes them (addressToStore stores both alike). Its action's check; the API
 * checks the joined fields with setNameAddressSchema.
 */
export const nameAddressFormSchema = z
  .object({
    fullName: z.preprocess(
      (value) => value ?? "",
      textField(NAME_FIELD_MAX_LENGTH, { required: nameAddressMessages.fullNameRequired }),
    ),
    addressLine1: optionalLine,
    addressLine2: optionalLine,
    addressLine3: optionalLine,
  })
  .superRefine((value, ctx) => {
    if (keptLines([value.addressLine1, value.addressLine2, value.addressLine3]).length === 0) {
      ctx.addIssue({ code: "custom", path: ["addressLine1"], message: nameAddressMessages.addressRequired });
    }
  })
  .transform((value) => ({
    fullName: collapseSpaces(value.fullName),
    address: keptLines([value.addressLine1, value.addressLine2, value.addressLine3]).join("\n"),
  }));

/** A correction of details given: the full name and the whole address on one line (addressToStore's lines). */
export const detailsCorrectionSchema = z.object({
  fullName: z.preprocess(
    (value) => value ?? "",
    textField(NAME_FIELD_MAX_LENGTH, { required: nameAddressMessages.fullNameRequired }),
  ),
  address: z.preprocess(
    (value) => value ?? "",
    textField(ADDRESS_MAX_LENGTH, { required: nameAddressMessages.addressRequired }),
  ),
});
