import { z } from "zod";
import { EMAIL_MAX_LENGTH, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from "~/content/constants";
import { contactForm } from "~/content/contact";

/**
 * The contact form's check, run by its action (server only). The form's
 * markup states the same limits (required, type=email, maxlength) from
 * ~/content/constants, which is what the browser checks as you type.
 */

// Names and addresses end up in mail headers, so no control character at all;
// the message keeps its line breaks and tabs and loses the rest.
const CONTROL_CHARACTER = /\p{Cc}/u;
const CONTROL_CHARACTER_EXCEPT_NEWLINE_AND_TAB = /[^\P{Cc}\n\t]/gu;

const { errors } = contactForm;

function nameField(required: string, tooLong: string, invalid: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(CONTACT_NAME_MAX_LENGTH, tooLong)
    .refine((value) => !CONTROL_CHARACTER.test(value), invalid);
}

export const contactSchema = z.object({
  firstName: nameField(
    errors.firstNameRequired,
    errors.firstNameTooLong(CONTACT_NAME_MAX_LENGTH),
    errors.firstNameInvalid,
  ),
  lastName: nameField(errors.lastNameRequired, errors.lastNameTooLong(CONTACT_NAME_MAX_LENGTH), errors.lastNameInvalid),
  email: z
    .string({ error: errors.emailRequired })
    .trim()
    .min(1, errors.emailRequired)
    .max(EMAIL_MAX_LENGTH, errors.emailTooLong(EMAIL_MAX_LENGTH))
    .regex(z.regexes.email, errors.emailInvalid),
  message: z
    .string({ error: errors.messageRequired })
    .overwrite((value) => value.replace(/\r\n?/g, "\n").replace(CONTROL_CHARACTER_EXCEPT_NEWLINE_AND_TAB, ""))
    .trim()
    .min(1, errors.messageRequired)
    .max(CONTACT_MESSAGE_MAX_LENGTH, errors.messageTooLong(CONTACT_MESSAGE_MAX_LENGTH)),
});
