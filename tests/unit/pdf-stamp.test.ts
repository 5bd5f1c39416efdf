import { PDFDocument, StandardFonts } from "pdf-lib";
import { stampPdf } from "~/server/pdf-stamp.server";
import { pdfPageTexts } from "../support/pdf-text";

/** A three-page document whose own text runs down to the very bottom of each page. */
async function threePages() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 3; i++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Page ${i} body text`, { x: 50, y: 700, size: 12, font });
    page.drawText(`Page ${i} last line`, { x: 50, y: 2, size: 12, font });
  }
  return pdf.save();
}

describe("stampPdf", () => {
  it("stamps every page in a band added below it, leaving the document's own text in place", async () => {
    const stamped = await stampPdf(await threePages(), [
      "Prepared for Jane Doe <jane@example.com>",
      "Download ID abc-123",
    ]);
    const texts = await pdfPageTexts(stamped);
    expect(texts).toHaveLength(3);
    texts.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} body text`);
      expect(text).toContain(`Page ${i + 1} last line`);
      expect(text).toContain("Prepared for Jane Doe <jane@example.com>");
      expect(text).toContain("Download ID abc-123");
    });
    const pages = (await PDFDocument.load(stamped)).getPages();
    for (const page of pages) {
      // The page grew downward by the band: its own area (y >= 0) is untouched.
      expect(page.getMediaBox()).toEqual({ x: 0, y: -30, width: 612, height: 822 });
    }
  });

  it("keeps accented letters the font has, drops accents it lacks, and shows other characters as ?", async () => {
    const stamped = await stampPdf(await threePages(), ["Zoë Ångström Dąbrowska Łukasz 李"]);
    const [first] = await pdfPageTexts(stamped);
    expect(first).toContain("Zoë Ångström Dabrowska ?ukasz ?");
  });

  it("shrinks a long line to fit the page's width", async () => {
    const long = `Prepared for ${"A very long name ".repeat(8)}`;
    const stamped = await stampPdf(await threePages(), [long]);
    const [first] = await pdfPageTexts(stamped);
    expect(first.replace(/\s+/g, " ")).toContain(long.trim());
  });
});
