/**
 * The stamping pool (app/server/stamp-pool.server.ts): a copy stamped on a worker thread is the copy the
 * stamping module makes; a pool whose places are all taken refuses at once, and so does a reader who holds
 * their share of places while another reader still gets one; a reader stamps on every thread but one, so
 * another reader's copy starts at once; a copy whose request is abandoned while it waits leaves the line;
 * a thread whose memory outside its heap passes the bound is ended; and a stamping thread runs at a lower
 * priority than the event loop, the lowest for a reader's copy stamped beside their others.
 */
import { readdirSync, readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import { stampPdf, type Stamp } from "~/server/pdf-stamp.server";
import { createStampPool, ReaderBusy, STAMPING_NICE, StampingBusy, type StampPool } from "~/server/stamp-pool.server";
import { pdfPageTexts } from "../support/pdf-text";

const pdf = new Uint8Array(readFileSync("private/download.pdf"));
const stamp: Stamp = {
  band: [["Prepared for Jane Doe <jane@example.com>"]],
  watermark: "Confidential · jane@example.com",
  downloadId: "123e4567-e89b-12d3-a456-426614174000",
};

let pool: StampPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Whether the promise has settled after the queued callbacks have run. */
async function settled(promise: Promise<unknown>) {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test("a copy stamped on the pool's thread reads as the one stamped in process", async () => {
  pool = createStampPool({ threads: 1, queue: 0 });
  const place = pool.reserve("ada");
  await place.turn();
  const onThread = await place.stamp(pdf, stamp);
  place.release();
  expect(await pdfPageTexts(onThread)).toEqual(await pdfPageTexts(await stampPdf(pdf, stamp)));
});

/** The nice value of each of this process's threads (Linux: field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync(`/proc/${process.pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

test("a stamping thread yields the CPU to the event loop: it runs at nice 5, the loop at the process's own", async () => {
  const ownNice = threadNiceValues()[0];
  pool = createStampPool({ threads: 1, queue: 0 });
  const place = pool.reserve("ada");
  await place.turn();
  await place.stamp(pdf, stamp);
  place.release();
  expect(STAMPING_NICE.only).toBe(5);
  expect(threadNiceValues()).toContain(5);
  expect(threadNiceValues()).not.toContain(19);
  expect(threadNiceValues()[0]).toBe(ownNice);
});

test("a reader's copy stamped while they hold other places yields to everyone's: it runs at nice 19", async () => {
  pool = createStampPool({ threads: 2, queue: 4, perReader: 3, crowdedForMs: 200 });
  const [first, second] = [pool.reserve("ada"), pool.reserve("ada")];
  await first.turn();
  await first.stamp(pdf, stamp);
  expect(threadNiceValues()).toContain(19);
  expect(threadNiceValues()).not.toContain(5);
  first.release();
  // The last of several is still one of several, though the others are done, and so is the next, soon after.
  await second.turn();
  await second.stamp(pdf, stamp);
  second.release();
  const soonAfter = pool.reserve("ada");
  await soonAfter.turn();
  await soonAfter.stamp(pdf, stamp);
  soonAfter.release();
  expect(threadNiceValues()).not.toContain(5);
  // Once the reader has held no place for a while, their next copy is their only one: a thread at 5, the first.
  await new Promise((resolve) => setTimeout(resolve, 250));
  const only = pool.reserve("ada");
  await only.turn();
  await only.stamp(pdf, stamp);
  only.release();
  expect(threadNiceValues()).toContain(5);
});

test("two readers' only copies at once both stamp: the second on the lower set's thread, no third thread started", async () => {
  pool = createStampPool({ threads: 2, queue: 4, perReader: 3 });
  const [grace, alan] = [pool.reserve("grace"), pool.reserve("alan")];
  await Promise.all([grace.turn(), alan.turn()]);
  const copies = await Promise.all([grace.stamp(pdf, stamp), alan.stamp(pdf, stamp)]);
  grace.release();
  alan.release();
  expect(copies).toHaveLength(2);
  const stampingThreads = threadNiceValues().filter((nice) => nice === 5 || nice === 19);
  expect(stampingThreads.sort((a, b) => a - b)).toEqual([5, 19]);
});

test("a copy is stamped only once its turn has given it a thread", async () => {
  pool = createStampPool({ threads: 1, queue: 0 });
  await expect(pool.reserve("ada").stamp(pdf, stamp)).rejects.toThrow(/turn/);
});

test("a pool with every place taken refuses the next copy, and takes one again once a place is given back", () => {
  pool = createStampPool({ threads: 1, queue: 1 });
  const first = pool.reserve("ada");
  pool.reserve("grace");
  expect(() => pool!.reserve("alan")).toThrow(StampingBusy);
  first.release();
  first.release(); // Giving a place back twice gives back one place.
  pool.reserve("alan");
  expect(() => pool!.reserve("alan")).toThrow(StampingBusy);
});

test("a reader holding their share of places is refused the next, while another reader still gets one", () => {
  pool = createStampPool({ threads: 2, queue: 8, perReader: 2 });
  const first = pool.reserve("ada");
  pool.reserve("ada");
  expect(() => pool!.reserve("ada")).toThrow(ReaderBusy);
  pool.reserve("grace");
  first.release();
  pool.reserve("ada");
});

test("a reader stamps on every thread but one: their next copy waits, another reader's starts at once", async () => {
  pool = createStampPool({ threads: 2, queue: 8, perReader: 3 });
  const first = pool.reserve("ada");
  await first.turn();
  const second = pool.reserve("ada");
  const secondTurn = second.turn();
  expect(await settled(secondTurn)).toBe(false);

  const other = pool.reserve("grace");
  await other.turn();
  // Both threads are taken now; the first to be given back goes to the copy that waited.
  other.release();
  expect(await settled(secondTurn)).toBe(false);
  first.release();
  expect(await settled(secondTurn)).toBe(true);
  expect(await second.stamp(pdf, stamp)).toBeInstanceOf(Uint8Array);
  second.release();
});

test("a copy whose request is abandoned while it waits leaves the line, and the thread goes to the next", async () => {
  pool = createStampPool({ threads: 1, queue: 4, perReader: 3 });
  const stamping = pool.reserve("ada");
  await stamping.turn();
  const abandoned = pool.reserve("grace");
  const client = new AbortController();
  const abandonedTurn = abandoned.turn(client.signal);
  const next = pool.reserve("alan");
  const nextTurn = next.turn();

  client.abort(new Error("The client went away."));
  await expect(abandonedTurn).rejects.toThrow("The client went away.");
  stamping.release();
  expect(await settled(nextTurn)).toBe(true);
  abandoned.release();
  next.release();

  const late = new AbortController();
  late.abort(new Error("Gone before its turn was asked for."));
  await expect(pool.reserve("grace").turn(late.signal)).rejects.toThrow("Gone before");
});

test("a thread whose memory outside its heap passes the bound is ended, and its copy fails", async () => {
  // A thread that has loaded the stamping module holds some 10 MB of buffers; stamping 800 pages, some 40 MB more.
  const doc = await PDFDocument.create();
  for (let page = 0; page < 800; page += 1) doc.addPage().drawText(`Page ${page} `.repeat(40), { size: 4, y: 700 });
  const large = await doc.save();
  pool = createStampPool({ threads: 1, queue: 0, externalMb: 32 });
  const place = pool.reserve("ada");
  await place.turn();
  await expect(place.stamp(large, stamp)).rejects.toThrow(/worker exited|Terminating/);
  place.release();

  const next = pool.reserve("ada");
  await next.turn();
  expect(await next.stamp(pdf, stamp)).toBeInstanceOf(Uint8Array);
  next.release();
}, 30_000);
