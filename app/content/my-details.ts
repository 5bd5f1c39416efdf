/**
 * The investor's own details and data: the NDA's steps on the status screens, the details they gave and
 * their correction until the NDA is sent, the mail that tells the firm of a correction, and "Download my
 * data" with its e-mail. The specification's quoted texts stay in portal.ts, untouched (decision 0013).
 */
import type { MailContent } from "./emails";
import { firm } from "./firm";

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;

export const ndaStepsContent = {
  heading: "Your NDA",
  label: "The steps of your non-disclosure agreement",
  steps: { details: "Details given", sent: "NDA sent", signed: "NDA signed" },
  done: "Done",
  notYet: "Not yet",
  /** A step done before the portal kept its dates. */
  undated: "Done (date not recorded)",
  /** The state read out beside each step, for those who cannot see its mark. */
  doneOn: (date: string) => `Done on ${date}`,
} as const;

export const myDetailsContent = {
  heading: "Your details",
  intro: "The NDA is prepared with the name and address you gave:",
  fullName: "Full name",
  address: "Address",
  correctable:
    "Spotted a typo? You can correct your details until you sign the NDA here, or until it is sent to you by other means.",
  correct: {
    summary: "Correct my details",
    fullName: "Full Name",
    address: "Address",
    addressHint: "The whole address on one line, as it should appear on the NDA.",
    submit: "Save my corrected details",
  },
  alreadyGiven: 'Your name and address are already given. To change them, use "Correct my details" below.',
  fixed: `Your details are fixed now that the NDA has been sent. To change them, write to ${firm.mailboxes.investors}.`,
  corrected: "Your details were corrected.",
  unchanged: "Your details are unchanged.",
  changedMeanwhile: "Your details changed while you were correcting them. Check them below and correct them again.",
} as const;

/** The e-mail the firm's mailbox receives when a name and address are corrected before the NDA is sent. */
export const correctionMail = ({
  before,
  after,
  email,
  byAdministrator,
}: {
  before: { fullName: string; address: string };
  after: { fullName: string; address: string };
  email: string;
  /** The administrator who made it through the API, or null when the investor corrected their own details. */
  byAdministrator: string | null;
}): MailContent => ({
  subject: `Investor name and address corrected: ${after.fullName}`,
  text:
    `${byAdministrator ? `The administrator ${byAdministrator} corrected` : "An investor corrected"} the name and address ` +
    `given for the non-disclosure agreement.\n\n` +
    `Before:\nFull name: ${before.fullName}\nAddress: ${before.address}\n\n` +
    `Now:\nFull name: ${after.fullName}\nAddress: ${after.address}\n\n` +
    `E-mail: ${email}\n\n` +
    `Prepare the NDA with the corrected details. They are fixed for the investor once the NDA is marked sent.`,
});

export const myDataContent = {
  heading: "Your data",
  intro:
    "Download a copy of what the portal holds about you: your account and details, your NDA's dates, where you are signed in, your API access and your activity, as a JSON file.",
  confirmFirst: "Confirm it's you above to download it.",
  download: "Download my data",
  fileName: "my-data.json",
  /** The 403 of a download without a fresh confirmation. */
  needsConfirmation:
    "Confirm it's you first: downloading your data needs your password (and second factor) from the last 10 minutes.",
  confirmLink: "Confirm it's you",
  /** The words the export uses for who did each thing. */
  by: {
    you: "you",
    administrator: "an administrator of the firm",
    nobody: "no one signed in (a sign-in attempt, or the firm's server)",
  },
} as const;

export const myDataEmails = {
  downloaded: ({ securityLink }: { securityLink: string }): MailContent => ({
    subject: "A copy of your data was downloaded",
    text:
      `A copy of your data (your account, details, NDA dates, sign-ins and activity) was just downloaded ` +
      `from your ${firm.shortName} investor portal account.\n\n` +
      `If this was you, there is nothing to do.\n\n` +
      `If it was not you, someone may be signed in as you: reset your password at once (it signs you out everywhere), ` +
      `check your second factor here:\n\n${securityLink}\n\n` +
      `and contact us at ${firm.mailboxes.info}.` +
      signature,
  }),
};
