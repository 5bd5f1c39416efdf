/**
 * The materials library's figures (issue 31): an administrator's upload of a 20 MiB PDF through the API
 * (its time, and how much the server's resident memory grows meanwhile), an investor's stamped copy of a
 * 50-page PDF, a seek into the middle of a 500 MiB video (its first byte, and a whole 1 MiB range), and a public page while two
 * uploads and two downloads run beside it. The PDF and the video are seeded straight into the database.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../../app/models/account/password.server";
import { config, host } from "./config";
import { seedLargeVideo, seedPdfDocument, textPdf, writeNoisePdf } from "./material-files";
import { dropIdleConnections, getCounted, latency, percentile } from "./measure";
import type { Row } from "./report";
import { ADMIN, addInvestors, withDatabase, type BenchDatabase } from "./seed";
import type { RunningServer } from "./server";
import { apiAccessToken, pageSessionCookie } from "./session";
import { cpuText } from "./verdicts";

const MIB = 1024 * 1024;
const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** An investor whose NDA is signed: the audience every seeded document is published to. */
const READER = { email: "bench-reader@example.com", password: "Bench-reader-password-2026!" };

const STAMPED_TARGET_MS = 200;
const RANGE_REFERENCE_MS = 20;
/** The seek into the middle over the seek at the start. */
const SEEK_GROWTH_LIMIT = 1.5;
const LOADED_PAGE_TARGET_MS = 200;
const UPLOADERS = 2;
const DOWNLOADERS = 2;
/** How often the server's resident memory is read during an upload. */
const RSS_SAMPLE_MS = 20;

type MaterialsRun = { server: RunningServer; database: BenchDatabase; rows: Row[] };

