/** The forgot password page. */
export const forgotPasswordPage = {
  title: "Forgot Password",
  description: "Ask for a link to reset the password of your investor portal account.",
  heading: "Forgot Password",
  intro: "Enter the email address of your account and we will send you a link to choose a new password.",
  submit: "Forgot Password",
  backLink: "Back to sign in",
} as const;
