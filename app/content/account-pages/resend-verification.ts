/** The page that sends the verification e-mail again. */
export const resendVerificationPage = {
  title: "Resend Verification Email",
  description: "Ask for a new link to verify the email address of your investor portal account.",
  heading: "Resend Verification Email",
  intro:
    "Enter the email address you signed up with. If it belongs to an account that still needs verifying, we will send a new link; it replaces any earlier one.",
  submit: "Send Verification Email",
  backLink: "Back to sign in",
  /** Where sign-up lands: said for as long as the link is valid. */
  sent: {
    heading: "Check your inbox",
    text: (email: string) =>
      `We sent a link to ${email} to verify your email address. It is valid for 24 hours. If it has not arrived, check your spam folder, or send it again below.`,
  },
} as const;
