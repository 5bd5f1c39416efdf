/**
 * PDFs built to make each stamped copy costly, made on the spot (never committed): one of thousands of empty
 * pages, and a deflate bomb whose pages' content, each stream modest, inflates past the whole document's limit.
 */
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFName } from "pdf-lib";

const MIB = 1024 * 1024;

/** A PDF of `pages` empty pages, some tens of kilobytes, written out by hand (pdf-lib takes seconds to add 3000 pages). */
export function manyPagesPdf(pages = 3000): Uint8Array {
  const kids = Array.from({ length: pages }, (_, n) => `${n + 3} 0 R`).join(" ");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"),
  ];
  let body = "%PDF-1.7\n";
  const offsets = objects.map((object, n) => {
    const offset = body.length;
    body += `${n + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A PDF of `pages` pages, each one content stream that inflates to `mibEach` MiB of spaces (a few kilobytes deflated). */
export async function deflateBombPdf({ pages = 4, mibEach = 12 } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const bomb = deflateSync(Buffer.alloc(mibEach * MIB, " "), { level: 9 });
  for (let n = 0; n < pages; n += 1) {
    const page = pdf.addPage([612, 792]);
    page.node.set(PDFName.of("Contents"), pdf.context.register(pdf.context.stream(bomb, { Filter: "FlateDecode" })));
  }
  return pdf.save();
}
