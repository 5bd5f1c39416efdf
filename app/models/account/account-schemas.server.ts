/**
 * The account forms' checks (docs/requirements.md, "Validation") as zod schemas: the pages' actions,
 * the JSON API and create-admin each parse their input with these once, at the edge, and the use
 * cases in sign-up.server.ts, sign-in.server.ts, password-reset.server.ts and create-admin.server.ts take the typed result. Server only: the browser reads the same limits
 * and messages from app/content.
 */
import { z } from "zod";
import { accountMessages } from "~/content/account-messages";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/content/constants";
import { validationMessages } from "~/content/validation-messages";
import { isCommonPassword } from "./password.server";

/** No C0 control and no DEL: nothing a person types into a password field (a pattern, so the API's document says it). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/u;

export const emailSchema = z
  .string({ error: validationMessages.emailInvalid })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, { error: validationMessages.emailInvalid, abort: true })
  .email({ error: validationMessages.emailInvalid });

/** A new password: the length and character policy, and none of the commonest passwords. */
export const passwordSchema = z
  .string({ error: validationMessages.passwordEmpty })
  .min(1, { error: validationMessages.passwordEmpty, abort: true })
  .min(PASSWORD_MIN_LENGTH, { error: validationMessages.passwordTooShort, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: validationMessages.passwordTooLong, abort: true })
  .regex(WITHOUT_CONTROL_CHARACTERS, { error: validationMessages.passwordControlCharacters, abort: true })
  .refine((password) => !isCommonPassword(password), { error: validationMessages.passwordTooCommon })
  .meta({ examples: ["violet-harbour-1927-lantern"] });

/** Login checks only that a password was given (and is not absurdly long): the hash decides the rest. */
export const loginPasswordSchema = z
  .string({ error: validationMessages.passwordEmpty })
  .min(1, { error: validationMessages.passwordEmpty, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: validationMessages.passwordTooLong });

export const loginSchema = z.object({
  email: emailSchema,
  password: loginPasswordSchema,
});

/** A new account: sign-up through the API, and create-admin. */
export const newAccountSchema = z.object({ email: emailSchema, password: passwordSchema });
export type NewAccount = z.output<typeof newAccountSchema>;
export type Credentials = z.output<typeof loginSchema>;

export const signupSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: validationMessages.passwordsDoNotMatch }),
  })
  .refine((data) => data.password === data.confirmPassword, {
    path: ["confirmPassword"],
    error: validationMessages.passwordsDoNotMatch,
  });

export const forgotPasswordSchema = z.object({
  email: emailSchema,
});

/** POST /api/auth/reset-password: the e-mailed link's token and the new password. */
export const apiResetPasswordSchema = z.object({
  newPasswordToken: z
    .string({ error: accountMessages.resetLinkInvalid })
    .min(1, { error: accountMessages.resetLinkInvalid }),
  newPassword: passwordSchema,
});

export const resetPasswordSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string({ error: validationMessages.passwordsDoNotMatch }),
  })
  .refine((data) => data.password === data.confirmPassword, {
    path: ["confirmPassword"],
    error: validationMessages.passwordsDoNotMatch,
  });

/** The password changed while signed in: the current one (checked by its hash), and a new one by sign-up's rules. */
export const changePasswordSchema = z
  .object({
    currentPassword: loginPasswordSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: validationMessages.passwordsDoNotMatch }),
  })
  .refine((data) => data.password === data.confirmPassword, {
    path: ["confirmPassword"],
    error: validationMessages.passwordsDoNotMatch,
  });
