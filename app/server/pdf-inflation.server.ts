/**
 * What a stamped copy's page content may inflate to, counted across the whole document: a stream that
 * inflates far past what any page holds is a PDF built to exhaust memory, and so are many that add up.
 */
import { inflateSync } from "node:zlib";
import { PDFArray, PDFName, type PDFRawStream, decodePDFRawStream } from "pdf-lib";

/** A PDF whose copies would cost more than PDF_STAMP_LIMITS allows: too many pages, or content that inflates too far. */
export class PdfTooCostly extends Error {
  // Fields declared plainly, not as parameter properties: scripts/pdf-stampable.js runs this file with Node's type stripping.
  readonly reason: "pages" | "content";
  readonly amount: number;
  constructor(reason: "pages" | "content", amount: number) {
    super(`The PDF is too costly to stamp: ${reason} ${amount}`);
    this.reason = reason;
    this.amount = amount;
  }
}

/**
 * The bytes a document's page content may inflate to, all its streams together: past it the PDF was built
 * to exhaust memory, however its bomb is split (zlib's memory is the process's, which the stamping thread's
 * heap limit does not bound).
 */
export class InflationBudget {
  used = 0;
  private readonly most: number;
  constructor(most: number) {
    this.most = most;
  }

  /** How many more bytes one inflation may give (at least one, so that zlib's limit is never zero). */
  get left() {
    return Math.max(1, this.most - this.used);
  }

  take(bytes: Uint8Array) {
    this.used += bytes.byteLength;
    if (this.used > this.most) throw new PdfTooCostly("content", this.used);
    return bytes;
  }

  /** zlib refuses to inflate past `maxOutputLength` with a RangeError: the budget is spent. */
  inflate(bytes: Uint8Array) {
    try {
      return inflateSync(bytes, { maxOutputLength: this.left });
    } catch (error) {
      if (error instanceof RangeError) throw new PdfTooCostly("content", this.most + 1);
      throw error;
    }
  }
}

/**
 * A content stream's operators. The usual one, deflated (once or more) and nothing else, is inflated by Node's
 * zlib, whose working memory is freed as soon as it is done and which stops at the budget; pdf-lib's own
 * decoder (any other filter) builds its output in buffers that grow by doubling, all of them garbage once the
 * page is stamped, and is counted once done.
 */
export function decodedContent(stream: PDFRawStream, inflation: InflationBudget): Uint8Array {
  const filter = stream.dict.get(PDFName.of("Filter"));
  const filters = filter instanceof PDFArray ? filter.asArray() : [filter];
  const deflatedOnly = filters.every((name) => name === PDFName.of("FlateDecode"));
  if (filter && deflatedOnly && !stream.dict.has(PDFName.of("DecodeParms")))
    return inflation.take(filters.reduce<Uint8Array>((bytes) => inflation.inflate(bytes), stream.contents));
  return inflation.take(decodePDFRawStream(stream).decode());
}
