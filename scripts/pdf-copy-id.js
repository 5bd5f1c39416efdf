// @ts-check
// The download id a PDF on stdin carries, if it is a copy this portal stamped: the trace of a copy
// (app/models/trace/copy-id-reader.server.ts), run in a process of its own so that a hostile PDF, which pdf-lib
// would hold whole, never weighs on the server. The id is read from the document's metadata (the DownloadId
// entry, then the keywords) and, if a copy's metadata was stripped, from the text of its stamp (the band's
// "download ID …" line, then the diagonal line), its pages' content decoded within PDF_STAMP_LIMITS. Writes one
// line of JSON: { "downloadId": "…" | null, "from": "metadata" | "stamp" | null }, exit 0; or
// { "unreadable": true }, exit 1, for a file pdf-lib cannot read.
import { buffer } from "node:stream/consumers";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFString, PDFHexString } from "pdf-lib";

const inflation = new URL("../app/server/pdf-inflation.server.ts", import.meta.url).href;
const limits = new URL("../app/lib/material-limits.ts", import.meta.url).href;
const { InflationBudget, decodedContent } = /** @type {typeof import("../app/server/pdf-inflation.server")} */ (
  await import(inflation)
);
const { PDF_STAMP_LIMITS } = /** @type {typeof import("../app/lib/material-limits")} */ (await import(limits));

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const BAND_LINE = new RegExp(`download ID\\s+(${UUID.source})`, "i");

/** @param {object} answer @param {number} code */
function answer(answer, code) {
  process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(code));
}

/** @param {PDFDocument} pdf */
function fromMetadata(pdf) {
  const info = pdf.context.lookupMaybe(pdf.context.trailerInfo.Info, PDFDict);
  const entry = info?.get(PDFName.of("DownloadId"));
  const given = entry instanceof PDFString || entry instanceof PDFHexString ? entry.decodeText() : "";
  return given.match(UUID)?.[0] ?? pdf.getKeywords()?.match(UUID)?.[0] ?? null;
}

/** The strings a page's operators show (literal and hex), in order, joined by spaces. @param {Uint8Array} content */
function shownText(content) {
  const source = Buffer.from(content).toString("latin1");
  const strings = [];
  for (const [, literal, hex] of source.matchAll(/\(((?:\\.|[^\\)])*)\)|<([0-9A-Fa-f\s]*)>/g)) {
    if (hex !== undefined) strings.push(Buffer.from(hex.replace(/\s/g, ""), "hex").toString("latin1"));
    else strings.push(literal.replace(/\\([()\\])/g, "$1"));
  }
  return strings.join(" ");
}

/** @param {PDFDocument} pdf */
function fromStamp(pdf) {
  const budget = new InflationBudget(PDF_STAMP_LIMITS.inflatedBytes);
  const pages = pdf.getPages().slice(0, PDF_STAMP_LIMITS.pages);
  let anywhere = null;
  for (const page of pages) {
    const contents = page.node.get(PDFName.of("Contents"));
    const value = contents instanceof PDFRef ? pdf.context.lookup(contents) : contents;
    const refs = value instanceof PDFRawStream ? [contents] : value instanceof PDFArray ? value.asArray() : [];
    for (const ref of refs) {
      const stream = ref instanceof PDFRef ? pdf.context.lookup(ref) : ref;
      if (!(stream instanceof PDFRawStream)) continue;
      const text = shownText(decodedContent(stream, budget));
      const band = text.match(BAND_LINE);
      if (band) return band[1];
      anywhere ??= text.match(UUID)?.[0] ?? null;
    }
  }
  return anywhere;
}

try {
  const pdf = await PDFDocument.load(await buffer(process.stdin), { updateMetadata: false });
  const inMetadata = fromMetadata(pdf);
  if (inMetadata) answer({ downloadId: inMetadata.toLowerCase(), from: "metadata" }, 0);
  else {
    const inStamp = fromStamp(pdf);
    answer(inStamp ? { downloadId: inStamp.toLowerCase(), from: "stamp" } : { downloadId: null, from: null }, 0);
  }
} catch {
  answer({ unreadable: true }, 1);
}
