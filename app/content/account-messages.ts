/**
 * What the account use cases answer, shown as notices on the pages and as `message` in the API. The
 * forms' field messages are validation-messages.ts, apart so that a form's script carries only those.
 */
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
