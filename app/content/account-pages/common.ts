/**
 * The words of the account pages (docs/requirements.md, "Investor portal pages"),
 * one module per page under account-pages/ so that each page's script carries
 * only its own words; this one holds what they share.
 */
import { PASSWORD_MIN_LENGTH } from "../constants";

export const authLabels = {
  email: "Email Address",
  password: "Password",
  confirmPassword: "Confirm Password",
  newPasswordHint: `At least ${PASSWORD_MIN_LENGTH} characters. Very common passwords are refused.`,
} as const;
