/** The words of administrators managed in the app: the list, invitations, removal and factor resets, and their e-mails. */
import type { MailContent } from "./emails";
import { firm } from "./firm";

/** How long an invitation link lasts, in hours. */
export const INVITATION_HOURS = 72;

export const administratorsPage = {
  title: "Administrators",
  description: "The portal's administrators, their second factor and last sign-in, and pending invitations.",
  heading: "Administrators",
  back: "Back to investors",
  link: "Administrators",
  caption: "Current administrators",
  columns: {
    email: "E-mail",
    secondFactor: "Second factor",
    lastSignIn: "Last sign-in",
    createdBy: "Made administrator by",
    actions: "Actions",
  },
  you: "(you)",
  secondFactor: ({ totp, passkeys }: { totp: boolean; passkeys: number }) => {
    const parts = [
      ...(totp ? ["authenticator app"] : []),
      ...(passkeys > 0 ? [`${passkeys} ${passkeys === 1 ? "passkey" : "passkeys"}`] : []),
    ];
    return parts.length > 0 ? parts.join(", ") : "none yet: set up at next sign-in";
  },
  neverSignedIn: "not since records began",
  createdBy: {
    createAdmin: "the server's create-admin command",
    removed: "an administrator since removed",
    unknown: "not recorded",
  },
  remove: "Remove",
  removeFor: (email: string) => `Remove administrator ${email}`,
  onlyAdministrator: "The only administrator: invite another before this one can be removed.",
  removeConfirm: (email: string) => `Yes, remove ${email} and delete their account`,
  resetFactor: "Reset second factor",
  resetFactorFor: (email: string) => `Reset the second factor of ${email}`,
  removeNote:
    "Removing an administrator deletes their account: every sign-in and app token ends at once, and they are told by e-mail. The last administrator cannot be removed.",
  resetNote:
    "Resetting a second factor deletes the administrator's authenticator app, passkeys and recovery codes and signs them out everywhere; at their next sign-in they must set up a new one.",
  invitations: {
    heading: "Pending invitations",
    caption: "Pending invitations",
    columns: { email: "E-mail", invitedBy: "Invited by", expires: "Expires", actions: "Actions" },
    empty: "No pending invitations.",
    revoke: "Revoke",
    revokeFor: (email: string) => `Revoke the invitation of ${email}`,
  },
  invite: {
    heading: "Invite an administrator",
    intro: `The invitee gets a link by e-mail, valid for ${INVITATION_HOURS} hours, to choose a password and then set up a second factor.`,
    emailLabel: "E-mail address",
    submit: "Send invitation",
  },
} as const;

export const administratorNotices = {
  invited: (email: string) => `An invitation was sent to ${email}.`,
  revoked: (email: string) => `The invitation of ${email} was revoked.`,
  removed: (email: string) => `${email} is no longer an administrator; their account was deleted.`,
  factorReset: (email: string) =>
    `The second factor of ${email} was reset: they will set up a new one at their next sign-in.`,
} as const;

export const administratorErrors = {
  alreadyAdministrator: "This address already belongs to an administrator.",
  investorAddress:
    "This address belongs to an investor account. An administrator needs an account of their own: invite another address, or delete the investor account first.",
  unknownAdministrator: "No administrator has this id.",
  unknownInvitation: "No pending invitation has this id.",
  lastAdministrator: "The last administrator cannot be removed: invite another administrator first.",
  unknownAction: "This form asked for something this page does not do.",
  missingId: "This form did not say which administrator or invitation it is about.",
  removalNotConfirmed: "Tick the box to confirm the removal: it deletes the administrator's account.",
} as const;

/** The page an invitation link opens. */
export const invitationPage = {
  title: "Accept invitation",
  description: "Become an administrator of the investor portal.",
  heading: "Become an administrator",
  intro: (email: string) =>
    `You were invited to administer the ${firm.shortName} investor portal as ${email}. Choose a password; next, you will set up a second factor.`,
  submit: "Create administrator account",
  refused: `This invitation link no longer works: it was used, revoked or has expired (links last ${INVITATION_HOURS} hours). Ask an administrator for a new invitation.`,
  addressTaken:
    "An account with this address was created since you were invited. Ask an administrator to invite another address.",
  toLogin: "Go to the login page",
} as const;

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;

/** The e-mails of administrators managed in the app. */
export const administratorEmails = {
  invitation: ({ inviter, link }: { inviter: string; link: string }): MailContent => ({
    subject: "You are invited to administer the investor portal",
    text:
      `${inviter} invited you to become an administrator of the ${firm.shortName} investor portal.\n\n` +
      `Open this link within ${INVITATION_HOURS} hours to choose a password; right after it, you will set up ` +
      `a second factor (an authenticator app):\n\n${link}\n\n` +
      `If you did not expect this invitation, ignore this e-mail, or tell us at ${firm.mailboxes.info}.` +
      signature,
  }),
  invitationRevoked: ({ by }: { by: string }): MailContent => ({
    subject: "Your invitation was withdrawn",
    text:
      `${by} withdrew your invitation to administer the ${firm.shortName} investor portal. ` +
      `The link you were sent no longer works.` +
      signature,
  }),
  removed: ({ by }: { by: string }): MailContent => ({
    subject: "You are no longer an administrator",
    text:
      `${by} removed you as an administrator of the ${firm.shortName} investor portal. Your account was deleted, ` +
      `and every device and app that was signed in to it has been signed out.\n\n` +
      `If you did not expect this, contact us at ${firm.mailboxes.info}.` +
      signature,
  }),
  factorReset: ({ by, loginLink }: { by: string; loginLink: string }): MailContent => ({
    subject: "Your second factor was reset",
    text:
      `${by}, an administrator of the ${firm.shortName} investor portal, reset your second factor: your ` +
      `authenticator app, passkeys and recovery codes no longer work, and every device and app that was ` +
      `signed in to your account has been signed out.\n\n` +
      `Sign in with your password; right after it, you will set up a new second factor:\n\n${loginLink}\n\n` +
      `If you did not ask for this, contact us at once at ${firm.mailboxes.info}.` +
      signature,
  }),
} as const;
