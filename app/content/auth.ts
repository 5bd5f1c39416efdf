import { accountMessages } from "~/utils/account-validation";
import { firm } from "./firm";

/** The words of the account pages (SPEC.md sections 2 and 8, DESIGN.md section 5). */

/** Success notices, shown as toasts (and as a status line without JavaScript). */
export const authNotices = {
  loggedIn: accountMessages.loginSuccess,
  verificationSent: accountMessages.verificationEmailSent,
  resetSent: accountMessages.resetEmailSent,
  passwordReset: accountMessages.passwordReset,
} as const;

export const authLabels = {
  email: "Email Address",
  password: "Password",
  confirmPassword: "Confirm Password",
  newPasswordHint: "At least 8 characters. Very common passwords are refused.",
} as const;

export const loginPage = {
  title: "Sign In",
  description: `Sign in to the ${firm.shortName} investor financing portal.`,
  heading: "Sign In",
  intro: "Sign in to review your investor status and materials.",
  submit: "Sign In",
  noAccount: "Don't have an account?",
  createLink: "Create here",
  forgotLink: "Forgot Password?",
  resendIntro: "Did not receive the verification email, or has the link expired?",
  resendButton: "Send the verification email again",
} as const;

export const signupPage = {
  title: "Create an Account",
  description: `Create an account for the ${firm.shortName} investor financing portal.`,
  heading: "Create an Account",
  submit: "Sign Up",
  haveAccount: "Already have an account?",
  signInLink: "Sign in",
  termsHeading: "Site access terms",
  terms:
    `Access to the documents on this site is restricted: only you and the agents you have authorized may view them. ` +
    `You are responsible for keeping your login credentials secure and for following ${firm.name}'s instructions ` +
    `for accessing this site. By signing up you agree to these terms.`,
} as const;

export const forgotPasswordPage = {
  title: "Forgot Password",
  description: "Ask for a link to reset the password of your investor portal account.",
  heading: "Forgot Password",
  intro: "Enter the email address of your account and we will send you a link to choose a new password.",
  submit: "Forgot Password",
  backLink: "Return to sign in",
} as const;

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

export const verifyPage = {
  title: "Email Verification",
  description: "The result of verifying your email address for the investor portal.",
  successHeading: "Email verified",
  success: accountMessages.emailVerified,
  /** "Redirecting in 5..." */
  redirecting: (seconds: number) => `Redirecting in ${seconds}...`,
  loginNow: "Go to the login page now",
  failureHeading: "We could not verify your email address",
  requestNewLink: "Request a new verification link",
} as const;

export const resendVerificationPage = {
  title: "Resend Verification Email",
  description: "Ask for a new link to verify the email address of your investor portal account.",
  heading: "Resend Verification Email",
  intro:
    "Enter the email address you signed up with. If it belongs to an account that still needs verifying, we will send a new link; it replaces any earlier one.",
  submit: "Send Verification Email",
  backLink: "Return to sign in",
} as const;

export const financingHeader = {
  logOut: "LOG OUT",
} as const;
