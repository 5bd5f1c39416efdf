/**
 * What a materials upload must be, judged from its bytes, never from its name or declared type: a PDF
 * starts with `%PDF-`, an MP4 has `ftyp` at byte 4, a WebVTT file starts with `WEBVTT`. A PDF must also
 * parse and take a stamp, at a bounded cost, since every investor's copy is stamped (pdf-stamp-check.server.ts).
 */
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import type { DocumentKind } from "~/server/db.server";

export { MATERIAL_LIMITS };

export const MATERIAL_CONTENT_TYPES = { pdf: "application/pdf", video: "video/mp4", captions: "text/vtt" } as const;

const ascii = (head: Uint8Array, from: number, to: number) => Buffer.from(head.subarray(from, to)).toString("latin1");

export function looksLikePdf(head: Uint8Array) {
  return ascii(head, 0, 5) === "%PDF-";
}

export function looksLikeMp4(head: Uint8Array) {
  return ascii(head, 4, 8) === "ftyp";
}

export function looksLikeWebVtt(head: Uint8Array) {
  const text = ascii(head, 0, 10).replace(/^\xEF\xBB\xBF/, "");
  return /^WEBVTT(?:$|[ \t\r\n])/.test(text);
}

/** The kind an upload's first bytes say it is, or null for anything else. */
export function sniffDocumentKind(head: Uint8Array): DocumentKind | null {
  if (looksLikePdf(head)) return "pdf";
  if (looksLikeMp4(head)) return "video";
  return null;
}

/**
 * Walks an MP4's top-level boxes as its bytes stream past, so that a video cut off mid-upload (a
 * multipart body can end cleanly at any byte) is told from a whole one without reading it back: a
 * whole file starts with `ftyp`, holds a `moov`, and its last box ends exactly at its last byte.
 */
export class Mp4Boxes {
  private seen = 0;
  private nextBox = 0;
  private header: number[] = [];
  private toTheEnd = false;
  private broken = false;
  private readonly types: string[] = [];

  feed(piece: Uint8Array) {
    const end = this.seen + piece.byteLength;
    let position = this.seen;
    while (position < end && !this.toTheEnd && !this.broken) {
      if (position < this.nextBox) {
        position = Math.min(end, this.nextBox);
        continue;
      }
      this.header.push(piece[position - this.seen]);
      position += 1;
      this.readHeader();
    }
    this.seen = end;
  }

  /** A box's header is its size (32 bits; 1: a 64-bit size follows the type; 0: to the end of the file) and type. */
  private readHeader() {
    const bytes = Buffer.from(this.header);
    if (bytes.byteLength === 8) {
      const size = bytes.readUInt32BE(0);
      if (size === 1) return;
      if (size === 0) this.toTheEnd = true;
      else if (size < 8) this.broken = true;
      else this.nextBox += size;
    } else if (bytes.byteLength === 16) {
      const size = Number(bytes.readBigUInt64BE(8));
      if (size < 16) this.broken = true;
      else this.nextBox += size;
    } else return;
    this.types.push(bytes.toString("latin1", 4, 8));
    this.header = [];
  }

  isWhole() {
    const ended = this.toTheEnd || (this.header.length === 0 && this.nextBox === this.seen);
    return !this.broken && ended && this.types[0] === "ftyp" && this.types.includes("moov");
  }
}
