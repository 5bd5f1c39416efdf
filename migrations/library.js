// @ts-check
// The materials library's first documents (migration 016, both engines): the files shipped in private/.
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** A stored file is split into rows of this size, so a byte range reads a chunk or two, never the file. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/** The specification's materials, in its order: three PDF links and the introductory video. */
const FIRST_LIBRARY = [
  {
    title: "Introductory video",
    description: "The firm's introduction for investors.",
    kind: "video",
    file: "investorvideo.mp4",
    contentType: "video/mp4",
  },
  {
    title: "Description of the firm",
    description: "Who we are, what we are building and why.",
    kind: "pdf",
    file: "download.pdf",
    contentType: "application/pdf",
  },
  {
    title: "Slide deck",
    description: "The investor presentation.",
    kind: "pdf",
    file: "download.pdf",
    contentType: "application/pdf",
  },
  {
    title: "Offering details",
    description: "The terms of the offering.",
    kind: "pdf",
    file: "download.pdf",
    contentType: "application/pdf",
  },
];

/**
 * Stores a whole file as a complete blob, in chunks: for the small files shipped with the code only
 * (the app streams uploads in, app/server/blob-store.server.ts).
 * @param {import("kysely").Kysely<any>} db
 * @param {Buffer} bytes
 * @param {number} createdAt
 */
async function insertWholeBlob(db, bytes, createdAt) {
  const id = randomUUID();
  const chunkCount = Math.ceil(bytes.byteLength / BLOB_CHUNK_BYTES);
  await db
    .insertInto("blobs")
    .values({
      id,
      size: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      chunk_count: chunkCount,
      complete: 1,
      created_at: createdAt,
    })
    .execute();
  for (let index = 0; index < chunkCount; index++) {
    const data = bytes.subarray(index * BLOB_CHUNK_BYTES, (index + 1) * BLOB_CHUNK_BYTES);
    await db.insertInto("blob_chunks").values({ blob_id: id, chunk_index: index, data }).execute();
  }
  return { id, size: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * The first library, read from private/ under the working directory (where `npm start` and the tests
 * run): published to every investor whose NDA is signed.
 * @param {import("kysely").Kysely<any>} db
 */
export async function seedFirstLibrary(db) {
  const createdAt = Date.now();
  let position = 0;
  for (const entry of FIRST_LIBRARY) {
    position += 1;
    const bytes = readFileSync(path.resolve(process.cwd(), "private", entry.file));
    const blob = await insertWholeBlob(db, bytes, createdAt);
    const documentId = randomUUID();
    await db
      .insertInto("documents")
      .values({
        id: documentId,
        title: entry.title,
        description: entry.description,
        kind: entry.kind,
        position,
        audience: "signed",
        published: 1,
        created_by: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    await db
      .insertInto("document_versions")
      .values({
        id: randomUUID(),
        document_id: documentId,
        number: 1,
        file_name: entry.file,
        content_type: entry.contentType,
        size: blob.size,
        sha256: blob.sha256,
        blob_id: blob.id,
        captions_blob_id: null,
        uploaded_by: null,
        created_at: createdAt,
      })
      .execute();
  }
}
