/**
 * What an administrator gave to trace a copy: a pasted download id (a form, urlencoded or multipart), or a PDF
 * (multipart part `file`), read as it streams in by the library's multipart reader (material-upload.server.ts)
 * and handed piece by piece to the copy-id reader's process; never stored, and cut off at the size no portal
 * copy reaches. Anything else is refused with a 4xx and its reason.
 */
import { traceMessages } from "~/content/copy-trace";
import { formBodyErrors } from "~/content/forms";
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import { CopyIdReader, type CopyIdReading } from "~/models/trace/copy-id-reader.server";
import type { TraceSource } from "~/models/trace/copy-trace.server";
import { readFormBody } from "./form-body.server";
import { FieldTooLarge, readMultipart } from "./material-upload.server";

/** The largest PDF read: the library's own limit for a PDF, which its stamped copies stay near. */
export const TRACE_UPLOAD_BYTES = MATERIAL_LIMITS.pdf;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TraceRequest =
  | { ok: true; source: TraceSource; downloadId: string | null; readFrom: "metadata" | "stamp" | null }
  | { ok: false; status: 400 | 413 | 415; message: string };

class Refused extends Error {
  constructor(readonly refusal: Extract<TraceRequest, { ok: false }>) {
    super(refusal.message);
  }
}

const megabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export async function readTraceRequest(request: Request): Promise<TraceRequest> {
  const contentType = request.headers.get("content-type") ?? "";
  const multipart = contentType.split(";")[0].trim().toLowerCase() === "multipart/form-data";
  if (!multipart) {
    const body = await readFormBody(request);
    if (!body.ok) return body;
    return pasted(body.formData.get("downloadId"));
  }
  let reading: CopyIdReading | null = null;
  const readers: CopyIdReader[] = [];
  let formData: FormData;
  try {
    formData = await readMultipart(request, contentType, async (name, data) => {
      if (name !== "file" || readers.length > 0)
        throw new Refused({ ok: false, status: 400, message: traceMessages.oneFileOnly });
      const reader = new CopyIdReader();
      readers.push(reader);
      let bytes = 0;
      for await (const piece of data) {
        bytes += piece.byteLength;
        if (bytes > TRACE_UPLOAD_BYTES)
          throw new Refused({ ok: false, status: 413, message: traceMessages.tooLarge(megabytes(TRACE_UPLOAD_BYTES)) });
        await reader.feed(piece);
      }
      reading = await reader.reading();
    });
  } catch (error) {
    await Promise.all(readers.map((reader) => reader.cancel()));
    if (error instanceof Refused) return error.refusal;
    if (error instanceof FieldTooLarge) return { ok: false, status: 413, message: traceMessages.badDownloadId };
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }
  const read = reading as CopyIdReading | null;
  if (!read) return pasted(formData.get("downloadId"));
  switch (read.kind) {
    case "not-pdf":
      return { ok: false, status: 415, message: traceMessages.notPdf };
    case "unreadable":
      return { ok: false, status: 400, message: traceMessages.unreadable };
    case "no-id":
      return { ok: true, source: "upload", downloadId: null, readFrom: null };
    case "id":
      return { ok: true, source: "upload", downloadId: read.downloadId.toLowerCase(), readFrom: read.from };
  }
}

function pasted(value: FormDataEntryValue | null): TraceRequest {
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") return { ok: false, status: 400, message: traceMessages.nothingGiven };
  if (!UUID.test(text)) return { ok: false, status: 400, message: traceMessages.badDownloadId };
  return { ok: true, source: "pasted", downloadId: text.toLowerCase(), readFrom: null };
}
