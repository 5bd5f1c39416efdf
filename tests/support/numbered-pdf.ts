import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF whose page n reads "Page n of N". */
export async function numberedPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1)
    pdf.addPage([400, 300]).drawText(`Page ${n} of ${pages}`, { x: 40, y: 150, size: 24, font });
  return pdf.save();
}
