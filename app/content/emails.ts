/** The words of the account e-mails. Links are passed in, always built from APP_URL. */
import { firm } from "./firm";
import { RECOVERY_CODES_LOW } from "./recovery-codes";

export type MailContent = { subject: string; text: string };

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;
const notYou = "If this was not you, you can ignore this e-mail.";

export const accountEmails = {
  verify: (link: string): MailContent => ({
    subject: "Verify your email address",
    text:
      `Welcome to the ${firm.shortName} investor financing portal.\n\n` +
      `Please confirm your email address by opening this link within 24 hours:\n\n${link}\n\n` +
      `${notYou}` +
      signature,
  }),

  alreadyRegistered: ({ loginLink, resetLink }: { loginLink: string; resetLink: string }): MailContent => ({
    subject: "You already have an account",
    text:
      `Someone tried to create an account on the ${firm.shortName} investor financing portal with this email address, ` +
      `but an account already exists for it.\n\n` +
      `Sign in here:\n\n${loginLink}\n\n` +
      `Forgot your password? Ask for a new one here:\n\n${resetLink}\n\n` +
      `${notYou} Nothing has been changed.` +
      signature,
  }),

  resetPassword: (link: string): MailContent => ({
    subject: "Reset your password",
    text:
      `We received a request to reset the password of your ${firm.shortName} investor portal account.\n\n` +
      `Choose a new password by opening this link within one hour:\n\n${link}\n\n` +
      `${notYou} Your password stays as it is.` +
      signature,
  }),

  passwordChanged: (loginLink: string): MailContent => ({
    subject: "Your password was changed",
    text:
      `The password of your ${firm.shortName} investor portal account has just been changed, ` +
      `and every device that was signed in has been signed out.\n\n` +
      `Sign in with your new password here:\n\n${loginLink}\n\n` +
      `If you did not change it, reset your password at once and contact us at ${firm.mailboxes.info}.` +
      signature,
  }),

  accountLocked: ({ minutes, resetLink }: { minutes: number; resetLink: string }): MailContent => ({
    subject: "Your account is temporarily locked",
    text:
      `There were too many failed attempts to sign in to your ${firm.shortName} investor portal account, ` +
      `so sign-in is locked for ${minutes} minutes.\n\n` +
      `If these attempts were yours, you can wait, or reset your password now, which also lifts the lock:\n\n${resetLink}\n\n` +
      `If they were not yours, your password has not been shared: consider changing it anyway, and contact us at ${firm.mailboxes.info} with any concern.` +
      signature,
  }),
};

/** Sent when an operator runs create-admin again on an existing account, on the firm's server. */
export const operatorEmails = {
  resetOnServer: ({
    loginLink,
    secondFactorRemoved,
  }: {
    loginLink: string;
    secondFactorRemoved: boolean;
  }): MailContent => ({
    subject: "Your password and second factor were reset",
    text:
      `An operator of the ${firm.shortName} investor portal has just reset your account on the firm's server: ` +
      `it has a new password and the administrator role, and every device and app that was signed in has been signed out.` +
      (secondFactorRemoved ? ` Its second factor (authenticator app, recovery codes and passkeys) was removed.` : "") +
      `\n\nSign in with the new password the operator gives you; right after it, you will set up an authenticator app ` +
      `before anything else:\n\n${loginLink}\n\n` +
      `If you did not expect this, do not sign in, and contact us at once at ${firm.mailboxes.info}: ` +
      `only someone with access to the firm's server can make this change.` +
      signature,
  }),
};

/** Sent when an administrator marks an investor's NDA signed. */
export const portalEmails = {
  materialsOpen: ({ name, link }: { name: string; link: string }): MailContent => ({
    subject: "Your investor materials are open",
    text:
      `${name ? `Dear ${name},\n\n` : ""}` +
      `Thank you for completing the non-disclosure agreement. The ${firm.shortName} investor materials are now open to you:\n\n${link}\n\n` +
      `Questions are welcome at ${firm.mailboxes.investors}.` +
      signature,
  }),
};

/** Sent on every change to an account's second factor. */
export const secondFactorEmails = {
  changed: ({ change, settingsLink }: { change: string; settingsLink: string }): MailContent => ({
    subject: "Your sign-in security was changed",
    text:
      `This change was just made to the second factor of your ${firm.shortName} investor portal account:\n\n` +
      `${change}\n\n` +
      `Every other sign-in to your account, in a browser or an app, was ended.\n\n` +
      `Review your security settings here:\n\n${settingsLink}\n\n` +
      `If you did not make this change, reset your password at once and contact us at ${firm.mailboxes.info}.` +
      signature,
  }),
  used: ({ left, settingsLink }: { left: number; settingsLink: string }): MailContent => {
    const low = left <= RECOVERY_CODES_LOW;
    return {
      subject: low ? `A recovery code was used: ${left} left` : "A recovery code was used",
      text:
        `${secondFactorChanges.recoveryCodeUsed(left)}\n\n` +
        (low
          ? `You are running low on recovery codes. Make a new set on your security page, and keep it somewhere safe:\n\n`
          : `Review your security settings here:\n\n`) +
        `${settingsLink}\n\n` +
        `If this was not you, reset your password at once and contact us at ${firm.mailboxes.info}.` +
        signature,
    };
  },
  codeStepLocked: ({ minutes, resetLink }: { minutes: number; resetLink: string }): MailContent => ({
    subject: "Too many wrong codes after your password",
    text:
      `Someone entered the right password for your ${firm.shortName} investor portal account, then too many ` +
      `wrong codes for its second factor, so the code step is locked for ${minutes} minutes.\n\n` +
      `If this was you, wait and try again with the current code from your authenticator app, or a recovery code.\n\n` +
      `If it was not you, your password is known to someone else: reset it now, here, and contact us at ` +
      `${firm.mailboxes.info}:\n\n${resetLink}` +
      signature,
  }),
};

/** What each change of the second factor is called in the e-mail that reports it. */
export const secondFactorChanges = {
  totpEnrolled: "An authenticator app was set up as your second factor.",
  totpReplaced: "Your authenticator app was replaced, and new recovery codes were made.",
  codesRegenerated: "New recovery codes were made; the earlier ones no longer work.",
  removed: "The second factor was turned off: sign-in now asks for your password only.",
  passkeyAdded: "A passkey was added to your account.",
  passkeyAddedWithCodes:
    "A passkey was added to your account as its second factor, with ten recovery codes for when the passkey is lost.",
  codesIssued: "Ten recovery codes were made for your account, for when your passkey is lost.",
  passkeyRemoved: "A passkey was removed from your account.",
  recoveryCodeUsed: (left: number) =>
    `A recovery code was used to sign in. ${left === 1 ? "1 recovery code is" : `${left} recovery codes are`} left.`,
} as const;
