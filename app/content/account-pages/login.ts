import { firm } from "../firm";

/** The login page. */
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
  passkeySignIn: "Use a passkey",
} as const;
