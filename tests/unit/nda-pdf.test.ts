/**
 * The NDA's files: an investor's copy is the template's pages and a signature page; the signed file
 * carries the evidence and a PAdES signature that poppler's pdfsig verifies over the whole file, and
 * that one changed byte breaks.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { renderCopy, renderSealed, type InvestorEvidence } from "~/models/nda/nda-pdf.server";
import { describeP12, selfSignedP12, type SigningKey } from "~/server/nda-signing-key.server";
import { pdfPageTexts } from "../support/pdf-text";
import { pdfsig } from "../support/pdfsig";

async function template(pages: number) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) pdf.addPage().drawText(`Clause ${n}`, { x: 72, y: 700, font, size: 12 });
  return pdf.save();
}

const key: SigningKey = (() => {
  const p12 = selfSignedP12("Test Firm NDA seal", "secret");
  return { p12, passphrase: "secret", ...describeP12(p12, "secret") };
})();

const facts = {
  firmName: "Test Firm",
  templateNumber: 3,
  templateSha256: "ab".repeat(32),
  fullName: "Zoë Quinn",
  addressLines: ["1 Main Street", "Springfield"],
  email: "zoe@example.com",
  offeredAt: new Date("2026-01-02T03:04:05Z"),
};

const evidence: InvestorEvidence = {
  typedName: "Zoe Quinn",
  signedAt: new Date("2026-01-03T10:00:00Z"),
  email: "zoe@example.com",
  ip: "192.0.2.7",
  userAgent: "Test Browser/1.0",
  authMethod: "password and authenticator code",
  copySha256: "cd".repeat(32),
  consent: {
    id: "consent-1",
    givenAt: new Date("2026-01-03T09:59:00Z"),
    disclosureVersion: "1",
    disclosureSha256: "ef".repeat(32),
  },
  auditRows: [41, 42, 43],
};

describe("an investor's copy", () => {
  it("is the template's pages followed by a signature page naming both parties", async () => {
    const copy = await renderCopy(await template(2), facts);
    const texts = await pdfPageTexts(copy);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain("Clause 1");
    expect(texts[2]).toContain("Signature page");
    expect(texts[2]).toContain("version 3");
    // The standard font has ë: the name is as given.
    expect(texts[2]).toContain("Zoë Quinn");
    expect(texts[2]).toContain("Springfield");
    expect(texts[2]).toContain("zoe@example.com");
    expect(texts[2]).toContain("Test Firm");
  });

  it("refuses a template that is not a PDF", async () => {
    await expect(renderCopy(new TextEncoder().encode("not a pdf at all"), facts)).rejects.toThrow();
  });
});

describe("a signed NDA", () => {
  it("carries the evidence and a signature pdfsig finds valid over the whole file", async () => {
    const copy = await renderCopy(await template(2), facts);
    const sealed = await renderSealed(copy, { investor: evidence, firmName: "Test Firm" }, key);
    const texts = await pdfPageTexts(sealed);
    expect(texts).toHaveLength(4);
    expect(texts[2]).toContain("/s/ Zoe Quinn");
    expect(texts[3]).toContain("Certificate of electronic signature");
    for (const value of [
      "192.0.2.7",
      "Test Browser/1.0",
      "cd".repeat(32),
      "consent-1",
      "#41, #42, #43",
      key.fingerprint,
    ]) {
      expect(texts[3].replace(/\s+/g, "")).toContain(value.replace(/\s+/g, ""));
    }
    const report = await pdfsig(sealed);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Signer Certificate Common Name: Test Firm NDA seal");
  });

  it("is no longer valid once one byte changes", async () => {
    const copy = await renderCopy(await template(1), facts);
    const sealed = await renderSealed(copy, { investor: evidence, firmName: "Test Firm" }, key);
    // A byte of the header's binary comment: inside the signed range, and the file still parses.
    const changed = Buffer.from(sealed);
    const at = changed.indexOf("\n%") + 2;
    expect(at).toBeLessThan(20);
    changed[at] ^= 1;
    const report = await pdfsig(changed);
    expect(report).not.toContain("Signature is Valid");
    expect(report).toContain("Digest Mismatch");
  });

  it("countersigned, carries both blocks under one signature over the whole file", async () => {
    const copy = await renderCopy(await template(1), facts);
    const firm = { by: "admin@firm.test", at: new Date("2026-01-04T12:00:00Z") };
    const sealed = await renderSealed(copy, { investor: evidence, firm, firmName: "Test Firm" }, key);
    const texts = await pdfPageTexts(sealed);
    expect(texts[1]).toContain("For Test Firm: admin@firm.test");
    expect(texts[2]).toContain("Countersigned");
    const report = await pdfsig(sealed);
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
  });
});
