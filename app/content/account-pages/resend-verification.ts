/** The page that sends the verification e-mail again. */
export const resendVerificationPage = {
  title: "Resend Verification Email",
  description: "Ask for a new link to verify the email address of your investor portal account.",
  heading: "Resend Verification Email",
  intro:
    "Enter the email address you signed up with. If it belongs to an account that still needs verifying, we will send a new link; it replaces any earlier one.",
  submit: "Send Verification Email",
  backLink: "Return to sign in",
} as const;
