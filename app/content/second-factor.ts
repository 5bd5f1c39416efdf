/**
 * The second factor's words: the login's code step, the security settings, their messages and the
 * API's answers. Runs in the browser too, so it imports neither zod nor Node.
 */
import { accountMessages } from "./account-messages";
import { firm } from "./firm";

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** The longest code a field takes: a recovery code with its hyphen and some spaces to spare. */
export const CODE_MAX_LENGTH = 20;

export const codeMessages = {
  empty: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  malformed: "A code is 6 digits, or a recovery code of 10 letters and digits (xxxxx-xxxxx).",
  wrong: "That code is not right. Enter the current code from your authenticator app, or an unused recovery code.",
  locked: "Too many wrong codes: the second step is locked for 15 minutes. Try again later.",
  throttled: accountMessages.throttled,
  noPendingStep: "Your sign-in has expired or was not started here. Please log in again.",
  enrolmentCodeWrong: "That code is not right. Check the time on your device and enter the current code.",
  enrolmentExpired: "This set-up has expired. Start again to get a new secret.",
} as const;

export const passkeyMessages = {
  expired: "This passkey request has expired or was already used. Please try again.",
  refused: "The passkey could not be verified. Please try again, or use your code.",
  malformed: "The passkey's answer is not one this site can read.",
  unsupported: "This browser cannot use passkeys here.",
  cancelled: "The passkey request was cancelled or timed out.",
} as const;

export const securityMessages = {
  unknownChange: "This change is not one the security settings make.",
  reauthenticate: "Confirm it's you first: enter your password again, with your code where you have a second factor.",
  codeNeeded:
    "Enter the 6-digit code from your authenticator app or a recovery code as well as your password, or use a passkey.",
  passkeyAnswerInvalid: "The passkey's answer could not be read. Please try the passkey again.",
  noSuchPasskey: "There is no such passkey on your account.",
  adminKeepsFactor: "Administrators cannot turn the second factor off; they can replace it.",
  adminLastPasskey: "This passkey is your only second factor: set up an authenticator app before removing it.",
  noFactorYet: "Set up a second factor first.",
} as const;

export const secondFactorApiMessages = {
  mfaRequired:
    "This account has a second factor: send the current code from your authenticator app, or a recovery code, in `code`.",
  adminMustEnrol:
    "Administrators must set up a second factor on the website first: log in at /financing/login to set it up.",
} as const;

/** The login's second step. */
export const codeStepPage = {
  title: "Enter Your Code",
  description: `The second step of signing in to the ${firm.shortName} investor financing portal.`,
  heading: "Enter Your Code",
  intro: "Enter the 6-digit code from your authenticator app. Lost your device? Enter one of your recovery codes.",
  introPasskeyOnly: "Use your passkey, or enter one of your recovery codes.",
  codeLabel: "Code",
  submit: "Verify",
  passkeyButton: "Use a passkey instead",
  startOver: "Start over",
} as const;

/** Proving who you are again before a security change ("sudo mode"). */
export const reauthenticationForm = {
  heading: "Confirm it's you",
  intro: (minutes: number) =>
    `Changes to your sign-in security need your password again, and your second factor if you have one. Once confirmed, you can make changes for ${minutes} minutes.`,
  codeLabel: "Code from your authenticator app, or a recovery code",
  submit: "Confirm",
  passkeyButton: "Confirm with a passkey",
  confirmedUntil: (time: string) => `Confirmed: you can change these settings until ${time} (UTC).`,
  confirmed: "Confirmed: you can change your security settings for the next few minutes.",
} as const;

/** The security settings and the authenticator app's set-up. */
export const securityPage = {
  title: "Security",
  description: "Your second factor: an authenticator app, recovery codes and passkeys.",
  heading: "Security",
  intro: "A second factor keeps your account safe even if your password is known to someone else.",
  adminRequired: "Administrators must have a second factor. Set up an authenticator app to continue.",
  appHeading: "Authenticator app",
  appOn: "On: sign-in asks for a code from your authenticator app.",
  appOff: "Off.",
  setUpApp: "Set up an authenticator app",
  replaceApp: "Replace the authenticator app",
  removeApp: "Turn off the second factor",
  removeAdminNote: "Administrators cannot turn the second factor off; they can replace it.",
  codesHeading: "Recovery codes",
  codesLeft: (left: number) => `${left} of ${RECOVERY_CODE_COUNT} recovery codes left.`,
  regenerateCodes: "Make new recovery codes",
  passkeysHeading: "Passkeys",
  passkeysNone: "No passkeys yet.",
  passkeyName: (number: number, addedOn: string) => `Passkey ${number}, added on ${addedOn}`,
  addPasskey: "Add a passkey",
  passkeyNeedsScript: "Adding a passkey needs JavaScript in your browser.",
  passkeyConfirmNeedsScript: "Using a passkey here needs JavaScript in your browser.",
  removePasskey: "Remove",
  backToPortal: "Back to the portal",
} as const;

export const enrolPage = {
  title: "Set Up an Authenticator App",
  description: "Link an authenticator app to your account as a second factor.",
  heading: "Set up an authenticator app",
  steps: [
    "Open your authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password) and scan this QR code.",
    "Or enter this secret by hand:",
    "Then enter the 6-digit code the app shows.",
  ],
  qrLabel: "QR code of the authenticator app's secret",
  secretLabel: "Secret",
  codeLabel: "Code from the app",
  replacingNote: "This replaces your current authenticator app and makes new recovery codes.",
  submit: "Turn on",
} as const;

export const secondFactorNotices = {
  enrolled: "Second factor turned on",
  removed: "Second factor turned off",
  passkeyAdded: "Passkey added",
  passkeyRemoved: "Passkey removed",
} as const;
