import { firm } from "../firm";

/** The sign-up page. */
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
