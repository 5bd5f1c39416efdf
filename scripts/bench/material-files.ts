/**
 * The files the library's figures work on, made once per run: a PDF of about 20 MiB (pages of random
 * noise, which no compression shrinks), a PDF of 50 text pages, and the rows of a 500 MiB "video" written
 * straight into the database a chunk at a time (as migrations/library.js chunks a file), never whole in memory.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import {
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  PDFDocument,
  pushGraphicsState,
  StandardFonts,
} from "pdf-lib";
import { BLOB_CHUNK_BYTES } from "../../migrations/library.js";
import { withDatabase, type BenchDatabase } from "./seed";

const MIB = 1024 * 1024;

/** A PDF of `images` pages, each an uncompressed RGB image of 4 MiB of noise; written to `file`, its size returned. */
export async function writeNoisePdf(file: string, images = 5): Promise<number> {
  const pdf = await PDFDocument.create();
  const [width, height] = [1024, 1365];
  for (let n = 0; n < images; n += 1) {
    const image = pdf.context.register(
      pdf.context.stream(randomBytes(width * height * 3), {
        Type: "XObject",
        Subtype: "Image",
        Width: width,
        Height: height,
        ColorSpace: "DeviceRGB",
        BitsPerComponent: 8,
      }),
    );
    const page = pdf.addPage([612, 792]);
    const name = page.node.newXObject("Noise", image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(540, 0, 0, 720, 36, 36),
      drawObject(name),
      popGraphicsState(),
    );
  }
  const bytes = await pdf.save();
  fs.writeFileSync(file, bytes);
  return bytes.byteLength;
}

/** A PDF of `pages` pages of text, like a long memorandum. */
export async function textPdf(pages = 50): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Offering memorandum, page ${n}`, { x: 72, y: 720, size: 18, font });
    for (let line = 0; line < 40; line += 1)
      page.drawText(`Line ${line + 1}: the terms, the risks and the numbers of the offering, set out at length.`, {
        x: 72,
        y: 690 - line * 15,
        size: 10,
        font,
      });
  }
  return Buffer.from(await pdf.save());
}

export type SeededDocument = { id: string; size: number };

type Chunks = { count: number; chunk: (index: number) => Uint8Array };

/** A published document for every investor whose NDA is signed, its one version's blob written chunk by chunk. */
async function seedDocument(
  database: BenchDatabase,
  document: { title: string; kind: "pdf" | "video"; fileName: string; contentType: string; size: number },
  chunks: Chunks,
): Promise<SeededDocument> {
  const [id, blobId, at] = [randomUUID(), randomUUID(), Date.now()];
  const hash = createHash("sha256");
  await withDatabase(database, async (db) => {
    await db.run("begin");
    await db.run(
      "insert into blobs (id, size, sha256, chunk_count, complete, created_at) values (?, ?, null, ?, 1, ?)",
      [blobId, document.size, chunks.count, at],
    );
    for (let index = 0; index < chunks.count; index += 1) {
      const data = chunks.chunk(index);
      hash.update(data);
      await db.run("insert into blob_chunks (blob_id, chunk_index, data) values (?, ?, ?)", [blobId, index, data]);
    }
    const sha256 = hash.digest("hex");
    await db.run("update blobs set sha256 = ? where id = ?", [sha256, blobId]);
    const [{ position }] = await db.all("select coalesce(max(position), 0) + 1 as position from documents");
    await db.run(
      "insert into documents (id, title, description, kind, position, audience, published, created_by, created_at, updated_at) " +
        "values (?, ?, '', ?, ?, 'signed', 1, null, ?, ?)",
      [id, document.title, document.kind, Number(position), at, at],
    );
    await db.run(
      "insert into document_versions (id, document_id, number, file_name, content_type, size, sha256, blob_id, " +
        "captions_blob_id, uploaded_by, created_at) values (?, ?, 1, ?, ?, ?, ?, ?, null, null, ?)",
      [randomUUID(), id, document.fileName, document.contentType, document.size, sha256, blobId, at],
    );
    await db.run("commit");
  });
  return { id, size: document.size };
}

/** A PDF document whose file is `bytes`. */
export function seedPdfDocument(database: BenchDatabase, title: string, bytes: Buffer) {
  return seedDocument(
    database,
    { title, kind: "pdf", fileName: `${title}.pdf`, contentType: "application/pdf", size: bytes.byteLength },
    {
      count: Math.ceil(bytes.byteLength / BLOB_CHUNK_BYTES),
      chunk: (index) => bytes.subarray(index * BLOB_CHUNK_BYTES, (index + 1) * BLOB_CHUNK_BYTES),
    },
  );
}

/**
 * A video document of `mebibytes` MiB: an MP4's first box (`ftyp`), then one MiB of noise repeated, so
 * only a chunk is ever in memory. The route serves bytes and reads no more of them.
 */
export function seedLargeVideo(database: BenchDatabase, mebibytes = 500) {
  const noise = randomBytes(BLOB_CHUNK_BYTES);
  const first = Buffer.from(noise);
  first.writeUInt32BE(24, 0);
  first.write("ftypisom", 4, "latin1");
  return seedDocument(
    database,
    { title: "Bench video", kind: "video", fileName: "bench.mp4", contentType: "video/mp4", size: mebibytes * MIB },
    { count: mebibytes, chunk: (index) => (index === 0 ? first : noise) },
  );
}
