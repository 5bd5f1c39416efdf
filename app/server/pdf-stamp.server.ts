/**
 * Stamps a PDF for the one who downloads it (pdf-lib), on every page, twice:
 * - a light diagonal line across the page, written into the page's own content stream, under the
 *   document's text: no object can be dropped to lift it, only the page's operators edited;
 * - lines in a band added below the page: the page grows downward, so they never cover the document's
 *   own text, and they print with it.
 * The download id goes into the document's metadata too. What a copy could run or carry when opened is
 * dropped (pdf-active-content.server.ts), and a document past PDF_STAMP_LIMITS is refused (PdfTooCostly).
 */
import { deflateSync } from "node:zlib";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  StandardFonts,
  drawRectangle,
  drawText,
  popGraphicsState,
  pushGraphicsState,
  radians,
  rgb,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
} from "pdf-lib";
import { PDF_STAMP_LIMITS } from "../lib/material-limits.ts";
import { removeActiveContent } from "./pdf-active-content.server.ts";
import { InflationBudget, PdfTooCostly, decodedContent } from "./pdf-inflation.server.ts";

/** A piece of a band line; the `shortenable` piece (a name) gives way with an ellipsis when the line is too long. */
export type StampPart = string | { shortenable: string };

export interface Stamp {
  /** The band's lines, each the pieces it is made of. */
  band: StampPart[][];
  /** The line drawn across each page, inside its content. */
  watermark: string;
  /** Written into the document's metadata. */
  downloadId: string;
}

const BAND_HEIGHT = 30;
const MARGIN = 12;
const LINE_HEIGHT = 1.3;
const LARGEST_SIZE = 8;
// Below this a printed line is hard to read: a line too long is shortened, then wrapped, not shrunk further.
const SMALLEST_SIZE = 7;
// A shortened name keeps at least this many characters, so it still says who the copy was for.
const SHORTEST_NAME = 20;

const WATERMARK_LARGEST_SIZE = 24;
const WATERMARK_SMALLEST_SIZE = 10;
const WATERMARK_MOST_LINES = 6;
const WATERMARK_GREY = rgb(0.5, 0.5, 0.5);
const WATERMARK_OPACITY = 0.3;

/** A stamped copy, with what it cost: the pages stamped and the bytes their content inflated to. */
export type StampedPdf = { bytes: Uint8Array; pages: number; inflatedBytes: number };

export { PdfTooCostly };

export async function stampPdf(source: Uint8Array, stamp: Stamp): Promise<Uint8Array> {
  return (await stampPdfCounted(source, stamp)).bytes;
}

export async function stampPdfCounted(source: Uint8Array, stamp: Stamp): Promise<StampedPdf> {
  const pdf = await PDFDocument.load(source);
  const pageCount = pdf.getPageCount();
  if (pageCount > PDF_STAMP_LIMITS.pages) throw new PdfTooCostly("pages", pageCount);
  const inflation = new InflationBudget(PDF_STAMP_LIMITS.inflatedBytes);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const known = new Set(font.getCharacterSet());
  const ellipsis = known.has(0x2026) ? "…" : "...";
  const band = stamp.band.map((parts) =>
    parts.map((part) =>
      typeof part === "string" ? encodable(part, known) : { shortenable: encodable(part.shortenable, known) },
    ),
  );
  const watermark = encodable(stamp.watermark, known);
  const translucent = pdf.context.register(pdf.context.obj({ Type: "ExtGState", ca: WATERMARK_OPACITY }));
  const replaced = new Set<PDFRef>();

  for (const page of pdf.getPages()) {
    const original = pageContent(pdf, page, replaced, inflation);
    const fontName = resourceName(pdf, page, "Font", font.ref);
    const watermarkOps = watermarkOperators(
      watermark,
      page,
      font,
      fontName,
      resourceName(pdf, page, "ExtGState", translucent),
    );
    const bandOps = bandOperators(band, page, font, fontName, ellipsis);
    // One stream: the watermark under the document's operators (each in its own graphics state, so
    // neither leaks into the other), then the band.
    const content = Buffer.concat([
      operatorBytes(pdf, [pushGraphicsState(), ...watermarkOps, popGraphicsState()]),
      Buffer.from("q\n"),
      original,
      Buffer.from("\nQ\n"),
      operatorBytes(pdf, [pushGraphicsState(), ...bandOps, popGraphicsState()]),
    ]);
    // Deflated by Node's zlib rather than by pdf-lib (pako), which makes some 300 KB of fresh working buffers
    // a stream: garbage that piles up in the stamping thread between its collections.
    page.node.set(
      PDFName.of("Contents"),
      pdf.context.register(pdf.context.stream(deflateSync(content), { Filter: "FlateDecode" })),
    );
  }
  // The unstamped streams would otherwise stay in the file, ready to be pointed at again.
  for (const ref of replaced) pdf.context.delete(ref);
  removeActiveContent(pdf);

  const keywords = pdf.getKeywords();
  pdf.setKeywords(keywords ? [keywords, stamp.downloadId] : [stamp.downloadId]);
  pdf.context
    .lookup(pdf.context.trailerInfo.Info, PDFDict)
    .set(PDFName.of("DownloadId"), PDFString.of(stamp.downloadId));
  return { bytes: await pdf.save(), pages: pageCount, inflatedBytes: inflation.used };
}

