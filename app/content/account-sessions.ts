/**
 * The words of the account's own sign-ins: where it is signed in (web sessions and API access), the
 * password's change while signed in, and the passkeys' names. Runs in the browser too.
 */
import type { MailContent } from "./emails";
import { firm } from "./firm";

/** The longest name a passkey may have. */
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** A browser and system as a person reads them, from what the user agent says (either may be unknown). */
export const deviceWords = {
  unknown: "Unknown",
  named: (browser: string | null, system: string | null) =>
    browser && system ? `${browser} on ${system}` : (browser ?? system ?? "Unknown browser"),
} as const;

export const sessionsPage = {
  title: "Where You're Signed In",
  description: "The browsers and apps signed in to your account, and how to sign them out.",
  heading: "Where you're signed in",
  intro:
    "These browsers and apps are signed in to your account now. If you do not recognise one, sign it out and change your password.",
  link: "Where you're signed in",
  /** The security page's section that leads here and to the password's change. */
  signInHeading: "Password and sign-ins",
  webHeading: "Browsers",
  apiHeading: "API access",
  apiIntro: "Programs that signed in through the portal's API. Each sign-in lasts at most 12 hours.",
  apiNone: "No program has API access now.",
  thisBrowser: "This browser",
  unknown: "Unknown",
  facts: {
    device: "Browser and system",
    client: "Client",
    address: "Address",
    signedIn: "Signed in",
    issued: "Signed in",
    lastSeen: "Last seen",
    lastUsed: "Last used",
  },
  signOut: "Sign out",
  signOutLabel: (device: string, signedIn: string) => `Sign out ${device}, signed in ${signedIn}`,
  revoke: "Revoke",
  revokeLabel: (client: string, issued: string) => `Revoke the API access of ${client}, signed in ${issued}`,
  othersHeading: "Everywhere else",
  othersIntro: "Sign out every other browser and end all API access. This browser stays signed in.",
  signOutOthers: "Sign out everywhere else",
  noOthers: "No other browser or program is signed in.",
  backToSecurity: "Back to security",
} as const;

export const sessionsMessages = {
  noSuchSession: "There is no such session on your account. It may have ended already.",
  noSuchApiAccess: "There is no such API access on your account. It may have ended already.",
  unknownChange: "This change is not one this page makes.",
} as const;

export const sessionsNotices = {
  signedOut: "Signed out that browser",
  revoked: "API access revoked",
  othersSignedOut: "Signed out everywhere else",
} as const;

export const passwordChangePage = {
  title: "Change Your Password",
  description: "Change the password of your account while signed in.",
  heading: "Change your password",
  intro:
    "Enter your current password, then the new one. This browser stays signed in; every other browser and all API access are signed out.",
  link: "Change your password",
  currentPassword: "Current password",
  newPassword: "New password",
  confirmNewPassword: "Confirm new password",
  submit: "Change password",
  changed: "Password changed. Every other browser and all API access were signed out.",
  backToSecurity: "Back to security",
} as const;

export const passkeyNames = {
  /** A passkey made before names were kept, named by its place in the list. */
  numbered: (number: number) => `Passkey ${number}`,
  created: "Added",
  lastUsed: "Last used",
  neverUsed: "Never",
  renameLabel: "Name",
  rename: "Rename",
  renamed: "Passkey renamed",
  empty: "Give the passkey a name.",
  tooLong: `A passkey's name can be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`,
  invisible:
    "A passkey's name cannot hold invisible characters (control, zero-width or direction marks). Type it again.",
} as const;

export const accountSessionEmails = {
  /** The password changed in a signed-in session: that session stays, every other sign-in ended. */
  passwordChanged: ({ resetLink, sessionsLink }: { resetLink: string; sessionsLink: string }): MailContent => ({
    subject: "Your password was changed",
    text:
      `The password of your ${firm.shortName} investor portal account was just changed from a signed-in browser. ` +
      `Every other browser and all API access were signed out.\n\n` +
      `If this was you, there is nothing more to do. You can see where your account is signed in here:\n\n${sessionsLink}\n\n` +
      `If it was not you, someone may be signed in as you: reset your password at once with this link, ` +
      `which signs out every browser, and contact us at ${firm.mailboxes.info}:\n\n${resetLink}` +
      `\n\n${firm.name}\n${firm.mailboxes.info}`,
  }),
} as const;
