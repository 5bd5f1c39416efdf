/** The words of an investor's page (/financing/investors/:id), the notices of the table's NDA flags, and the mails they send. */
import type { MailContent } from "./emails";
import { firm } from "./firm";

const signature = `\n\n${firm.name}\n${firm.mailboxes.info}`;

export const REASON_MAX_LENGTH = 500;

export const investorPageContent = {
  title: "Investor",
  description: "One investor: their account, their NDA, what they viewed, and what an administrator can do for them.",
  back: "Back to investors",
  unnamed: "(no name given yet)",
  who: {
    heading: "Account",
    email: "E-mail",
    name: "Full name",
    address: "Address",
    verified: "E-mail verified",
    registered: "Registered",
    lastSignIn: "Last sign-in",
    neverSince: "Not since records began",
    secondFactor: "Second factor",
    sessions: "Sessions open",
    yes: "Yes",
    no: "No, not yet",
  },
  factor: {
    none: "None",
    authenticator: "Authenticator app",
    passkeys: (count: number) => `${count} ${count === 1 ? "passkey" : "passkeys"}`,
    recoveryCodes: (count: number) => `${count} recovery ${count === 1 ? "code" : "codes"} left`,
  },
  timeline: {
    heading: "NDA",
    caption: "The NDA's steps: when each was done and by whom, each later change beneath its step",
    step: "Step",
    when: "When",
    by: "By",
    steps: { details: "Name and address given", sent: "NDA sent", signed: "NDA signed" },
    /** A step's other changes, each a line beneath it. */
    changes: {
      details: { done: "Name and address given", corrected: "Name and address corrected" },
      sent: { done: "NDA marked sent", undone: "NDA marked not sent" },
      signed: { done: "NDA marked signed", undone: "NDA marked not signed" },
    },
    notYet: "Not yet",
    unrecorded: "Before records began",
  },
  activity: {
    heading: "Activity",
    caption: "Pages viewed, files downloaded and documents opened, newest first",
    when: "When",
    what: "What",
    empty: "Nothing viewed, downloaded or opened yet.",
    older: "Older activity",
    newest: "Newest activity",
    actions: {
      "materials.view": (detail: string) => `Viewed ${detail || "a materials page"}`,
      "file.download": (detail: string) => `Downloaded ${detail || "a file"}`,
      "file.viewed": (detail: string) => `Watched ${detail || "a video"}`,
      "material.opened": (detail: string) => `Opened ${detail ? `"${detail}"` : "a document"}`,
      "material.refused": (detail: string) =>
        `Was refused ${detail ? `"${detail}"` : "a document"}, which is not shared with them`,
    } as Record<string, (detail: string) => string>,
  },
  actions: {
    heading: "Actions",
    correct: {
      heading: "Correct the name and address",
      fullName: "Full name",
      address: "Address",
      reason: "Reason for the correction",
      reasonHint: `Kept in the audit log (up to ${REASON_MAX_LENGTH} characters).`,
      submit: "Save the correction",
    },
    resend: {
      heading: "Verification e-mail",
      submit: "Send the verification e-mail again",
      verified: "The e-mail address is verified.",
    },
    reset: {
      heading: "Second factor",
      intro:
        "For an investor who lost their phone or passkey: removes their authenticator, passkeys and recovery codes, signs them out everywhere and e-mails them. They then sign in with their password alone.",
      submit: "Reset the second factor",
      none: "The investor has no second factor: they sign in with their password alone, so there is nothing to reset.",
    },
    nda: {
      heading: "NDA",
      save: "Save",
      /** Marking it completed by hand: an NDA signed outside the portal, with its reason and the signed copy. */
      outside: {
        heading: "Mark the NDA completed: signed outside the portal",
        intro:
          "For an NDA the investor signed elsewhere. The investor is then not offered signing in the portal; marking it not completed again removes this record and its file (the audit log keeps both hashes and the reason).",
        reason: "Reason",
        reasonHint: `Where and how it was signed; kept in the NDA record and the audit log (up to ${REASON_MAX_LENGTH} characters).`,
        file: "The signed copy (PDF, optional)",
        submit: "Mark the NDA completed",
      },
    },
    remove: { heading: "Delete", link: "Delete this investor…" },
  },
  notices: {
    corrected: "The name and address were corrected, and the investor was told by e-mail.",
    verificationSent: "A new verification e-mail was sent.",
    signedOutside: "Recorded as signed outside the portal.",
    factorReset: "The second factor was reset: the investor was signed out everywhere and told by e-mail.",
  },
  errors: {
    idInvalid: "This is not an investor's id.",
    notFound: "No investor has this id.",
    cursorInvalid: "This is not a place in the activity list.",
    reasonRequired: "Give the reason for the correction.",
    verifiedAlready: "The e-mail address is verified already.",
    mailThrottled: "Verification e-mails to this address were sent too often: try again later.",
    changedMeanwhile: "The name or address changed while you were correcting it: look at it again and retry.",
    ndaNeedsVerified: "The NDA cannot be marked until the investor has verified their e-mail address.",
    ndaNeedsDetails: "The NDA cannot be marked until the investor has given their name and address.",
    ndaRetry: "The investor's account changed while the NDA was being marked: try again.",
  },
  /** What the notice of an NDA change adds after the specification's words. */
  ndaChange: ({
    flag,
    state,
    who,
    alsoChanged,
  }: {
    flag: "sent" | "signed";
    state: boolean;
    who: string;
    /** "Completed: Yes" also set "sent"; "sent: No" also cleared "completed". */
    alsoChanged: boolean;
  }) =>
    `${flag === "sent" ? "NDA sent" : "NDA completed"} for ${who} is now ${state ? "Yes" : "No"}` +
    (alsoChanged ? (flag === "signed" ? "; NDA sent is Yes too." : "; NDA completed is No too.") : "."),
  factorResetChange:
    "An administrator of the portal reset your second factor at your request: your authenticator app, passkeys and recovery codes were removed. You can now sign in with your password alone, and set up a new second factor in your security settings.",
  table: {
    verified: "E-mail verified",
    secondFactor: "Second factor",
    deleteQuestionFor: (who: string) => `\n\n${who}`,
  },
} as const;

export const investorPageEmails = {
  corrected: ({
    fullName,
    address,
    loginLink,
  }: {
    fullName: string;
    address: string;
    loginLink: string;
  }): MailContent => ({
    subject: "Your name and address were corrected",
    text:
      `An administrator of the ${firm.shortName} investor portal corrected the name and address your NDA is prepared with. They now read:\n\n` +
      `${fullName}\n${address}\n\n` +
      `You can see them after signing in here:\n\n${loginLink}\n\n` +
      `If they are not right, reply to ${firm.mailboxes.info}.` +
      signature,
  }),
};