/** The page's operators, its content streams decoded and joined; the objects that held them go in `replaced`. */
function pageContent(pdf: PDFDocument, page: PDFPage, replaced: Set<PDFRef>, inflation: InflationBudget): Uint8Array {
  const contents = page.node.get(PDFName.of("Contents"));
  const value = contents instanceof PDFRef ? pdf.context.lookup(contents) : contents;
  const refs = value instanceof PDFRawStream ? [contents] : value instanceof PDFArray ? value.asArray() : [];
  if (value instanceof PDFArray && contents instanceof PDFRef) replaced.add(contents);
  const parts = refs.map((ref) => {
    if (ref instanceof PDFRef) replaced.add(ref);
    const stream = pdf.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) throw new Error(`A page's content is not a stream: ${String(ref)}`);
    return decodedContent(stream, inflation);
  });
  // Streams of one page are one sequence of operators; a newline keeps a token from running into the next.
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from("\n")]));
}

/**
 * The name under which the page's resources (its own, or those it inherits) hold `value`, added
 * once if missing.
 */
function resourceName(pdf: PDFDocument, page: PDFPage, kind: "Font" | "ExtGState", value: PDFRef): PDFName {
  let resources = page.node.Resources();
  if (!resources) {
    resources = pdf.context.obj({});
    page.node.set(PDFName.of("Resources"), resources);
  }
  let names = resources.lookupMaybe(PDFName.of(kind), PDFDict);
  if (!names) {
    names = pdf.context.obj({});
    resources.set(PDFName.of(kind), names);
  }
  const existing = names.entries().find(([, entry]) => entry === value);
  if (existing) return existing[0];
  // A plain name: nothing in the page's resources points at the stamp's operators.
  const name = names.uniqueKey(kind === "Font" ? "F" : "GS");
  names.set(name, value);
  return name;
}

/** A diagonal line (or a few, for a long e-mail) through the middle of the page as it was, as large as fits. */
function watermarkOperators(text: string, page: PDFPage, font: PDFFont, fontName: PDFName, state: PDFName) {
  const box = page.getCropBox();
  const angle = Math.min(Math.PI / 4, Math.max(Math.PI / 6, Math.atan2(box.height, box.width)));
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const { size, lines } = watermarkLayout(text, font, box, cos, sin);
  const leading = size * LINE_HEIGHT;
  const [centreX, centreY] = [box.x + box.width / 2, box.y + box.height / 2];
  return lines.flatMap((line, i) => {
    const along = -font.widthOfTextAtSize(line, size) / 2;
    // Baselines stacked across the diagonal, the block centred on the page's centre.
    const across = ((lines.length - 1) / 2 - i) * leading - size * 0.35;
    return drawText(font.encodeText(line), {
      x: centreX + along * cos - across * sin,
      y: centreY + along * sin + across * cos,
      size,
      font: fontName,
      color: WATERMARK_GREY,
      rotate: radians(angle),
      xSkew: radians(0),
      ySkew: radians(0),
      graphicsState: state,
    });
  });
}

/** The fewest lines, then the largest size, at which the rotated block stays inside the box. */
function watermarkLayout(
  text: string,
  font: PDFFont,
  box: { width: number; height: number },
  cos: number,
  sin: number,
): { size: number; lines: string[] } {
  const length = (block: number) =>
    Math.min((box.width - 2 * MARGIN - block * sin) / cos, (box.height - 2 * MARGIN - block * cos) / sin);
  for (let count = 1; count <= WATERMARK_MOST_LINES; count++) {
    for (let size = WATERMARK_LARGEST_SIZE; size >= WATERMARK_SMALLEST_SIZE; size--) {
      const room = length(count * size * LINE_HEIGHT);
      if (room <= 0) continue;
      const lines = wrap(text, font, size, room);
      if (lines.length <= count) return { size, lines };
    }
  }
  // A page too small for that: one line, shrunk to fit.
  return { size: Math.max(1, length(0) / font.widthOfTextAtSize(text, 1)), lines: [text] };
}

