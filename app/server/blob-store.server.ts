/**
 * Files kept in the database, in rows of BLOB_CHUNK_BYTES (docs/decisions/0024-files-in-the-database.md):
 * written as they stream in, read back a chunk at a time, so neither an upload nor a byte range ever
 * holds a whole file in memory. A blob is incomplete until its upload passed its checks and a version
 * points at it; a failed upload deletes its own, and housekeeping deletes those a crash or a lost request left behind.
 */
import { createHash, randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import { BLOB_CHUNK_BYTES } from "../../migrations/library.js";
import { now } from "./clock.server";
import { getDb, type Database } from "./db.server";
import { bytesPart } from "./sql-dialect.server";

export { BLOB_CHUNK_BYTES };

/** Why an upload was refused before it was kept. */
export type BlobRefusal = "empty" | "too-large" | "wrong-type";

export class BlobRefused extends Error {
  constructor(readonly reason: BlobRefusal) {
    super(`The file was refused: ${reason}`);
  }
}

export interface StoredBlob {
  id: string;
  size: number;
  sha256: string;
  /** The file's first bytes, for a check of what it is. */
  head: Uint8Array;
}

/** The first read of a range: small, so that a seek's first bytes leave soon. */
const FIRST_READ_BYTES = 64 * 1024;

/** As many first bytes as a type check looks at. */
const HEAD_BYTES = 64;

/**
 * How long a request may take to arrive whole (server.js sets it as the server's requestTimeout): an upload
 * still streaming then is cut off, so no upload is under way for longer.
 */
export const REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Streams `source` into a new, incomplete blob, a chunk per row, hashing as it goes. `limitFor` judges
 * the first bytes as soon as they are in: the most bytes a file that starts so may have, or null for
 * one that is not what it claims, refused before more of it is stored. Any failure (a refusal, a
 * client that went away mid-upload) deletes what was written.
 */
export async function storeBlob(
  source: AsyncIterable<Uint8Array>,
  { limitFor }: { limitFor: (head: Uint8Array) => number | null },
): Promise<StoredBlob> {
  const db = getDb();
  const id = randomUUID();
  await db
    .insertInto("blobs")
    .values({ id, size: 0, sha256: null, chunk_count: 0, complete: 0, created_at: now() })
    .execute();
  try {
    const hash = createHash("sha256");
    // One buffer takes each chunk's bytes in turn: the database copies a row's bytes as it writes them, so
    // a chunk joined afresh each time would only be a mebibyte more for the collector to free.
    const chunk = Buffer.allocUnsafe(BLOB_CHUNK_BYTES);
    let filled = 0;
    let size = 0;
    let chunkCount = 0;
    let head: Uint8Array | null = null;
    // Until the first bytes say what the file is, it may be as large as the largest kind.
    let maxBytes = Number.MAX_SAFE_INTEGER;
    const judge = (first: Uint8Array) => {
      const limit = limitFor(first);
      if (limit === null) throw new BlobRefused("wrong-type");
      maxBytes = limit;
      if (size > maxBytes) throw new BlobRefused("too-large");
      return first;
    };
    const flush = async (bytes: Buffer) => {
      await db.insertInto("blob_chunks").values({ blob_id: id, chunk_index: chunkCount, data: bytes }).execute();
      chunkCount += 1;
    };
    for await (const piece of source) {
      size += piece.byteLength;
      hash.update(piece);
      for (let offset = 0; offset < piece.byteLength;) {
        const taken = Math.min(piece.byteLength - offset, BLOB_CHUNK_BYTES - filled);
        chunk.set(piece.subarray(offset, offset + taken), filled);
        filled += taken;
        offset += taken;
        // The first chunk holds the file's first bytes: they are judged before any of it is written.
        if (!head && filled >= HEAD_BYTES) head = judge(Buffer.from(chunk.subarray(0, HEAD_BYTES)));
        if (filled === BLOB_CHUNK_BYTES) {
          await flush(chunk);
          filled = 0;
        }
      }
      if (size > maxBytes) throw new BlobRefused("too-large");
    }
    if (size === 0) throw new BlobRefused("empty");
    head ??= judge(Buffer.from(chunk.subarray(0, filled)));
    if (filled > 0) await flush(chunk.subarray(0, filled));
    const sha256 = hash.digest("hex");
    await db.updateTable("blobs").set({ size, sha256, chunk_count: chunkCount }).where("id", "=", id).execute();
    return { id, size, sha256, head };
  } catch (error) {
    await deleteBlob(id);
    throw error;
  }
}

/** Marks a stored blob as kept: from now on only its document's deletion removes it. */
export async function completeBlob(db: Kysely<Database> | Transaction<Database>, id: string) {
  await db.updateTable("blobs").set({ complete: 1 }).where("id", "=", id).execute();
}

/** Deletes a blob and its chunks. */
export async function deleteBlob(id: string) {
  const db = getDb();
  await db.deleteFrom("blob_chunks").where("blob_id", "=", id).execute();
  await db.deleteFrom("blobs").where("id", "=", id).execute();
}

/**
 * The blob's bytes `start` to `end` (inclusive), read as the reader asks for them, in windows that start at
 * 64 KiB and grow fourfold up to a chunk, each ending at a chunk's edge where it can. A read is one query for the
 * parts its window covers (of one row, or two when the first window crosses an edge; cut smaller where
 * `bytesPart.largest` says), each giving only bytes the range needs, so a read never carries bytes it does not send.
 *
 * Why the windows grow: a player that seeks waits for the first bytes, and a player seeking again drops the
 * request after them, before the server hears it went away; what was read ahead by then is garbage, and
 * garbage is what makes the collector stop the server. Why they end at an edge: a window that ends mid-chunk
 * makes the next one span two rows, and SQLite reads each row's blob whole.
 */
export function readBlobRange(
  id: string,
  start: number,
  end: number,
  { signal, untilWritable }: { signal?: AbortSignal; untilWritable?: () => Promise<boolean> } = {},
): ReadableStream<Uint8Array> {
  let position = start;
  let window = FIRST_READ_BYTES;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A client that reads slowly is not sent faster than it takes; one that went away is sent nothing more.
        const writable = untilWritable ? await untilWritable() : true;
        if (position > end || !writable || signal?.aborted) return controller.close();
        const size = position === start ? window : Math.min(window, BLOB_CHUNK_BYTES - (position % BLOB_CHUNK_BYTES));
        window = Math.min(4 * window, BLOB_CHUNK_BYTES);
        const last = Math.min(end, position + size - 1);
        const parts = partsOf(position, last);
        const { rows } = await sql<{ part: Uint8Array | string }>`
          select ${bytesPart.select("c.data", sql`p.column2`, sql`p.column3`)} as part
          from (values ${sql.join(parts.map((part) => sql`(${integer(part.chunk)}, ${integer(part.from)}, ${integer(part.length)})`))}) as p
          join blob_chunks c on c.blob_id = ${id} and c.chunk_index = p.column1
          order by p.column1, p.column2`.execute(getDb());
        const read = rows.map((row) => bytesPart.read(row.part));
        if (read.reduce((sum, bytes) => sum + bytes.byteLength, 0) !== last - position + 1)
          return controller.error(new Error(`Blob ${id} is missing bytes ${position}-${last}`));
        position = last + 1;
        // Each part is sent as it came: joined, it would be one more copy of the window.
        for (const bytes of read) controller.enqueue(bytes);
      },
    },
    // Nothing is read ahead of the reader: each read asks first whether the client is still there for it.
    { highWaterMark: 0 },
  );
}