/** The server's resident memory now (VmRSS), in bytes. */
function currentRss(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

type Sent = { status: number; ms: number };

/**
 * POST /api/materials as the API's multipart contract has it (title, description, audience, file), the
 * file streamed from disk on a connection of its own, so uploads run beside other requests.
 */
async function upload(file: string, accessToken: string): Promise<Sent> {
  const boundary = `bench-${randomUUID()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field("title", `Bench upload ${randomUUID().slice(0, 8)}`) +
      field("description", "Measured by npm run bench.") +
      field("audience", "signed") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host,
        port: config.port,
        path: "/api/materials",
        method: "POST",
        agent: false,
        headers: {
          Authorization: `Bearer ${accessToken}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.byteLength + fs.statSync(file).size + tail.byteLength,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on("error", reject);
    stream.on("end", () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** A GET on a connection of its own (the download beside the measured page), its body read and dropped. */
function getAlone(pathname: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host, port: config.port, path: pathname, headers, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** One upload: its answer's status, its time, and how far the server's resident memory rose above where it stood just before. */
export async function measuredUpload(server: RunningServer, file: string, accessToken: string) {
  const before = currentRss(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, currentRss(server.pid))), RSS_SAMPLE_MS);
  const sent = await upload(file, accessToken).finally(() => clearInterval(sampler));
  peak = Math.max(peak, currentRss(server.pid));
  return { status: sent.status, ms: sent.ms, before, peak, growth: peak - before };
}

/** One upload that must be kept (201). */
async function keptUpload(server: RunningServer, file: string, accessToken: string) {
  const sent = await measuredUpload(server, file, accessToken);
  if (sent.status !== 201) throw new Error(`POST /api/materials answered ${sent.status}.`);
  return sent;
}

/**
 * The 20 MiB upload, twice. A process's first large upload raises its memory by a fixed amount (the young
 * generation and the allocator grow to their working size: about 65 MiB for a 20 MiB file and for a 48 MiB one
 * alike), which no later upload repeats; the second shows whether memory grows with the file, the first is shown.
 */
async function uploadFigure(server: RunningServer, file: string, accessToken: string): Promise<Row> {
  const size = fs.statSync(file).size;
  const first = await keptUpload(server, file, accessToken);
  const second = await keptUpload(server, file, accessToken);
  return {
    figure: `upload of a ${fmt(size / MIB)} MiB PDF (API)`,
    value:
      `${fmt(second.ms, 0)} ms; server RSS +${fmt(second.growth / MIB)} MiB ` +
      `(${fmt(second.before / MIB, 0)} → ${fmt(second.peak / MIB, 0)}; the process's first: ${fmt(first.ms, 0)} ms, ` +
      `+${fmt(first.growth / MIB)} MiB)`,
    target: `RSS growth < the file (${fmt(size / MIB)} MiB)`,
    pass: second.growth < size,
  };
}

/**
 * A seek into the middle of the video as a browser's player makes it (`Range: bytes=<middle>-`, open-ended):
 * the p95 of its first byte, the wait a viewer sees, is the row's figure. It is judged against the same seek at
 * the video's start, taken in turns with it: a range is read by its chunks' keys, so the middle of 500 MiB may
 * cost no more than its first bytes (at most 1.5×), on any machine. The old 20 ms is a quiet machine's
 * reference. Beside it, a whole 1 MiB range read to its last byte, each a 206 of exactly the bytes asked for.
 */
async function rangeFigure(videoId: string, videoSize: number, cookie: string): Promise<Row> {
  const path = `/financing/materials/${videoId}/file`;
  // Both seeks land as far into a chunk, so both read their first window alike.
  const intoChunk = 4096;
  const start = Math.floor(videoSize / 2) + intoChunk;
  const wholeRange = async () => {
    const answer = await getCounted(path, { Cookie: cookie, Range: `bytes=${start}-${start + MIB - 1}` });
    if (answer.status !== 206 || answer.bytes !== MIB)
      throw new Error(`The range answered ${answer.status} with ${answer.bytes} bytes, not 206 with ${MIB}.`);
    return answer.ms;
  };
  const seekTo = (offset: number) => () => firstByte(path, { Cookie: cookie, Range: `bytes=${offset}-` });
  const [seek, seekAtStart] = [seekTo(start), seekTo(intoChunk)];
  for (let i = 0; i < 5; i += 1) await Promise.all([seek(), seekAtStart(), wholeRange()]);
  const seeks: number[] = [];
  const starts: number[] = [];
  const wholes: number[] = [];
  for (let i = 0; i < config.samples; i += 1) {
    seeks.push(await seek());
    starts.push(await seekAtStart());
    wholes.push(await wholeRange());
  }
  const p95 = percentile(seeks, 0.95);
  const atStart = percentile(starts, 0.95);
  return {
    figure: `video seek to the middle of ${fmt(videoSize / MIB, 0)} MiB: first byte`,
    value: `${fmt(p95 / atStart, 2)}× (p95 ${fmt(p95)} ms, median ${fmt(percentile(seeks, 0.5))}; at the start p95 ${fmt(atStart)} ms)`,
    target: `≤ ${SEEK_GROWTH_LIMIT}× the seek at the start`,
    floor: "the same seek at the video's start, in turns",
    absolute: `quiet 2-core reference ≤ ${RANGE_REFERENCE_MS} ms; a whole 1 MiB range p95 ${fmt(percentile(wholes, 0.95))} ms`,
    pass: p95 <= SEEK_GROWTH_LIMIT * atStart,
  };
}

/** The time from sending a GET to its first byte of body, which must come in a 206; the rest is not read. */
function firstByte(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host, port: config.port, path, headers, agent: false }, (res) => {
      if (res.statusCode !== 206) {
        res.resume();
        return reject(new Error(`The seek answered ${res.statusCode}, not 206.`));
      }
      res.once("data", () => {
        resolve(Number(process.hrtime.bigint() - started) / 1e6);
        req.destroy();
      });
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** A public page alone, then while uploads and stamped downloads run back to back beside it. */
async function loadedPageFigure(file: string, accessToken: string, deckId: string, cookie: string): Promise<Row> {
  const alone = await latency("/faq", {});
  let running = true;
  const failures: string[] = [];
  const loop = async (work: () => Promise<boolean>) => {
    while (running) if (!(await work())) return;
  };
  const workers = [
    ...Array.from({ length: UPLOADERS }, () =>
      loop(async () => {
        const sent = await upload(file, accessToken);
        if (sent.status !== 201) failures.push(`upload ${sent.status}`);
        return sent.status === 201;
      }),
    ),
    ...Array.from({ length: DOWNLOADERS }, () =>
      loop(async () => {
        const status = await getAlone(`/financing/materials/${deckId}`, { Cookie: cookie });
        if (status !== 200) failures.push(`download ${status}`);
        return status === 200;
      }),
    ),
  ];
  const beside = await latency("/faq", {}).finally(() => (running = false));
  await Promise.all(workers);
  if (failures.length > 0) throw new Error(`Beside the page: ${failures.join(", ")}.`);
  return {
    figure: `public page while ${UPLOADERS} uploads and ${DOWNLOADERS} stamped downloads run`,
    value: `server p95 ${fmt(beside.server.p95)} ms (alone ${fmt(alone.server.p95)})`,
    target: `≤ ${LOADED_PAGE_TARGET_MS} ms`,
    absolute: `client p95 ${fmt(beside.p95)} ms (alone ${fmt(alone.p95)})`,
    cpu: cpuText(beside),
    load: beside.loadAtStart,
    pass: beside.server.p95 <= LOADED_PAGE_TARGET_MS,
  };
}

/** A figure that could not be taken (a route that answers otherwise) is a failing row that says why. */
async function figureOr(name: string, target: string, take: () => Promise<Row>): Promise<Row> {
  try {
    return await take();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { figure: name, value: `not measured: ${reason}`, target, pass: false };
  }
}

export async function materials(run: MaterialsRun) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-materials-"));
  try {
    const file = path.join(temp, "upload.pdf");
    await writeNoisePdf(file);
    await addInvestors(run.database, [
      { email: READER.email, fullName: "Bench Reader", hash: await hashPassword(READER.password), n: 1, nda: 2 },
    ]);
    const deck = await seedPdfDocument(run.database, "Bench memorandum", await textPdf(50));
    const video = await seedLargeVideo(run.database);
    // The 500 MiB just written is settled now (PostgreSQL's autovacuum of the new rows, and the checkpoint that
    // flushes them), not in the middle of the timed rows: they measure a library at rest, not its seeding.
    await withDatabase(run.database, async (db) => {
      if (typeof run.database === "string") await db.all("pragma wal_checkpoint(truncate)");
      else {
        await db.run("vacuum (analyze) blob_chunks");
        await db.run("checkpoint");
      }
    });
    dropIdleConnections();
    const cookie = await pageSessionCookie(READER);
    const accessToken = await apiAccessToken(ADMIN);

    run.rows.push(
      await figureOr("upload of a 20 MiB PDF (API)", "RSS growth < the file", () =>
        uploadFigure(run.server, file, accessToken),
      ),
    );
    run.rows.push(
      await figureOr("stamped download, 50-page PDF", `≤ ${STAMPED_TARGET_MS} ms`, async () => {
        const timing = await latency(`/financing/materials/${deck.id}`, { Cookie: cookie });
        return {
          figure: "stamped download, 50-page PDF",
          value: `server p95 ${fmt(timing.server.p95)} ms`,
          target: `≤ ${STAMPED_TARGET_MS} ms`,
          absolute: `client p95 ${fmt(timing.p95)} ms (median ${fmt(timing.p50)})`,
          cpu: cpuText(timing),
          load: timing.loadAtStart,
          pass: timing.server.p95 <= STAMPED_TARGET_MS,
        };
      }),
    );
    run.rows.push(
      await figureOr(
        "video seek to the middle of 500 MiB: first byte",
        `≤ ${SEEK_GROWTH_LIMIT}× the seek at the start`,
        () => rangeFigure(video.id, video.size, cookie),
      ),
    );
    run.rows.push(
      await figureOr("public page while uploads and downloads run", `≤ ${LOADED_PAGE_TARGET_MS} ms`, () =>
        loadedPageFigure(file, accessToken, deck.id, cookie),
      ),
    );
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
