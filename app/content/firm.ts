/**
 * The firm's facts in one place. Values marked PLACEHOLDER are not known to us
 * (SPEC.md hides them) and must be replaced by the firm before launch; see
 * `placeholders` at the bottom for the list.
 */
export const firm = {
  /** PLACEHOLDER: the firm's legal name. */
  name: "Northbeam Securities LLC",
  /** PLACEHOLDER: the short name used in the logo and titles. */
  shortName: "Northbeam",
  /** PLACEHOLDER: the ATS's name. */
  atsName: "Northbeam ATS",
  /** PLACEHOLDER: the parent company of which the firm is a wholly owned subsidiary. */
  parentCompany: "Northbeam Holdings Inc.",
  expectedStart: "the fourth quarter of 2025",
  copyrightYear: 2024,
  mailboxes: {
    /** PLACEHOLDER: general information and contact mailbox. */
    info: "info@northbeam.example",
    /** PLACEHOLDER: the mailbox for institutional investors and market makers. */
    institutional: "institutional@northbeam.example",
    /** PLACEHOLDER: the mailbox for investors' questions about the NDA and materials. */
    investors: "investors@northbeam.example",
  },
  regulator: { name: "FINRA", url: "https://www.finra.org/" },
  investorProtection: { name: "SIPC", url: "https://www.sipc.org/" },
  brokerCheck: { label: "BrokerCheck", url: "https://brokercheck.finra.org/" },
  /** PLACEHOLDER: the firm's social profile. */
  social: { label: "Follow us on LinkedIn", url: "https://www.linkedin.com/" },
  businessContinuityPdf: "/pdfs/business-continuity-plan.pdf",
} as const;

/** Everything above that the firm must replace before launch. */
export const placeholders = [
  "firm.name",
  "firm.shortName",
  "firm.atsName",
  "firm.parentCompany",
  "firm.mailboxes.info",
  "firm.mailboxes.institutional",
  "firm.mailboxes.investors",
  "firm.social.url",
  "team members' names, biographies, photos and profile links (app/content/team.ts)",
  "public/pdfs/business-continuity-plan.pdf, public/video/introvideo.mp4, private/download.pdf, private/investorvideo.mp4",
] as const;
