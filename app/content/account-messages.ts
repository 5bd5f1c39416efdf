/**
 * The account forms' messages (docs/requirements.md, "Validation"), shared by the pages (client and
 * server), the JSON API and create-admin. The checks themselves are zod schemas in
 * app/models/account-schemas.server.ts: this module also runs in the browser, so it imports neither
 * zod nor Node.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./constants";

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
  passwordWrong: "The password is not right.",
} as const;
