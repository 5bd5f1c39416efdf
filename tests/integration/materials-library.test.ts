/**
 * The materials library's store and domain, against a real database file: the first library from the
 * shipped files, chunked storage read back in ranges, the audience, versions, and the reading report.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { toPublicUser } from "~/models/account/user.server";
import { listOpenableDocuments, openableVersion } from "~/models/library/library-access.server";
import { setAudience } from "~/models/library/library-audience.server";
import { addVersion, createDocument, moveDocument, setPublished } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import {
  readersOf,
  readingReport,
  readingsOf,
  recordMaterialsVisit,
  recordOpening,
} from "~/models/library/library-openings.server";
import { looksLikeMp4, looksLikePdf } from "~/models/library/material-file.server";
import {
  BLOB_CHUNK_BYTES,
  type BlobRefused,
  readBlobRange,
  readWholeBlob,
  storeBlob,
} from "~/server/blob-store.server";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { countRows } from "../support/library-rows";

useIntegration();

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
}

/** The stream's pieces as it gives them, calling `afterEach` with each once it is taken. */
async function piecesOf(stream: ReadableStream<Uint8Array>, afterEach = (_piece: Uint8Array): unknown => undefined) {
  const reader = stream.getReader();
  const pieces: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return pieces;
    pieces.push(value);
    afterEach(value);
  }
}

