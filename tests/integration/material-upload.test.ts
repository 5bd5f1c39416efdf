/**
 * A materials upload as the server reads it: the file judged by its bytes and checked whole before it is
 * kept, and every refusal leaving no blob behind.
 */
import { readFileSync } from "node:fs";
import { materialsMessages } from "~/content/materials";
import { readMaterialUpload } from "~/http/material-upload.server";
import { PDF_STAMP_LIMITS } from "~/lib/material-limits";
import { PdfStampCheck, runningStampChecks } from "~/models/library/pdf-stamp-check.server";
import { getDb } from "~/server/db.server";
import { deflateBombPdf, manyPagesPdf } from "../support/hostile-pdfs";
import { useIntegration } from "../support/integration";

useIntegration();

const pdf = readFileSync("private/download.pdf");
const video = readFileSync("private/investorvideo.mp4");

type Part = string | { bytes: Uint8Array; name: string; type?: string };

function uploadRequest(parts: Record<string, Part> | [string, Part][]) {
  const form = new FormData();
  for (const [name, value] of Array.isArray(parts) ? parts : Object.entries(parts))
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
  return (await check.verdict())?.verdict === "stampable";
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
  const outlasted = new PdfStampCheck(1);
  for await (const piece of pieces()) await outlasted.feed(piece);
  expect(await outlasted.verdict()).toEqual({ verdict: "too-slow", stampMs: 1 });
});

describe("a part sent twice", () => {
  /**
   * The request's body handed over in 16 KiB pieces, the stamping checks running at each read noted: a
   * second part is read only after the first was, so a check started for the first is seen.
   */
  async function watchedRequest(parts: [string, Part][]) {
    const whole = uploadRequest(parts);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const seen = new Set<number>();
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        for (const pid of runningStampChecks()) seen.add(pid);
        if (at >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.slice(at, (at += 16 * 1024)));
      },
    });
    const request = new Request("http://localhost/upload", {
      method: "POST",
      headers: { "Content-Type": whole.headers.get("Content-Type")! },
      body,
      duplex: "half",
    } as RequestInit);
    return { request, seen };
  }

  const stillRunning = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it("refuses a second file the moment it is announced: 400, nothing stored, the first's check process ended", async () => {
    const before = await blobCount();
    // Large enough to be read in many pieces, so the first's check is seen running while the rest comes.
    const padded = Buffer.concat([pdf, Buffer.from(`%${"x".repeat(256 * 1024)}\n`)]);
    const { request, seen } = await watchedRequest([
      ["title", "Two decks"],
      ["file", { bytes: padded, name: "first.pdf" }],
      ["file", { bytes: padded, name: "second.pdf" }],
    ]);
    expect(await readMaterialUpload(request)).toEqual({
      ok: false,
      status: 400,
      message: materialsMessages.oneFileOnly,
    });
    expect(await blobCount()).toBe(before);
    // The first PDF's check had started; it has exited, and no other is left.
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter(stillRunning)).toEqual([]);
    expect(runningStampChecks()).toEqual([]);
  });

  it("refuses a second captions file: 400, neither the video nor any captions stored", async () => {
    const before = await blobCount();
    const captions = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n");
    const { request } = await watchedRequest([
      ["file", { bytes: video, name: "intro.mp4" }],
      ["captions", { bytes: captions, name: "one.vtt" }],
      ["captions", { bytes: captions, name: "two.vtt" }],
    ]);
    expect(await readMaterialUpload(request)).toEqual({
      ok: false,
      status: 400,
      message: materialsMessages.oneCaptionsFileOnly,
    });
    expect(await blobCount()).toBe(before);
  });

  it("leaves no check process running after a PDF it kept", async () => {
    const reply = await readMaterialUpload(uploadRequest({ file: { bytes: pdf, name: "deck.pdf" } }));
    expect(reply).toMatchObject({ ok: true, upload: { kind: "pdf" } });
    expect(runningStampChecks()).toEqual([]);
  });
});

describe("a PDF whose every copy would cost too much", () => {
  it("refuses a PDF of 3000 pages at upload, saying how many it may have, and keeps nothing", async () => {
    const before = await blobCount();
    const reply = await readMaterialUpload(uploadRequest({ file: { bytes: manyPagesPdf(3000), name: "long.pdf" } }));
    expect(reply).toEqual({
      ok: false,
      status: 400,
      message: materialsMessages.tooManyPages(3000, PDF_STAMP_LIMITS.pages),
    });
    expect(await blobCount()).toBe(before);
    expect(runningStampChecks()).toEqual([]);
  });

  it("refuses a deflate bomb, its streams each modest but the document's content past the limit, and keeps nothing", async () => {
    const before = await blobCount();
    const bomb = await deflateBombPdf();
    const reply = await readMaterialUpload(uploadRequest({ file: { bytes: bomb, name: "bomb.pdf" } }));
    expect(reply).toEqual({ ok: false, status: 400, message: materialsMessages.tooMuchContent("32 MB") });
    expect(await blobCount()).toBe(before);
  });

  it("records what one stamp of a PDF it keeps cost: its pages, inflated content and time", async () => {
    const check = new PdfStampCheck();
    await check.feed(pdf);
    expect(await check.verdict()).toEqual({
      verdict: "stampable",
      pages: 1,
      inflatedBytes: expect.any(Number),
      stampMs: expect.any(Number),
    });
  });
});
