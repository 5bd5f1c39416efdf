/**
 * Stamps lines of text on every page of a PDF (pdf-lib), in a band added below the page: the page
 * grows downward, so the stamp can never cover the document's own text, and prints with it.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont } from "pdf-lib";

const BAND_HEIGHT = 30;
const MARGIN = 12;
const LARGEST_SIZE = 8;
const SMALLEST_SIZE = 4;

export async function stampPdf(source: Uint8Array, lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(source);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const text = lines.map((line) => encodable(line, font));
  for (const page of pdf.getPages()) {
    const box = page.getMediaBox();
    const bottom = box.y - BAND_HEIGHT;
    page.setMediaBox(box.x, bottom, box.width, box.height + BAND_HEIGHT);
    const crop = page.getCropBox();
    page.setCropBox(crop.x, Math.min(crop.y, bottom), crop.width, crop.height + Math.max(0, crop.y - bottom));
    page.drawRectangle({ x: box.x, y: bottom, width: box.width, height: BAND_HEIGHT, color: rgb(0.94, 0.94, 0.94) });
    const size = fittingSize(text, font, box.width - 2 * MARGIN);
    text.forEach((line, i) => {
      page.drawText(line, {
        x: box.x + MARGIN,
        y: bottom + BAND_HEIGHT - MARGIN / 2 - (i + 1) * size * 1.3,
        size,
        font,
        color: rgb(0.2, 0.2, 0.2),
      });
    });
  }
  return pdf.save();
}

/** The largest size at which every line fits the width. */
function fittingSize(lines: string[], font: PDFFont, width: number): number {
  let size = LARGEST_SIZE;
  while (size > SMALLEST_SIZE && lines.some((line) => font.widthOfTextAtSize(line, size) > width)) size -= 0.5;
  return size;
}

/**
 * The line in the characters the standard font has: an accented letter it lacks loses its accent,
 * and anything else becomes "?". The download id, not the name, is what ties a copy to its row.
 */
function encodable(line: string, font: PDFFont): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(line, (char) => {
    if (known.has(char.codePointAt(0)!)) return char;
    const bare = char.normalize("NFKD").replace(/\p{M}/gu, "");
    return bare && Array.from(bare).every((c) => known.has(c.codePointAt(0)!)) ? bare : "?";
  }).join("");
}
