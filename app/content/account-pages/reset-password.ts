/** The password reset page. */
export const resetPasswordPage = {
  title: "Reset Password",
  description: "Choose a new password for your investor portal account.",
  heading: "Reset Password",
  intro: "Choose a new password for your account.",
  submit: "Reset Password",
  done: "Your password has been changed. You can now sign in with your new password.",
  backToLogin: "Back to login",
  forgotLink: "Request a new reset link",
} as const;