/** A number as an SQL integer: PostgreSQL takes an untyped parameter in VALUES for text. */
const integer = (n: number) => sql<number>`cast(${n} as integer)`;

/** The parts a read of bytes `position` to `last` asks for: its bytes in each chunk row, at most bytesPart.largest() a part. */
function partsOf(position: number, last: number) {
  const parts: { chunk: number; from: number; length: number }[] = [];
  for (let at = position; at <= last;) {
    const chunk = Math.floor(at / BLOB_CHUNK_BYTES);
    const offset = at - chunk * BLOB_CHUNK_BYTES;
    const length = Math.min(BLOB_CHUNK_BYTES - offset, last - at + 1, bytesPart.largest());
    // substr counts from 1.
    parts.push({ chunk, from: offset + 1, length });
    at += length;
  }
  return parts;
}

/** The whole blob in memory: for the files that must be whole to be worked on (a PDF to stamp). */
export async function readWholeBlob(id: string): Promise<Buffer> {
  const chunks = await getDb()
    .selectFrom("blob_chunks")
    .select("data")
    .where("blob_id", "=", id)
    .orderBy("chunk_index")
    .execute();
  return Buffer.concat(chunks.map((chunk) => chunk.data));
}

/** Deletes the incomplete blobs started more than `olderThanMs` ago (no upload lasts as long); returns how many. */
export async function pruneAbandonedBlobs(olderThanMs: number): Promise<number> {
  const db = getDb();
  const abandoned = await db
    .selectFrom("blobs")
    .select("id")
    .where("complete", "=", 0)
    .where("created_at", "<", now() - olderThanMs)
    .execute();
  for (const { id } of abandoned) await deleteBlob(id);
  return abandoned.length;
}

/** Stores a file made in memory (a rendered or sealed PDF) as a new, incomplete blob. */
export function storeMadeBlob(bytes: Uint8Array): Promise<StoredBlob> {
  return storeBlob(
    (async function* () {
      yield bytes;
    })(),
    { limitFor: () => Number.MAX_SAFE_INTEGER },
  );
}
