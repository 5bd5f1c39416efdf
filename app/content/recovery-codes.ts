/**
 * The words around recovery codes: the page that shows a new set (copy, download, print, "I have
 * saved these codes"), the sign-in's prompt for an account that has none, and the code step's choice
 * between the app's code and a recovery code. Runs in the browser too.
 */
import { firm } from "./firm";

/** A used code that leaves this many (or fewer) says so in its e-mail, with the way to a new set. */
export const RECOVERY_CODES_LOW = 3;

export const RECOVERY_CODES_PATH = "/financing/security/recovery-codes";
export const RECOVERY_CODES_FILE_PATH = "/financing/security/recovery-codes.txt";

export const recoveryCodesPage = {
  heading: "Your recovery codes",
  intro:
    "Keep these codes somewhere safe, such as a password manager. Each works once, in place of a code from your app or your passkey. They are shown only now.",
  listLabel: "Recovery codes",
  copy: "Copy the codes",
  copied: "Copied.",
  copyFailed: "Copying did not work here: select the codes and copy them yourself.",
  download: "Download as .txt",
  print: "Print",
  printWithoutScript: "To print them, use your browser's Print command: only the codes are printed.",
  saved: "I have saved these codes",
  continue: "Continue",
  savedMissing: "Tick “I have saved these codes” once they are somewhere safe: they are not shown again.",
  malformed: "These are not recovery codes this site made. Go back to the page that showed them.",
  fileName: "recovery-codes.txt",
  /** Whose codes, and when they were made (null: the account has no set on record). */
  fileText: ({ codes, email, madeOn }: { codes: string[]; email: string; madeOn: string | null }) =>
    `${firm.shortName} investor portal: recovery codes\n\n` +
    `Recovery codes for ${email}${madeOn ? `, made on ${madeOn}` : ""}.\n` +
    `Each code works once, in place of a code from your authenticator app or your passkey.\n\n` +
    codes.join("\n") +
    "\n",
} as const;

/** The sign-in's prompt for an account that has a passkey and no recovery codes. */
export const recoveryCodesPrompt = {
  title: "Save Your Recovery Codes",
  description: "Make the recovery codes that let you back in if your passkey is lost.",
  heading: "Save your recovery codes",
  intro:
    "Your account signs in with a passkey, but has no recovery codes. If the passkey is lost, a recovery code is the only way back in: make a set now and keep it somewhere safe.",
  make: "Make my recovery codes",
  later: "Not now",
  stale:
    "For your safety, a first set of recovery codes is made here only just after you sign in. You can make a set from your security settings.",
  already: "Your account already has recovery codes. You can make a new set from your security settings.",
  toSecurity: "Security settings",
  toPortal: "Go to the portal",
} as const;

/** The login's code step: the app's code, or a recovery code instead. */
export const codeStepChoice = {
  useRecoveryCode: "Use a recovery code instead",
  useApp: "Use the code from your authenticator app instead",
  recoveryLabel: "Recovery code",
  introRecovery: "Enter one of your recovery codes (xxxxx-xxxxx). Each works once.",
} as const;

/** The authenticator app's set-up, on the phone that holds the app. */
export const openInApp = "Open in your authenticator app";
