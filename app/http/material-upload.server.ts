/**
 * Reads a materials upload (a multipart form, from a page or the API) as it streams in: the document's
 * file (part `file`) and a video's WebVTT captions (part `captions`) go straight into blobs, the other
 * fields into a FormData for the caller to validate. The file is checked before it is returned: its
 * type from its bytes, its size for that type, a PDF that it takes a stamp, a video that it is whole.
 * Whatever is refused, or goes wrong mid-way, leaves no blob and no check process behind; once the caller
 * has the upload, it either makes it a version or discards it (discardUpload). A form takes one part of
 * each: a second `file` or `captions` is refused the moment it is announced.
 */
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { formBodyErrors } from "~/content/forms";
import { materialsMessages } from "~/content/materials";
import { PDF_STAMP_LIMITS } from "~/lib/material-limits";
import { type CheckedUpload, discardUpload } from "~/models/library/library-changes.server";
import type { DocumentKind } from "~/models/library/library-documents.server";
import {
  MATERIAL_CONTENT_TYPES,
  MATERIAL_LIMITS,
  Mp4Boxes,
  looksLikeWebVtt,
  sniffDocumentKind,
} from "~/models/library/material-file.server";
import { PdfStampCheck, type StampCheckFinding } from "~/models/library/pdf-stamp-check.server";
import { BlobRefused, deleteBlob, storeBlob, type StoredBlob } from "~/server/blob-store.server";

/** The largest text field of an upload form (a title, a description, a list of e-mail addresses). */
const TEXT_FIELD_BYTES = 64 * 1024;

export type UploadedDocument = CheckedUpload & { kind: DocumentKind };

export type MaterialUploadRefusal = { ok: false; status: 400 | 413 | 415; message: string };

export type MaterialUploadResult =
  { ok: true; formData: FormData; upload: UploadedDocument | null } | MaterialUploadRefusal;

const megabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

/** The words for a file refused as it streamed in. */
function refusalOf(error: BlobRefused, part: "file" | "captions", kind: DocumentKind | null): MaterialUploadRefusal {
  if (error.reason === "empty") return { ok: false, status: 400, message: materialsMessages.emptyFile };
  if (error.reason === "wrong-type")
    return {
      ok: false,
      status: 415,
      message: part === "captions" ? materialsMessages.captionsWrongType : materialsMessages.wrongType,
    };
  const limit = part === "captions" ? MATERIAL_LIMITS.captions : MATERIAL_LIMITS[kind ?? "video"];
  return { ok: false, status: 413, message: materialsMessages.tooLarge(megabytes(limit)) };
}

export async function readMaterialUpload(request: Request): Promise<MaterialUploadResult> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (mediaType !== "multipart/form-data") return { ok: false, status: 415, message: formBodyErrors.wrongContentType };

  const stored: StoredBlob[] = [];
  const checks: PdfStampCheck[] = [];
  let file: StoredFile | null = null;
  let captions: StoredBlob | null = null;
  let refusal: MaterialUploadRefusal | null = null;
  const announced = new Set<string>();

  const storeFile: FileHandler = async (name, data, filename) => {
    // Checked before anything is awaited: the first part may still be on its way into its blob.
    if (announced.has(name)) {
      const message = name === "file" ? materialsMessages.oneFileOnly : materialsMessages.oneCaptionsFileOnly;
      refusal ??= { ok: false, status: 400, message };
      throw new Error("A part sent twice");
    }
    announced.add(name);
    let kind: DocumentKind | null = null;
    try {
      if (name === "captions") {
        captions = await storeBlob(data, {
          limitFor: (head) => (looksLikeWebVtt(head) ? MATERIAL_LIMITS.captions : null),
        });
        stored.push(captions);
      } else {
        const boxes = new Mp4Boxes();
        const check = new PdfStampCheck();
        checks.push(check);
        // Every piece is walked (a header or two each), since the kind is known only once the first are in.
        const watched = (async function* () {
          for await (const piece of data) {
            boxes.feed(piece);
            await check.feed(piece);
            yield piece;
          }
        })();
        const blob = await storeBlob(watched, {
          limitFor: (head) => {
            kind = sniffDocumentKind(head);
            return kind ? MATERIAL_LIMITS[kind] : null;
          },
        });
        stored.push(blob);
        file = { blob, kind: kind!, name: filename, whole: kind !== "video" || boxes.isWhole(), check };
      }
    } catch (error) {
      if (error instanceof BlobRefused) refusal ??= refusalOf(error, name, kind);
      throw error;
    }
  };

  let formData: FormData;
  try {
    formData = await readMultipart(request, contentType, storeFile);
  } catch (error) {
    await Promise.all(checks.map((check) => check.cancel()));
    for (const blob of stored) await deleteBlob(blob.id);
    if (refusal) return refusal;
    if (error instanceof FieldTooLarge) return { ok: false, status: 413, message: materialsMessages.fieldTooLarge };
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }

  const chosen = file as StoredFile | null;
  const captionsBlob = captions as StoredBlob | null;
  const upload: UploadedDocument | null = chosen && {
    kind: chosen.kind,
    blobId: chosen.blob.id,
    fileName: chosen.name,
    contentType: MATERIAL_CONTENT_TYPES[chosen.kind],
    size: chosen.blob.size,
    sha256: chosen.blob.sha256,
    captionsBlobId: captionsBlob?.id ?? null,
  };
  const stamping = (await chosen?.check.verdict()) ?? null;
  // The chosen file's check has ended with its verdict; no other may be left running.
  await Promise.all(checks.map((check) => check.cancel()));
  const problem = problemWith(upload, captionsBlob, { whole: chosen?.whole ?? true, stamping });
  if (problem) {
    for (const blob of stored) await deleteBlob(blob.id);
    return { ok: false, status: 400, message: problem };
  }
  return { ok: true, formData, upload };
}

