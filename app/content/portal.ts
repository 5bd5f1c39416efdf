import { firm } from "./firm";

/** The investor side of the portal: the status screens of /financing, the materials and their pages. */
export const portalStatus = {
  title: "Investor Portal",
  description: `Your ${firm.shortName} investor portal.`,
  heading: "Investor Portal",
  form: {
    heading: "Your name and address",
    intro: "We need your full name and address to prepare the non-disclosure agreement (NDA).",
    fullName: "Full Name",
    addressLines: ["Address Line 1", "Address Line 2", "Address Line 3"],
    submit: "Submit",
  },
  thankYou: "You will receive an email shortly regarding the non-disclosure agreement with further instructions",
  ndaPending: "NDA is not completed yet.",
  /** The question mailbox line: the words before the address, and the address. */
  questions: { before: "If you have any questions, please contact us at", mailbox: firm.mailboxes.investors },
  adminPlaceholder: "The investor table is being prepared.",
} as const;

export const nameAddressMessages = {
  fullNameRequired: "Full name cannot be empty",
  addressRequired: "Address cannot be empty",
  tooLong: (max: number) => `At most ${max} characters`,
  tooManyLines: (lines: number) => `At most ${lines} lines`,
  controlCharacters: "Use letters, numbers and punctuation only (no control characters)",
  invisibleCharacters:
    "Remove the invisible characters (zero-width spaces or text-direction marks): they can make one name read as another",
  submitted: "Name and address submitted!",
  locked: `Your name and address are fixed once the NDA has been sent. Please contact ${firm.mailboxes.investors} to change them.`,
  notYours: "You can change only your own name and address.",
  notFound: "No user has this e-mail address.",
} as const;

export const materialsPage = {
  title: "Investor materials",
  description: `${firm.shortName}'s materials for investors who have signed the NDA.`,
  welcome: (name: string) => `Welcome ${name}. We invite you to review the following materials.`,
  questions: { before: "If you have any questions, please contact us at", mailbox: firm.mailboxes.info },
  linksLabel: "Materials",
  /**
   * The specification's four links, each with the title of the library's document that holds the same
   * file (migrations/library.js): the page shows that document's details beside the link, not again below it.
   */
  links: {
    introductoryVideo: {
      label: "Introductory video",
      href: "/financing/introductoryvideo",
      newTab: true,
      libraryTitle: "Introductory video",
    },
    descriptionOfFirm: {
      label: "Description of the firm (pdf)",
      href: "/pdfs/download.pdf",
      newTab: false,
      libraryTitle: "Description of the firm",
    },
    slideDeck: { label: "Slide deck", href: "/pdfs/download.pdf", newTab: false, libraryTitle: "Slide deck" },
    offeringDetails: {
      label: "Offering details",
      href: "/pdfs/download.pdf",
      newTab: false,
      libraryTitle: "Offering details",
    },
  },
  opensInNewTab: "(opens in a new tab)",
} as const;

export const investorVideo = {
  title: "Investor video",
  description: `${firm.shortName}'s introductory video for investors, behind its disclaimer.`,
  heading: "Introductory video",
  disclaimerHeading: "Disclaimer",
  disclaimer: [
    `This video is provided by ${firm.name} for information only. It is not a prospectus, and it is not an offer to sell or a solicitation of an offer to buy any security.`,
    "Any offer will be made only by the formal prospectus or offering documents, which should be consulted, and read in full, before any investment decision.",
    "No one may rely on this video or on anything said in it, and no claim of any kind may be based on it.",
  ],
  video: { src: "/video/investorvideo.mp4", label: `${firm.shortName} investor video` },
} as const;

/** The materials pages that show their title only, by the last part of their URL (/financing/<page>). */
export const titlePages: Record<string, { title: string; description: string } | undefined> = {
  termsandconditions: {
    title: "Terms and Conditions",
    description: `${firm.shortName}'s terms and conditions for investors.`,
  },
  slidedeck: { title: "Slide Deck", description: `${firm.shortName}'s slide deck for investors.` },
  descriptionofsecurities: {
    title: "Description of Securities",
    description: `The description of the securities ${firm.shortName} offers to investors.`,
  },
};

/** What a visitor sees when a materials page refuses them (403). */
export const materialsRefusal = {
  heading: "The materials are not open to you yet",
  text: `The investor materials open once your non-disclosure agreement is marked signed. Questions are welcome at ${firm.mailboxes.investors}.`,
  back: "Back to the portal",
  /** The body of a refused file download or a page request that is not a document. */
  plain: "The investor materials open once your NDA is signed.",
} as const;

/** The e-mail the firm's mailbox receives when an investor gives their name and address. */
export const nameAddressMail = ({
  fullName,
  address,
  email,
}: {
  fullName: string;
  address: string;
  email: string;
}) => ({
  subject: `Investor name and address submitted: ${fullName}`,
  text:
    `An investor gave their name and address for the non-disclosure agreement.\n\n` +
    `Full name: ${fullName}\nAddress: ${address}\nE-mail: ${email}\n\n` +
    `Mark the NDA as sent in the investor table once it has gone out.`,
});

/**
 * The stamp on every page of a downloaded PDF: who it was made for, when, and the download's id in
 * the audit log, in the band below the page; the e-mail and the id again across the page. Only the
 * name may be shortened to fit (`shortenable`).
 */
export const materialsStamp = ({
  fullName,
  email,
  downloadedAt,
  downloadId,
}: {
  fullName: string;
  email: string;
  downloadedAt: string;
  downloadId: string;
}) => ({
  band: [
    fullName
      ? ["Confidential. Prepared for ", { shortenable: fullName }, ` <${email}> on ${downloadedAt}.`]
      : [`Confidential. Prepared for ${email} on ${downloadedAt}.`],
    [`${firm.shortName} download ID ${downloadId}. Do not copy or forward.`],
  ],
  watermark: `Confidential · ${email} · ${downloadId}`,
  downloadId,
});