/** Grows the page downward by a band that holds the lines, and draws them in it. */
function bandOperators(band: StampPart[][], page: PDFPage, font: PDFFont, fontName: PDFName, ellipsis: string) {
  const box = page.getMediaBox();
  const { size, lines } = bandLayout(band, font, box.width - 2 * MARGIN, ellipsis);
  const leading = size * LINE_HEIGHT;
  // Two lines fit the usual 30 points; a line wrapped from a long e-mail makes the band deeper, not the text smaller.
  const height = Math.max(BAND_HEIGHT, lines.length * leading + MARGIN * 0.75);
  const bottom = box.y - height;
  page.setMediaBox(box.x, bottom, box.width, box.height + height);
  const crop = page.getCropBox();
  page.setCropBox(crop.x, Math.min(crop.y, bottom), crop.width, crop.height + Math.max(0, crop.y - bottom));
  const none = radians(0);
  return [
    ...drawRectangle({
      x: box.x,
      y: bottom,
      width: box.width,
      height,
      borderWidth: 0,
      color: rgb(0.94, 0.94, 0.94),
      borderColor: undefined,
      rotate: none,
      xSkew: none,
      ySkew: none,
    }),
    ...lines.flatMap((line, i) =>
      drawText(font.encodeText(line), {
        x: box.x + MARGIN,
        y: bottom + height - MARGIN / 2 - (i + 1) * leading,
        size,
        font: fontName,
        color: rgb(0.2, 0.2, 0.2),
        rotate: none,
        xSkew: none,
        ySkew: none,
      }),
    ),
  ];
}

/**
 * The band's lines at the largest size at which each fits the width whole; failing that, at the
 * smallest readable size, the name shortened, then what is still too long (a long e-mail) wrapped.
 * Nothing but the name is ever cut short.
 */
function bandLayout(
  band: StampPart[][],
  font: PDFFont,
  width: number,
  ellipsis: string,
): { size: number; lines: string[] } {
  const whole = band.map((parts) => parts.map((part) => (typeof part === "string" ? part : part.shortenable)).join(""));
  for (let size = LARGEST_SIZE; size >= SMALLEST_SIZE; size -= 0.5) {
    if (whole.every((line) => font.widthOfTextAtSize(line, size) <= width)) return { size, lines: whole };
  }
  const size = SMALLEST_SIZE;
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines = band.flatMap((parts) => {
    const line = (kept: number) =>
      parts
        .map((part) => {
          if (typeof part === "string") return part;
          return part.shortenable.length <= kept
            ? part.shortenable
            : part.shortenable.slice(0, kept).trimEnd() + ellipsis;
        })
        .join("");
    const longest = Math.max(0, ...parts.map((part) => (typeof part === "string" ? 0 : part.shortenable.length)));
    const kept = Math.max(
      SHORTEST_NAME,
      longestPrefix(longest, (n) => fits(line(n))),
    );
    return wrap(line(kept), font, size, width);
  });
  return { size, lines };
}

/**
 * The text in lines no wider than `width`, broken at spaces; a word longer than a line (an e-mail)
 * is broken inside, after an "@", "." or "-" if one falls in the line's second half, so that the
 * pieces read as parts of an address. No character is lost.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (!fits(line)) {
      // At least one character a line, so that a page too narrow for any still ends.
      const fitting = Math.max(
        1,
        longestPrefix(line.length, (n) => fits(line.slice(0, n))),
      );
      const soft = Math.max(...["@", ".", "-"].map((mark) => line.lastIndexOf(mark, fitting - 1) + 1));
      const cut = soft > fitting / 2 ? soft : fitting;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  lines.push(line);
  return lines;
}

/** The largest n in 0..length for which fits(n) holds, fits being true for 0 and monotonic. */
function longestPrefix(length: number, fits: (n: number) => boolean): number {
  let [low, high] = [0, length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

function operatorBytes(pdf: PDFDocument, operators: PDFOperator[]): Uint8Array {
  return pdf.context.contentStream(operators).getUnencodedContents();
}

/**
 * The line in the characters the standard font has: an accented letter it lacks loses its accent,
 * and anything else becomes "?". The download id, not the name, is what ties a copy to its row.
 */
export function encodable(line: string, known: Set<number>): string {
  return Array.from(line, (char) => {
    if (known.has(char.codePointAt(0)!)) return char;
    const bare = char.normalize("NFKD").replace(/\p{M}/gu, "");
    return bare && Array.from(bare).every((c) => known.has(c.codePointAt(0)!)) ? bare : "?";
  }).join("");
}
