/**
 * Stamped copies shared fairly (decision 0027): a reader's one-page PDF (the shipped /pdfs/download.pdf) alone,
 * and while another reader fires bursts of 20 copies of a 50-page PDF at once, each burst sent again as soon as
 * its last answer is in, in alternating slices. The second reader's p95 must stay within 3× its time alone, and neither reader may get
 * a 503; the bursting reader's copies beyond their share are refused with 429.
 */
import os from "node:os";
import { Worker } from "node:worker_threads";
import { hashPassword } from "../../app/models/account/password.server";
import { config, host } from "./config";
import { textPdf, seedPdfDocument } from "./material-files";
import { getCounted, percentile, warmUp } from "./measure";
import type { Row } from "./report";
import { addInvestors, type BenchDatabase } from "./seed";
import { pageSessionCookie } from "./session";

const fmt = (value: number, digits = 1) => value.toFixed(digits);

const BURST = 20;
const QUIET = { email: "bench-quiet-reader@example.com", password: "Bench-quiet-reader-password-2026!" };
const BURSTING = { email: "bench-bursting-reader@example.com", password: "Bench-bursting-reader-password-2026!" };
const ONE_PAGE = "/pdfs/download.pdf";
/** Slices of the one-page reader's copies alone, each followed by one beside the bursts. */
const SLICES = 6;
/**
 * Copies on each side: twice a table row's samples. A burst holds the server up for a moment about once a
 * second, so whether a copy meets one is chance; the p95 of 60 (its third slowest) moved by half from run to run.
 */
const SAMPLES = 2 * config.samples;

type ShareRun = { database: BenchDatabase; rows: Row[] };
type Timed = { ms: number; serverMs: number; databaseMs: number };

/**
 * The bursting reader is another client: its bursts run on a thread of their own, each burst's 20 GETs on
 * connections of their own, as a browser's parallel requests are, and again as soon as the last is answered,
 * until told to stop. On the measuring reader's own event loop, twenty connections and three 50-page copies
 * a burst delayed that reader's timings by the client's work, not the server's.
 */
const BURSTER = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const { host, port, path, cookie, burst } = workerData;
let running = true;
parentPort.on("message", () => { running = false; });
const statusOf = () => new Promise((resolve, reject) => {
  http.get({ host, port, path, headers: { Cookie: cookie }, agent: false }, (res) => {
    res.resume();
    res.on("end", () => resolve(res.statusCode ?? 0));
    res.on("error", reject);
  }).on("error", reject);
});
(async () => {
  const statuses = {};
  let bursts = 0;
  while (running) {
    const answers = await Promise.all(Array.from({ length: burst }, statusOf));
    for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    bursts += 1;
  }
  parentPort.postMessage({ statuses, bursts });
})();
`;

type BurstTally = { statuses: Record<string, number>; bursts: number };

/** Bursts fired from a thread of their own until `stop` is called; then their answers' tally. */
function burstsFrom(pathname: string, cookie: string) {
  const worker = new Worker(BURSTER, {
    eval: true,
    workerData: { host, port: config.port, path: pathname, cookie, burst: BURST },
  });
  const tally = new Promise<BurstTally>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return async () => {
    worker.postMessage("stop");
    const result = await tally;
    await worker.terminate();
    return result;
  };
}

export async function stampingShare(run: ShareRun) {
  const hash = await hashPassword(QUIET.password);
  await addInvestors(run.database, [
    { email: QUIET.email, fullName: "Bench Quiet Reader", hash, n: 1, nda: 2 },
    {
      email: BURSTING.email,
      fullName: "Bench Bursting Reader",
      hash: await hashPassword(BURSTING.password),
      n: 2,
      nda: 2,
    },
  ]);
  const long = await seedPdfDocument(run.database, "Bench burst memorandum", await textPdf(50));
  const quiet = await pageSessionCookie(QUIET);
  const bursting = await pageSessionCookie(BURSTING);
  const loadAtStart = os.loadavg()[0];
  const figure = `one-page PDF while another reader's bursts of ${BURST} copies of a 50-page PDF run`;

  // Both stamping threads started and warm, as they are on a server in use.
  await Promise.all([
    warmUp(`/financing/materials/${long.id}`, { Cookie: bursting }, 3),
    warmUp(ONE_PAGE, { Cookie: quiet }, 3),
  ]);
  const statuses = new Map<number, number>();
  let bursts = 0;
  const alone: Timed[] = [];
  const times: Timed[] = [];
  const failures: number[] = [];
  const oneCopy = async (into: Timed[]) => {
    const answer = await getCounted(ONE_PAGE, { Cookie: quiet });
    if (answer.status === 200) into.push(answer);
    else failures.push(answer.status);
  };
  // Alone and beside the bursts in alternating slices, so that a machine busier for a while weighs on both.
  const perSlice = Math.ceil(SAMPLES / SLICES);
  for (let slice = 0; slice < SLICES; slice += 1) {
    for (let i = 0; i < perSlice; i += 1) await oneCopy(alone);
    const stop = burstsFrom(`/financing/materials/${long.id}`, bursting);
    try {
      for (let i = 0; i < perSlice; i += 1) await oneCopy(times);
    } finally {
      const tally = await stop();
      for (const [status, count] of Object.entries(tally.statuses))
        statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + count);
      bursts += tally.bursts;
    }
  }
  // Judged by the server's own time for the one-page copy (Server-Timing: from its arrival to its answer, the
  // copy stamped whole before it): the client's, on a machine whose two cores also run the bursts' client and
  // their stamping, measured the client's turn for a core as much as the server.
  const p95Of = (answers: Timed[], which: "ms" | "serverMs" | "databaseMs") =>
    percentile(
      answers.map((answer) => answer[which]),
      0.95,
    );
  const p95 = p95Of(times, "serverMs");
  const aloneP95 = p95Of(alone, "serverMs");
  const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`);
  const unavailable = statuses.get(503) ?? 0;
  run.rows.push({
    figure,
    value:
      `server p95 ${fmt(p95)} ms (alone ${fmt(aloneP95)}, ${fmt(p95 / aloneP95, 2)}×); the bursts (${bursts}): ${tally.join(", ")}` +
      (failures.length > 0 ? `; the one-page reader refused ${failures.length} times (${failures.join(", ")})` : ""),
    target: "≤ 3× alone; no 503, the one-page reader always served",
    floor: "the same one-page copy alone, in alternating slices",
    // Where the copy waits: its statements (the rate limit, the session, the audit row) are the db share.
    absolute:
      `client p95 ${fmt(p95Of(times, "ms"))} ms (alone ${fmt(p95Of(alone, "ms"))}); ` +
      `its statements' p95 ${fmt(p95Of(times, "databaseMs"))} ms (alone ${fmt(p95Of(alone, "databaseMs"))})`,
    load: loadAtStart,
    pass: failures.length === 0 && unavailable === 0 && p95 <= 3 * aloneP95,
  });
}
