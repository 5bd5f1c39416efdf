/**
 * The account forms' rules and messages (SPEC.md section 5, DESIGN.md section 5),
 * shared by the pages (client and server), the JSON API and create-admin.
 * No Node imports: this module also runs in the browser.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/content/constants";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

/** RFC 5321 caps a forward path at 254 characters. */
export const EMAIL_MAX_LENGTH = 254;

export const validationMessages = {
  emailInvalid: "Email address is invalid",
  passwordEmpty: "Password cannot be empty",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  passwordControlCharacters: "Password cannot contain control characters",
  passwordTooCommon: "This password is too common. Choose another.",
  passwordsDoNotMatch: "Passwords doesn't match",
} as const;

/** What the account use cases answer (shown as notices on the pages and as `message` in the API). */
export const accountMessages = {
  verificationEmailSent: "Verification Email Sent",
  emailVerified: "Your email address has been successfully verified.",
  verifyLinkInvalid: "This verification link is invalid or has expired. Log in to have a new one sent.",
  loginSuccess: "Log in success",
  invalidCredentials: "Invalid email or password",
  unverified: "Please verify your email address first. We can send the verification link again.",
  locked: "Too many failed attempts: this account is locked for 15 minutes. Try again later or reset your password.",
  throttled: "Too many requests. Please wait a minute and try again.",
  resetEmailSent: "Reset Email Sent",
  resetMailsThrottled: "Too many reset e-mails were requested for this address. Please try again later.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please ask for a new one.",
  passwordReset: "Password has been reset",
  loggedOut: "Logged out",
} as const;

/** C0 controls and DEL: nothing a person types into a password field. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const emailSchema = z
  .string({ error: validationMessages.emailInvalid })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, { error: validationMessages.emailInvalid, abort: true })
  .email({ error: validationMessages.emailInvalid });

/** A new password: the policy of DESIGN.md section 5 (common passwords are refused on the server). */
export const passwordSchema = z
  .string({ error: validationMessages.passwordEmpty })
  .min(1, { error: validationMessages.passwordEmpty, abort: true })
  .min(PASSWORD_MIN_LENGTH, { error: validationMessages.passwordTooShort, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: validationMessages.passwordTooLong, abort: true })
  .refine((password) => !CONTROL_CHARACTERS.test(password), {
    error: validationMessages.passwordControlCharacters,
  });

/** Login checks only that a password was given (and is not absurdly long): the hash decides the rest. */
export const loginPasswordSchema = z
  .string({ error: validationMessages.passwordEmpty })
  .min(1, { error: validationMessages.passwordEmpty, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: validationMessages.passwordTooLong });

export const loginSchema = z.object({
  email: emailSchema,
  password: loginPasswordSchema,
});

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

export const resetPasswordSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string({ error: validationMessages.passwordsDoNotMatch }),
  })
  .refine((data) => data.password === data.confirmPassword, {
    path: ["confirmPassword"],
    error: validationMessages.passwordsDoNotMatch,
  });

export type FieldErrors = Record<string, string[]>;

/** Field messages keyed by field name, the shape the API's `issues` and Conform both use. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join(".") : "";
    const list = (errors[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}
