/**
 * The firm's facts in one place. The facts a firm must replace before launch
 * (its names, mailboxes, social profile and when it expects to begin operating)
 * are settings, read from the environment (README's configuration table); the
 * values below are placeholders that only a site with nothing configured shows.
 * `npm start` with NODE_ENV=production refuses to run without CONTACT_EMAIL and
 * warns about the other placeholders, and about an operating start already past
 * (app/server/production-rules.server.ts). How they are read from the environment
 * is the server's alone (firm-settings.server.ts): the browser is given them.
 */
import { firmSettingsFrom } from "./firm-settings.server";

export type FirmSettings = {
  /** The firm's legal name. */
  name: string;
  /** The short name used in the logo and titles. */
  shortName: string;
  /** The ATS's name. */
  atsName: string;
  /** The parent company of which the firm is a wholly owned subsidiary. */
  parentCompany: string;
  mailboxes: {
    /** General information and contact: pages, e-mail signatures, contact messages. */
    info: string;
    /** For institutional investors and market makers (the investors page). */
    institutional: string;
    /** For investors' questions about the NDA and the materials (the portal). */
    investors: string;
  };
  social: { label: string; url: string };
  /** When the firm expects its ATS to begin operating, as pages say it: "We expect to begin operating in …". */
  operatingStart: string;
};

declare global {
  interface Window {
    /** Written into every page by root.tsx, before any module runs. */
    __firmSettings?: FirmSettings;
  }
}

/**
 * The server reads the settings from its environment once, at start. The
 * browser takes the very values the server rendered the page with (root.tsx
 * writes them into the page), so that both render the same words.
 */
export const firmSettings: FirmSettings =
  typeof document === "undefined" ? firmSettingsFrom(process.env) : window.__firmSettings!;

export const firm = {
  ...firmSettings,
  /** The copyright line runs from this year to the current one. */
  firstCopyrightYear: 2024,
  regulator: { name: "FINRA", url: "https://www.finra.org/" },
  investorProtection: { name: "SIPC", url: "https://www.sipc.org/" },
  brokerCheck: { label: "BrokerCheck", url: "https://brokercheck.finra.org/" },
  businessContinuityPdf: "/pdfs/business-continuity-plan.pdf",
} as const;

/** What the firm must replace before launch that is not a setting. */
export const placeholders = [
  "team members' names, biographies, photos and profile links (app/content/team.ts)",
  "public/pdfs/business-continuity-plan.pdf, public/video/introvideo.mp4, private/download.pdf, private/investorvideo.mp4",
] as const;
