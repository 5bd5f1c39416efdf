/**
 * A page from the page cache, compressed at once, in one piece, in the encoding the visitor takes:
 * brotli, else gzip, else deflate, chosen and made as compression() makes every other answer (its
 * negotiation, its levels). Why not compression() itself: it streams through zlib on libuv's thread
 * pool, so an answer leaves over several turns of the event loop, and under mixed load each turn
 * waited behind whatever held the loop then (an administrator's page, a login's commits). A public
 * page is some 20 kB, which takes a fraction of a millisecond to compress, and the answer now leaves
 * in the turn that read its request (docs/performance.md, "Public pages in one turn of the event loop").
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import Negotiator from "negotiator";

/** compression()'s brotli quality: its default, "balanced speed/ratio". */
const BROTLI_QUALITY = 4;

/** How each encoding compresses a page, in the server's order of preference. */
const COMPRESSORS = {
  br: (html: string) => brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (html: string) => gzipSync(html),
  deflate: (html: string) => deflateSync(html),
};

export type PageEncoding = keyof typeof COMPRESSORS | "identity";

/**
 * Negotiator's choice with the server's order for the encodings a client likes equally (browsers list gzip
 * first, and get brotli). negotiator takes that order since 0.6.4, as compression() uses it; its published
 * types do not have the second argument yet.
 */
type EncodingNegotiator = {
  encoding(available: PageEncoding[], preferred: PageEncoding[]): PageEncoding | undefined;
};

/** The encoding for an Accept-Encoding header; as compression() does, none without the header. */
export function pageEncodingFor(acceptEncoding: string | undefined): PageEncoding {
  if (!acceptEncoding) return "identity";
  const negotiator = new Negotiator({
    headers: { "accept-encoding": acceptEncoding },
  }) as unknown as EncodingNegotiator;
  return negotiator.encoding([...Object.keys(COMPRESSORS), "identity"] as PageEncoding[], ["br", "gzip"]) ?? "identity";
}

/** The page's body in the encoding the visitor takes, and that encoding. */
export function encodePage(html: string, acceptEncoding: string | undefined) {
  const encoding = pageEncodingFor(acceptEncoding);
  return { encoding, body: encoding === "identity" ? html : COMPRESSORS[encoding](html) };
}