async function text(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

const pdfUpTo = (limit: number) => (head: Uint8Array) => (looksLikePdf(head) ? limit : null);

async function admin() {
  return toPublicUser(await createUser({ role: "administrator" }));
}

it("starts with the specification's library, read from the files shipped in private/", async () => {
  const library = await listLibrary();
  expect(library.map((d) => [d.title, d.kind, d.published, d.audience])).toEqual([
    ["Introductory video", "video", true, "signed"],
    ["Description of the firm", "pdf", true, "signed"],
    ["Slide deck", "pdf", true, "signed"],
    ["Offering details", "pdf", true, "signed"],
  ]);
  const video = readFileSync("private/investorvideo.mp4");
  expect(library[0].latest.size).toBe(video.byteLength);
  expect(library[0].latest.sha256).toBe(createHash("sha256").update(video).digest("hex"));
});

it("stores a file in chunks as it streams in, and reads any range back a chunk at a time", async () => {
  const bytes = Buffer.alloc(2 * BLOB_CHUNK_BYTES + 12345);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
  bytes.write("%PDF-1.7", 0, "latin1");
  const stored = await storeBlob(pieces(bytes, 64 * 1024 + 7), { limitFor: pdfUpTo(10 * BLOB_CHUNK_BYTES) });
  expect(stored.size).toBe(bytes.byteLength);
  expect(stored.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  const chunks = await getDb()
    .selectFrom("blob_chunks")
    .select("chunk_index")
    .where("blob_id", "=", stored.id)
    .execute();
  expect(chunks).toHaveLength(3);
  const from = BLOB_CHUNK_BYTES - 10;
  expect(await text(readBlobRange(stored.id, from, from + 99))).toEqual(bytes.subarray(from, from + 100));
  expect(await text(readBlobRange(stored.id, 0, bytes.length - 1))).toEqual(bytes);
  expect(await readWholeBlob(stored.id)).toEqual(bytes);

  // From the middle of the first chunk: 64 KiB first, then windows that grow fourfold and stop at each chunk's edge.
  // Each window is one read, and each read asks first whether the client is still there: what arrived between
  // two asks is a window (PostgreSQL's comes in parts of at most 64 KiB).
  const middle = 300_000;
  const received: number[] = [];
  let total = 0;
  const asked = async () => (received.push(total), true);
  const read = await piecesOf(
    readBlobRange(stored.id, middle, bytes.length - 1, { untilWritable: asked }),
    (piece) => (total += piece.byteLength),
  );
  expect(Buffer.concat(read)).toEqual(bytes.subarray(middle));
  const sizes = received.slice(1).map((at, i) => at - received[i]);
  const KIB = 1024;
  const toEdge = BLOB_CHUNK_BYTES - middle - (64 + 256) * KIB;
  expect(sizes).toEqual([64 * KIB, 256 * KIB, toEdge, BLOB_CHUNK_BYTES, 12345]);

  // A reader that has gone is sent nothing more: the stream ends at the next read.
  let open = true;
  const untilWritable = async () => open;
  const sent = await piecesOf(readBlobRange(stored.id, 0, bytes.length - 1, { untilWritable }), () => (open = false));
  expect(sent.map((piece) => piece.byteLength)).toEqual([64 * KIB]);
});

it("refuses a file that is not what it claims, an empty one or one over the limit, and leaves no chunk behind", async () => {
  const before = [await countRows("blobs"), await countRows("blob_chunks")];
  const large = Buffer.alloc(3 * BLOB_CHUNK_BYTES, 1);
  large.write("%PDF-1.7", 0, "latin1");
  const attempts = [
    storeBlob(pieces(Buffer.from("GIF89a not a PDF at all, whatever it is called"), 8), { limitFor: pdfUpTo(1000) }),
    storeBlob(pieces(Buffer.alloc(0), 8), { limitFor: pdfUpTo(1000) }),
    storeBlob(pieces(large, 100_000), { limitFor: pdfUpTo(2 * BLOB_CHUNK_BYTES) }),
  ];
  const reasons = await Promise.all(attempts.map((attempt) => attempt.catch((error: BlobRefused) => error.reason)));
  expect(reasons).toEqual(["wrong-type", "empty", "too-large"]);
  async function* cutOff() {
    yield Buffer.from("%PDF-1.7 and then the client went away ......................................");
    throw new Error("aborted");
  }
  await expect(storeBlob(cutOff(), { limitFor: pdfUpTo(1000) })).rejects.toThrow("aborted");
  expect([await countRows("blobs"), await countRows("blob_chunks")]).toEqual(before);
});

it("shows a chosen audience's document to them only, refuses the others with 403, and reports who opened what", async () => {
  const actor = { user: await admin(), ip: "127.0.0.1" };
  const chosen = toPublicUser(await createUser({ signed: true }));
  const other = toPublicUser(await createUser({ signed: true }));
  const video = readFileSync("private/investorvideo.mp4");
  const stored = await storeBlob(pieces(video, 50_000), {
    limitFor: (head) => (looksLikeMp4(head) ? video.byteLength : null),
  });
  const upload = {
    blobId: stored.id,
    fileName: "deal.mp4",
    contentType: "video/mp4",
    size: stored.size,
    sha256: stored.sha256,
  };

  const refused = await createDocument(
    { title: "Deal room", description: "", kind: "video", audience: "chosen", chosenUserIds: [actor.user.id], upload },
    actor,
  );
  expect(refused).toMatchObject({ ok: false, status: 400 });
  const created = await createDocument(
    {
      title: "Deal room",
      description: "For one",
      kind: "video",
      audience: "chosen",
      chosenUserIds: [chosen.id],
      upload,
    },
    actor,
  );
  if (!created.ok) throw new Error(created.message);
  // A draft until published: nobody sees it, the chosen investor included.
  expect((await listOpenableDocuments(chosen, null)).map((d) => d.title)).not.toContain("Deal room");
  expect(await openableVersion(chosen, created.id, null)).toMatchObject({ ok: false, status: 404 });
  await setPublished(created.id, true, actor);

  expect((await listOpenableDocuments(chosen, null)).map((d) => d.title)).toContain("Deal room");
  expect((await listOpenableDocuments(other, null)).map((d) => d.title)).not.toContain("Deal room");
  expect(await openableVersion(other, created.id, null)).toMatchObject({ ok: false, status: 403 });
  const opened = await openableVersion(chosen, created.id, null);
  if (!opened.ok) throw new Error(opened.message);
  await recordOpening(chosen, opened.document, null);
  await recordOpening(chosen, opened.document, null);

  const report = (await readingReport()).find((row) => row.documentId === created.id);
  expect(report).toMatchObject({ readers: 1, opens: 2 });
  expect(await readersOf(created.id)).toMatchObject([{ email: chosen.email, opens: 2 }]);
  expect(await readingsOf(chosen.id)).toMatchObject([{ title: "Deal room", opens: 2 }]);

  await setAudience(created.id, "signed", [], actor);
  expect((await openableVersion(other, created.id, null)).ok).toBe(true);
  await setPublished(created.id, false, actor);
  expect(await openableVersion(other, created.id, null)).toMatchObject({ ok: false, status: 404 });
});

it("keeps every version, serves the latest, and marks documents new or updated since the last visit", async () => {
  const actor = { user: await admin(), ip: null };
  const investor = toPublicUser(await createUser({ signed: true }));
  testClock.freeze(Date.now());
  expect(await recordMaterialsVisit(investor.id)).toBeNull();
  expect((await listOpenableDocuments(investor, null)).every((d) => d.mark === "new")).toBe(true);

  testClock.advance(60_000);
  const [, deck] = (await listLibrary()).filter((d) => d.kind === "pdf");
  const pdf = readFileSync("private/download.pdf");
  const stored = await storeBlob(pieces(pdf, 100), { limitFor: pdfUpTo(pdf.byteLength) });
  const replaced = await addVersion(
    deck.id,
    "pdf",
    {
      blobId: stored.id,
      fileName: "deck-v2.pdf",
      contentType: "application/pdf",
      size: stored.size,
      sha256: stored.sha256,
    },
    actor,
  );
  expect(replaced).toEqual({ ok: true, number: 2 });
  const previous = await recordMaterialsVisit(investor.id);
  const marks = await listOpenableDocuments(investor, previous);
  expect(marks.find((d) => d.id === deck.id)).toMatchObject({
    mark: "updated",
    latest: { number: 2, fileName: "deck-v2.pdf" },
  });
  expect(marks.filter((d) => d.id !== deck.id).map((d) => d.mark)).toEqual([null, null, null]);

  await moveDocument(deck.id, "up", actor);
  expect((await listLibrary()).findIndex((d) => d.id === deck.id)).toBe(1);
});
