/** How a web session was opened, or API tokens issued: a password alone, or with (or by) a second factor. */
export const AUTH_METHODS = [
  "password",
  "password+totp",
  "password+recovery_code",
  "password+passkey",
  "passkey",
] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
