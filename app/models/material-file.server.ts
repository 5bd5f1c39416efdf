/**
 * What a materials upload must be, judged from its bytes, never from its name or declared type: a PDF
 * starts with `%PDF-`, an MP4 has `ftyp` at byte 4, a WebVTT file starts with `WEBVTT`. A PDF must also
 * parse and take a stamp, since every investor's copy is stamped (app/server/pdf-stamp.server.ts).
 */
import { readWholeBlob } from "~/server/blob-store.server";
import type { DocumentKind } from "~/server/db.server";
import { stampPdf } from "~/server/pdf-stamp.server";

const MIB = 1024 * 1024;

/** The largest file of each kind an administrator may upload. */
export const MATERIAL_LIMITS = { pdf: 50 * MIB, video: 1024 * MIB, captions: 2 * MIB } as const;

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

/** Whether a stored PDF parses and takes a stamp, as each investor's copy will. */
export async function pdfIsStampable(blobId: string): Promise<boolean> {
  try {
    await stampPdf(await readWholeBlob(blobId), {
      band: [["Checked for stamping"]],
      watermark: "Checked for stamping",
      downloadId: "upload-check",
    });
    return true;
  } catch {
    return false;
  }
}
