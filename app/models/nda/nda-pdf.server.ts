/**
 * The NDA's PDFs (pdf-lib): an investor's copy (the template's pages and a signature page naming both
 * parties), and the signed file made from that copy: the signature blocks drawn into the signature page and
 * a certificate page of the evidence, sealed under the firm's certificate. A countersigned file is made
 * afresh from the same copy with both blocks, so each file carries one signature over all of it.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { SigningKey } from "~/server/nda-signing-key.server";
import { sealPdf } from "~/server/pdf-seal.server";
import { encodable, wrap } from "~/server/pdf-stamp.server";

export type CopyFacts = {
  firmName: string;
  templateNumber: number;
  templateSha256: string;
  fullName: string;
  addressLines: string[];
  email: string;
  offeredAt: Date;
};

export type InvestorEvidence = {
  typedName: string;
  signedAt: Date;
  email: string;
  ip: string | null;
  userAgent: string | null;
  authMethod: string;
  copySha256: string;
  consent: { id: string; givenAt: Date; disclosureVersion: string; disclosureSha256: string };
  /** The audit rows that led to the signature: the copy offered, consent given, the copy opened. */
  auditRows: number[];
};

export type FirmEvidence = { by: string; at: Date };

const PAGE = { width: 612, height: 792 } as const;
const MARGIN = 64;
const GREY = rgb(0.35, 0.35, 0.35);
/** Where each party's block sits on the signature page, from its foot. */
const BLOCK_TOP = { investor: 560, firm: 300 } as const;
const SIGNATURE_LINE_BELOW_TOP = 150;

/** The template's pages followed by the signature page. Throws if the template is not a PDF pdf-lib reads. */
export async function renderCopy(template: Uint8Array, facts: CopyFacts): Promise<Uint8Array> {
  const source = await PDFDocument.load(template);
  const pdf = await PDFDocument.create();
  for (const page of await pdf.copyPages(source, source.getPageIndices())) pdf.addPage(page);
  const writer = await Writer.on(pdf);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const below = writer.lines(page, ["Signature page"], PAGE.height - MARGIN, 16, true);
  writer.lines(
    page,
    [
      `This page completes the non-disclosure agreement (version ${facts.templateNumber}) between ${facts.firmName} and the investor named below.`,
      `Template SHA-256: ${facts.templateSha256}`,
      `Copy prepared ${utc(facts.offeredAt)}.`,
    ],
    below - 8,
    9,
  );
  writer.lines(page, ["The investor", facts.fullName, ...facts.addressLines, facts.email], BLOCK_TOP.investor, 11);
  writer.signatureLine(page, BLOCK_TOP.investor);
  writer.lines(page, ["The firm", facts.firmName], BLOCK_TOP.firm, 11);
  writer.signatureLine(page, BLOCK_TOP.firm);
  pdf.setTitle(`Non-disclosure agreement: ${facts.fullName}`);
  pdf.setProducer(facts.firmName);
  return pdf.save();
}

/**
 * The signed file: the copy with the investor's block (and the firm's, once countersigned) and the
 * certificate page, sealed. The copy's own bytes are what the investor reviewed; its hash is on the page.
 */
export async function renderSealed(
  copy: Uint8Array,
  parties: { investor: InvestorEvidence; firm?: FirmEvidence; firmName: string },
  key: SigningKey,
): Promise<Buffer> {
  const pdf = await PDFDocument.load(copy);
  const writer = await Writer.on(pdf);
  const signaturePage = pdf.getPage(pdf.getPageCount() - 1);
  const { investor, firm } = parties;
  writer.signature(signaturePage, BLOCK_TOP.investor, investor.typedName, investor.signedAt);
  if (firm) writer.signature(signaturePage, BLOCK_TOP.firm, `For ${parties.firmName}: ${firm.by}`, firm.at);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = writer.lines(page, ["Certificate of electronic signature"], PAGE.height - MARGIN, 16, true);
  const rows: [string, string][] = [
    ["Signer's typed name", investor.typedName],
    ["Signer's e-mail", investor.email],
    ["Signed (UTC)", utc(investor.signedAt)],
    ["IP address", investor.ip ?? "not known"],
    ["User agent", investor.userAgent ?? "not known"],
    ["Confirmed with", investor.authMethod],
    ["SHA-256 of the copy reviewed", investor.copySha256],
    [
      "Consent to electronic records",
      `${investor.consent.id}, given ${utc(investor.consent.givenAt)} to disclosure ${investor.consent.disclosureVersion} (SHA-256 ${investor.consent.disclosureSha256})`,
    ],
    ["Audit rows", investor.auditRows.map((n) => `#${n}`).join(", ") || "none"],
    ...(firm ? ([["Countersigned", `by ${firm.by}, ${utc(firm.at)}`]] as [string, string][]) : []),
    ["Sealed under", `${key.subject} (SHA-256 fingerprint ${key.fingerprint})`],
  ];
  for (const [label, value] of rows) {
    y = writer.lines(page, [label], y - 6, 9, true, GREY);
    y = writer.lines(page, [value], y, 10);
  }
  const at = firm?.at ?? investor.signedAt;
  return sealPdf(pdf, key, {
    reason: firm
      ? "Non-disclosure agreement signed by both parties"
      : "Non-disclosure agreement signed by the investor",
    name: parties.firmName,
    location: "Investor portal",
    contactInfo: investor.email,
    at,
  });
}

/** Text in the standard font, wrapped to the page's width; accents it lacks are dropped, as a stamp's are. */
class Writer {
  private constructor(
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly known: Set<number>,
  ) {}

  static async on(pdf: PDFDocument) {
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    return new Writer(regular, bold, new Set(regular.getCharacterSet()));
  }

  /** Draws the lines from `top` down; returns where the next line would start. */
  lines(page: PDFPage, texts: string[], top: number, size: number, strong = false, color = rgb(0, 0, 0)): number {
    const font = strong ? this.bold : this.regular;
    let y = top;
    for (const text of texts) {
      for (const line of wrap(encodable(text, this.known), font, size, PAGE.width - 2 * MARGIN)) {
        y -= size * 1.35;
        page.drawText(line, { x: MARGIN, y, size, font, color });
      }
    }
    return y;
  }

  signatureLine(page: PDFPage, top: number) {
    const y = top - SIGNATURE_LINE_BELOW_TOP;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width / 2, y }, thickness: 0.75, color: GREY });
    this.lines(page, ["Signature"], y - 2, 8, false, GREY);
  }

  signature(page: PDFPage, top: number, name: string, at: Date) {
    const y = top - SIGNATURE_LINE_BELOW_TOP + 34;
    this.lines(page, [`/s/ ${name}`], y, 14, true);
    this.lines(page, [`Signed electronically ${utc(at)}`], y - 20, 8, false, GREY);
  }
}

function utc(date: Date) {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
