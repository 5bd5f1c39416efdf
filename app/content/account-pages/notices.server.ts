import { accountMessages } from "~/content/account-messages";

/**
 * Success notices of the account pages, shown as toasts (and as a status line
 * without JavaScript). Only actions set them, so they stay out of the browser's script.
 */
export const authNotices = {
  loggedIn: accountMessages.loginSuccess,
  verificationSent: accountMessages.verificationEmailSent,
  resetSent: accountMessages.resetEmailSent,
  passwordReset: accountMessages.passwordReset,
} as const;