/** The document's file as stored, with what was learnt of it as it streamed in. */
type StoredFile = { blob: StoredBlob; kind: DocumentKind; name: string; whole: boolean; check: PdfStampCheck };

/** Stores one file part (`file` or `captions`) as it streams in; throws to refuse the whole form. */
export type FileHandler = (
  name: "file" | "captions",
  data: AsyncIterable<Uint8Array>,
  filename: string,
) => Promise<void>;

export class FieldTooLarge extends Error {}

/**
 * Parses a multipart body with busboy, which hands on slices of the bytes the socket read rather than
 * copies of them: a 20 MiB upload leaves some 20 MiB for the collector to free, not the 60-80 MiB of
 * a parser that copies each piece (docs/performance.md, "Memory, by kind"). Text fields, and files sent
 * in any other part, are kept in the FormData as a browser would send them, up to TEXT_FIELD_BYTES each.
 * Any failure (a handler's refusal, a malformed or cut-off body, a client gone) stops the reading and
 * rejects once every handler has settled, so that the caller sees all it stored.
 */
export function readMultipart(request: Request, contentType: string, storeFile: FileHandler): Promise<FormData> {
  const formData = new FormData();
  const handlers: Promise<unknown>[] = [];
  return new Promise((resolve, reject) => {
    if (!request.body) return reject(new Error("No body"));
    const body = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
    let failure: unknown = null;
    const settle = () => void Promise.allSettled(handlers).then(() => (failure ? reject(failure) : resolve(formData)));
    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      // The rest of the body is left unread, as a refusal needs none of it; cancelling the body instead
      // makes a Request built from a FormData (undici's) fail on its own, unhandled.
      body.unpipe(parser);
      body.pause();
      parser.destroy();
      settle();
    };
    const handle = (work: Promise<unknown>) => handlers.push(work.catch(fail));

    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, limits: { fieldSize: TEXT_FIELD_BYTES } });
    } catch (error) {
      return reject(error);
    }
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new FieldTooLarge());
      else formData.append(name, value);
    });
    parser.on("file", (name, data, { filename, mimeType }) => {
      // A file input left empty is sent with no name and no bytes: no file, not an empty one.
      if (!filename) {
        formData.append(name, "");
        data.resume();
      } else if (name === "file" || name === "captions") {
        // A part refused before it is read (sent twice) is cut off as the parser stops: the form's failure, known already.
        data.on("error", () => {});
        handle(storeFile(name, data, filename).then(() => formData.append(name, name)));
      } else {
        handle(
          buffer(data).then((bytes) => {
            if (bytes.byteLength > TEXT_FIELD_BYTES) throw new FieldTooLarge();
            formData.append(name, new File([bytes], filename, { type: mimeType }));
          }),
        );
      }
    });
    parser.on("error", fail);
    parser.on("close", () => failure || settle());
    body.on("error", fail);
    body.pipe(parser);
  });
}

/** What makes a stored upload unfit to publish, once it is all in. */
function problemWith(
  upload: UploadedDocument | null,
  captions: StoredBlob | null,
  { whole, stamping }: { whole: boolean; stamping: StampCheckFinding | null },
) {
  if (captions && upload?.kind !== "video") return materialsMessages.captionsOnlyForVideo;
  if (!upload) return null;
  if (upload.kind === "video" && !whole) return materialsMessages.videoIncomplete;
  if (upload.kind === "pdf") return stampingProblem(stamping);
  return null;
}

/** Why the stamping check refused a PDF, in the administrator's words; null for one fit to publish. */
function stampingProblem(stamping: StampCheckFinding | null) {
  switch (stamping?.verdict) {
    case "stampable":
      return null;
    case "too-many-pages":
      return materialsMessages.tooManyPages(stamping.pages ?? 0, PDF_STAMP_LIMITS.pages);
    case "too-much-content":
      return materialsMessages.tooMuchContent(megabytes(PDF_STAMP_LIMITS.inflatedBytes));
    case "too-slow":
      return materialsMessages.tooSlowToStamp(PDF_STAMP_LIMITS.stampMs / 1000);
    default:
      return materialsMessages.notStampable;
  }
}

export { discardUpload };
