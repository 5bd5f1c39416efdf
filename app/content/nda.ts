/**
 * The NDA signed in the portal: the disclosure an investor consents to before signing electronically (its
 * version changes whenever its words do; the hash of the words is recorded with each consent), and the
 * answers the signing gives.
 */
import { firm } from "./firm";

export const NDA_DISCLOSURE_VERSION = "2026-1";

export const ndaDisclosure = {
  title: "Consent to electronic records and signatures",
  paragraphs: [
    `${firm.shortName} asks you to receive and sign the non-disclosure agreement electronically, in this portal. Before you agree, please read the following.`,
    `Paper copy. You may ask for a paper copy of the agreement, or of anything you signed here, at any time and at no charge, by writing to ${firm.mailboxes.investors}.`,
    `Withdrawing consent. You may withdraw this consent at any time from your account's security page. Withdrawing does not undo an agreement already signed; from then on, the firm sends and receives the agreement by other means, and your access to the materials waits for that.`,
    `What you need. A device with a current web browser, a program that opens and keeps PDF files (most browsers do), an e-mail address we can write to, and somewhere to keep a copy.`,
    `Your copy. Once signed, the agreement is e-mailed to you and can be downloaded from your account at any time.`,
    `This consent covers the non-disclosure agreement with ${firm.shortName} and the records of its signature.`,
  ],
  agree: "I have read the above and agree to receive and sign the non-disclosure agreement electronically.",
};

export const ndaMessages = {
  noTemplate: "The firm has not uploaded its non-disclosure agreement yet.",
  notReady: "Give your full name and address first: the agreement is prepared with them.",
  consentNeeded: "Agree to receive and sign the agreement electronically first.",
  consentNotTicked: "Tick the box to agree to electronic records and signatures.",
  alreadySigned: "You have signed the non-disclosure agreement already.",
  notOffered: "No copy of the agreement has been prepared for you yet: open it first.",
  superseded: (number: number) =>
    `The copy you reviewed is no longer current: review the current copy (version ${number}) and sign that.`,
  hashMismatch: "The copy you reviewed is not the one prepared for you: open the agreement again and sign that.",
  nameMismatch: "Type your full name exactly as it appears on the agreement.",
  intentNeeded: "Tick the box to say you intend to sign.",
  notSigned: "This investor has not signed the agreement in the portal.",
  alreadyCountersigned: "The agreement is countersigned already.",
  oneSided: "The firm's agreement is one-sided: there is nothing to countersign.",
  noConsentToWithdraw: "You have not consented to electronic records.",
  templateNotPdf: "The agreement must be a PDF file.",
  templateUnreadable: "The PDF could not be read: save it again from the program that made it, and upload that.",
  noDocument: "There is no agreement to open yet: give your name and address first.",
  noInvestor: "No investor has this id.",
  verifyNotPdf: "Upload the signed agreement as a PDF file.",
  /** An administrator marking the NDA completed by hand, for one signed outside the portal. */
  outsideNotPdf: "The signed copy must be a PDF file (or leave it out).",
  outsideTooLarge: "The signed copy is larger than a PDF may be.",
  outsideReasonRequired: "Give the reason for marking the NDA completed by hand.",
  outsideReasonTooLong: (max: number) => `Keep the reason to ${max} characters.`,
  outsideCompletedAlready: "The NDA is marked completed already.",
  outsideSignedInPortal:
    "This investor signed the NDA in the portal: countersign it on the NDA page rather than marking it by hand.",
};

