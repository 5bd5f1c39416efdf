/**
 * A verification's file (a CPA's letter, a statement): stored as the library's files are, in blobs
 * (app/server/blob-store.server.ts), and only a PDF, judged by its first bytes as the library judges them
 * (looksLikePdf), whatever its name says. An empty file part is no file.
 */
import { investorStepsContent } from "~/content/investor-steps";
import { looksLikePdf } from "~/models/library/material-file.server";
import { BlobRefused, storeBlob } from "~/server/blob-store.server";

export const VERIFICATION_FILE_BYTES = 10 * 1024 * 1024;
/** The form's text fields beside the file. */
const FORM_SLACK_BYTES = 64 * 1024;

const errors = investorStepsContent.errors;

export type StoredVerificationFile =
  { ok: true; file: { blobId: string; name: string } | null } | { ok: false; status: 413 | 415; message: string };

/** Whether the request's body is too large for a verification form, before any of it is read. */
export function verificationBodyTooLarge(request: Request): boolean {
  const length = Number(request.headers.get("content-length") ?? "0");
  return length > VERIFICATION_FILE_BYTES + FORM_SLACK_BYTES;
}

/** Stores the form's file part (incomplete until the verification takes it, completeBlob). */
export async function storeVerificationFile(part: FormDataEntryValue | null): Promise<StoredVerificationFile> {
  if (!(part instanceof File) || part.size === 0) return { ok: true, file: null };
  try {
    const blob = await storeBlob(part.stream() as unknown as AsyncIterable<Uint8Array>, {
      limitFor: (head) => (looksLikePdf(head) ? VERIFICATION_FILE_BYTES : null),
    });
    return { ok: true, file: { blobId: blob.id, name: part.name.slice(0, 200) || "verification.pdf" } };
  } catch (error) {
    if (!(error instanceof BlobRefused)) throw error;
    if (error.reason === "too-large") return { ok: false, status: 413, message: errors.fileTooLarge };
    return { ok: false, status: 415, message: errors.fileNotPdf };
  }
}
