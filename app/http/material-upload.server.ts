/**
 * Reads a materials upload (a multipart form, from a page or the API) as it streams in: the document's
 * file (part `file`) and a video's WebVTT captions (part `captions`) go straight into blobs, the other
 * fields into a FormData for the caller to validate. The file is checked before it is returned: its
 * type from its bytes, its size for that type, a PDF that it takes a stamp, a video that it is whole.
 * Whatever is refused, or goes wrong mid-way, leaves no blob behind; once the caller has the upload,
 * it either makes it a version or discards it (discardUpload).
 */
import {
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { formBodyErrors } from "~/content/forms";
import { materialsMessages } from "~/content/materials";
import {
  MATERIAL_CONTENT_TYPES,
  MATERIAL_LIMITS,
  Mp4Boxes,
  looksLikeWebVtt,
  pdfIsStampable,
  sniffDocumentKind,
} from "~/models/material-file.server";
import { type CheckedUpload, type DocumentKind, discardUpload } from "~/models/materials.server";
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
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "multipart/form-data") return { ok: false, status: 415, message: formBodyErrors.wrongContentType };

  const stored: StoredBlob[] = [];
  let file: { blob: StoredBlob; kind: DocumentKind; name: string; whole: boolean } | null = null;
  let captions: StoredBlob | null = null;
  let refusal: MaterialUploadRefusal | null = null;

  const fileHandler: UploadHandler = async ({ name, filename, data }) => {
    if (name !== "file" && name !== "captions") return undefined;
    // A file input left empty is sent with no name and no bytes: no file, not an empty one.
    if (!filename) {
      for await (const piece of data) if (piece.byteLength > 0) break;
      return "";
    }
    if ((name === "file" && file) || (name === "captions" && captions)) throw new Error("A part sent twice");
    let kind: DocumentKind | null = null;
    try {
      if (name === "captions") {
        captions = await storeBlob(data, {
          limitFor: (head) => (looksLikeWebVtt(head) ? MATERIAL_LIMITS.captions : null),
        });
        stored.push(captions);
      } else {
        const boxes = new Mp4Boxes();
        // Every piece is walked (a header or two each), since the kind is known only once the first are in.
        const watched = (async function* () {
          for await (const piece of data) {
            boxes.feed(piece);
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
        file = { blob, kind: kind!, name: filename, whole: kind !== "video" || boxes.isWhole() };
      }
    } catch (error) {
      if (error instanceof BlobRefused) refusal ??= refusalOf(error, name, kind);
      throw error;
    }
    return name;
  };

  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(
        fileHandler,
        unstable_createMemoryUploadHandler({ maxPartSize: TEXT_FIELD_BYTES }),
      ),
    );
  } catch (error) {
    for (const blob of stored) await deleteBlob(blob.id);
    if (refusal) return refusal;
    if (error instanceof MaxPartSizeExceededError)
      return { ok: false, status: 413, message: materialsMessages.fieldTooLarge };
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }

  const chosen = file as { blob: StoredBlob; kind: DocumentKind; name: string; whole: boolean } | null;
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
  const problem = await problemWith(upload, captionsBlob, chosen?.whole ?? true);
  if (problem) {
    for (const blob of stored) await deleteBlob(blob.id);
    return { ok: false, status: 400, message: problem };
  }
  return { ok: true, formData, upload };
}

/** What makes a stored upload unfit to publish, once it is all in. */
async function problemWith(upload: UploadedDocument | null, captions: StoredBlob | null, whole: boolean) {
  if (captions && upload?.kind !== "video") return materialsMessages.captionsOnlyForVideo;
  if (!upload) return null;
  if (upload.kind === "video" && !whole) return materialsMessages.videoIncomplete;
  if (upload.kind === "pdf" && !(await pdfIsStampable(upload.blobId))) return materialsMessages.notStampable;
  return null;
}

export { discardUpload };
