/**
 * The account forms' field messages (docs/requirements.md, "Validation"), shared by the pages (client
 * and server), the JSON API and create-admin. The checks themselves are zod schemas in
 * app/models/account/account-schemas.server.ts: this module also runs in the browser, so it imports neither
 * zod nor Node, and holds nothing a form's script does not need.
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
