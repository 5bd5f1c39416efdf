/**
 * A materials upload as the server reads it: the file judged by its bytes and checked whole before it is
 * kept, and every refusal leaving no blob behind.
 */
import { readFileSync } from "node:fs";
import { materialsMessages } from "~/content/materials";
import { readMaterialUpload } from "~/http/material-upload.server";
import { PdfStampCheck } from "~/models/material-file.server";
import { getDb } from "~/server/db.server";
import { useFreshDatabase } from "../support/test-database";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;
beforeAll(async () => {
  database = await useFreshDatabase();
});
afterAll(() => database.cleanup());

const pdf = readFileSync("private/download.pdf");
const video = readFileSync("private/investorvideo.mp4");

function uploadRequest(parts: Record<string, string | { bytes: Uint8Array; name: string; type?: string }>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    if (typeof value === "string") form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.bytes)], { type: value.type ?? "application/octet-stream" }),
        value.name,
      );
  return new Request("http://localhost/upload", { method: "POST", body: form });
}

/** Whether the bytes of `source` are a PDF that takes a stamp, checked as an upload checks them. */
async function pdfIsStampable(source: AsyncIterable<Uint8Array>, { timeoutMs }: { timeoutMs?: number } = {}) {
  const check = new PdfStampCheck(timeoutMs);
  for await (const piece of source) await check.feed(piece);
  return (await check.verdict()) === true;
}

const blobCount = async () =>
  Number(
    (
      await getDb()
        .selectFrom("blobs")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("complete", "=", 0)
        .executeTakeFirstOrThrow()
    ).n,
  );

it("keeps a PDF and a video with its captions, whatever their names say, with their size and hash", async () => {
  const asPdf = await readMaterialUpload(
    uploadRequest({ title: "Deck", file: { bytes: pdf, name: "deck.mp4", type: "video/mp4" } }),
  );
  expect(asPdf).toMatchObject({
    ok: true,
    upload: { kind: "pdf", fileName: "deck.mp4", contentType: "application/pdf", size: pdf.byteLength },
  });
  if (!asPdf.ok) return;
  expect(asPdf.formData.get("title")).toBe("Deck");
  const captions = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n");
  const asVideo = await readMaterialUpload(
    uploadRequest({ file: { bytes: video, name: "intro.mp4" }, captions: { bytes: captions, name: "intro.vtt" } }),
  );
  expect(asVideo).toMatchObject({ ok: true, upload: { kind: "video", size: video.byteLength } });
  if (asVideo.ok) expect(asVideo.upload?.captionsBlobId).toEqual(expect.any(String));
});

it("takes a form whose file input was left empty as one without a file", async () => {
  const reply = await readMaterialUpload(
    uploadRequest({ title: "Only a title", file: { bytes: new Uint8Array(0), name: "" } }),
  );
  expect(reply).toMatchObject({ ok: true, upload: null });
});

it.each([
  [
    "a GIF named .pdf",
    { file: { bytes: Buffer.from("GIF89a" + "x".repeat(100)), name: "deck.pdf", type: "application/pdf" } },
    415,
    materialsMessages.wrongType,
  ],
  ["an empty file", { file: { bytes: new Uint8Array(0), name: "deck.pdf" } }, 400, materialsMessages.emptyFile],
  [
    "a PDF that does not parse",
    { file: { bytes: Buffer.from("%PDF-1.7\n" + "not a pdf ".repeat(50)), name: "deck.pdf" } },
    400,
    materialsMessages.notStampable,
  ],
  [
    "a video cut off mid-way",
    { file: { bytes: video.subarray(0, video.byteLength - 1000), name: "intro.mp4" } },
    400,
    materialsMessages.videoIncomplete,
  ],
  [
    "captions that are not WebVTT",
    {
      file: { bytes: video, name: "intro.mp4" },
      captions: { bytes: Buffer.from("1\n00:00:00,000 --> 00:00:02,000\nHi\n"), name: "intro.srt" },
    },
    415,
    materialsMessages.captionsWrongType,
  ],
  [
    "captions with a PDF",
    { file: { bytes: pdf, name: "deck.pdf" }, captions: { bytes: Buffer.from("WEBVTT\n"), name: "x.vtt" } },
    400,
    materialsMessages.captionsOnlyForVideo,
  ],
])("refuses %s, leaving nothing stored", async (_name, parts, status, message) => {
  const before = await blobCount();
  expect(await readMaterialUpload(uploadRequest(parts))).toEqual({ ok: false, status, message });
  expect(await blobCount()).toBe(before);
});

it("refuses a body that is not multipart, and one cut off before its end", async () => {
  const urlencoded = new Request("http://localhost/upload", {
    method: "POST",
    body: new URLSearchParams({ title: "x" }),
  });
  expect(await readMaterialUpload(urlencoded)).toMatchObject({ ok: false, status: 415 });
  const whole = uploadRequest({ file: { bytes: video, name: "intro.mp4" } });
  const bytes = Buffer.from(await whole.arrayBuffer());
  const before = await blobCount();
  const cut = new Request("http://localhost/upload", {
    method: "POST",
    headers: { "Content-Type": whole.headers.get("Content-Type")! },
    body: bytes.subarray(0, bytes.byteLength - 5000),
  });
  expect(await readMaterialUpload(cut)).toMatchObject({ ok: false, status: 400 });
  expect(await blobCount()).toBe(before);
});

it("refuses a text field over 64 KiB (413) even after the file, leaving nothing stored", async () => {
  const before = await blobCount();
  const reply = await readMaterialUpload(
    uploadRequest({ file: { bytes: pdf, name: "deck.pdf" }, description: "x".repeat(64 * 1024 + 1) }),
  );
  expect(reply).toEqual({ ok: false, status: 413, message: materialsMessages.fieldTooLarge });
  expect(await blobCount()).toBe(before);
});

it("refuses a multipart body without its boundary, and keeps a file sent in another part as a form would", async () => {
  const noBoundary = new Request("http://localhost/upload", {
    method: "POST",
    headers: { "Content-Type": "multipart/form-data" },
    body: "--x\r\n",
  });
  expect(await readMaterialUpload(noBoundary)).toMatchObject({ ok: false, status: 400 });
  const reply = await readMaterialUpload(uploadRequest({ title: { bytes: Buffer.from("Deck"), name: "title.txt" } }));
  expect(reply).toMatchObject({ ok: true, upload: null });
  if (reply.ok) expect(await (reply.formData.get("title") as File).text()).toBe("Deck");
});

test("the stamping check's time starts once the last byte is in: a slow upload is not a slow check", async () => {
  const slowly = async function* () {
    for (let at = 0; at < pdf.byteLength; at += Math.ceil(pdf.byteLength / 3)) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      yield pdf.subarray(at, at + Math.ceil(pdf.byteLength / 3));
    }
  };
  expect(await pdfIsStampable(slowly(), { timeoutMs: 1500 })).toBe(true);
});

test("the stamping check that outlasts its time is killed, and the PDF it was checking is refused", async () => {
  const pieces = async function* () {
    for (let at = 0; at < pdf.byteLength; at += 64 * 1024) yield pdf.subarray(at, at + 64 * 1024);
  };
  expect(await pdfIsStampable(pieces())).toBe(true);
  // A check process cannot even start in a millisecond: it is killed, as a PDF built to take forever would be.
  expect(await pdfIsStampable(pieces(), { timeoutMs: 1 })).toBe(false);
});
