/** The e-mail verification page. */
export const verifyPage = {
  title: "Email Verification",
  description: "The result of verifying your email address for the investor portal.",
  successHeading: "Email verified",
  /** "Redirecting in 5..." */
  redirecting: (seconds: number) => `Redirecting in ${seconds}...`,
  loginNow: "Go to the login page now",
  failureHeading: "We could not verify your email address",
  requestNewLink: "Request a new verification link",
} as const;