/** The status page's NDA section. */
export const ndaContent = {
  heading: "Your non-disclosure agreement",
  consentIntro: "You can sign the agreement here, in the portal. First, please read and agree to the following.",
  reviewHeading: "Review the agreement",
  reviewIntro: (version: number) => `Read the whole agreement (version ${version}) before you sign it.`,
  openPdf: "Open the agreement (PDF)",
  viewerTitle: "The non-disclosure agreement",
  signHeading: "Sign the agreement",
  typedName: "Type your full name",
  typedNameHint: (name: string) => `As it appears on the agreement: ${name}`,
  intent: "I intend to sign this agreement electronically, and I agree to be bound by it.",
  confirmHeading: "Confirm it's you",
  password: "Password",
  code: "Code from your authenticator app, or a recovery code",
  signButton: "Sign the agreement",
  signedWaiting: "Signed. The firm countersigns next; you will receive the signed agreement by e-mail.",
  signedComplete: "Signed. The materials are open to you, and the signed agreement is on its way by e-mail.",
  waiting: "You signed the agreement. The firm countersigns it next; you will receive the fully signed copy by e-mail.",
  download: "Download what you signed (PDF)",
  withdraw: "Withdraw consent to electronic records",
  withdrawIntro:
    "You agreed to receive and sign the non-disclosure agreement electronically. Withdrawing does not undo an agreement already signed; from then on the firm sends it to you by other means.",
  withdrawn: "Consent withdrawn. The firm will send you the agreement by other means.",
};

/** The administrators' NDA page. */
export const ndaAdminContent = {
  title: "NDA",
  link: "NDA",
  /** The investors page's count, linking the table filtered to them. */
  waitingLink: (waiting: number) => `${waiting} waiting for countersignature`,
  noInvestorFile: "This investor has no such NDA file.",
  /** The NDA record on an investor's page. */
  record: {
    heading: "NDA record",
    none: "No NDA offered or signed in the portal yet.",
    templateVersion: (version: number | null) =>
      version === null ? "Template: none offered" : `Template: version ${version}`,
    outside: "Signed outside the portal",
    outsideBy: (by: string | null, at: string) => `Marked completed by hand${by ? ` by ${by}` : ""}, ${at}.`,
    outsideNoFile: "No signed copy attached.",
    steps: "Steps",
    by: (who: string | null) => (who ? ` by ${who}` : ""),
    evidence: "The signer's evidence",
    typedName: "Typed name",
    email: "E-mail",
    ip: "IP address",
    userAgent: "User agent",
    authMethod: "Authentication",
    consent: "Consent record",
    copySha256: "SHA-256 of the copy reviewed",
    signedSha256: "SHA-256 of the signed file",
    completedSha256: "SHA-256 of the fully signed file",
    reason: "Reason",
    signedFile: "Download the signed file",
    outsideFile: "Download the signed copy attached",
    completedFile: "Download the fully signed file",
  },
  template: "The NDA template",
  noTemplate: "No template yet: upload the firm's NDA (a PDF) to let investors sign in the portal.",
  current: (version: number, pages: number) =>
    `Version ${version} (${pages} pages) is offered to everyone who has not signed.`,
  upload: "Upload a new version",
  file: "The NDA (PDF)",
  uploadButton: "Upload",
  uploaded: (version: number) => `Version ${version} of the NDA is offered from now on.`,
  waiting: "Waiting for the firm's countersignature",
  waitingNone: "Nobody is waiting.",
  waitingCount: (count: number) => `${count} waiting for countersignature`,
  oneSided: "The NDA is one-sided (NDA_ONE_SIDED): it is complete on the investor's signature.",
  countersign: "Review and countersign",
  countersigned: (email: string) => `Countersigned: ${email}'s NDA is complete and both sides were e-mailed.`,
  verify: "Verify a signed NDA",
  verifyIntro: "Upload a PDF to check whether this portal sealed it, unaltered, and whose it is.",
  verifyFile: "The signed NDA (PDF)",
  verifyButton: "Verify",
  verdict: {
    match: (email: string, kind: string) =>
      `This is the ${kind === "completed" ? "fully signed" : "investor-signed"} NDA of ${email}, byte for byte as this portal sealed it.`,
    noMatch: "This file is not one this portal stored.",
    seal: {
      valid: "Its digital signature is valid, covers the whole file, and was made under the firm's certificate.",
      invalid: "Its digital signature does not verify: the file was changed after it was signed.",
      "other-certificate": "Its digital signature is valid but was made under another certificate.",
      none: "It carries no digital signature.",
    } as Record<string, string>,
  },
  noFile: "Choose a PDF file.",
};
