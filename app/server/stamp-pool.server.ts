/**
 * PDF stamping on a pool of worker threads (piscina), so that a stamped copy (pdf-lib parses and rewrites
 * the whole file, 40-90 ms for a 50-page PDF) never holds up the other requests on the event loop. One
 * thread a core but one, which is kept for the event loop: each thread stamping holds its own copy of
 * pdf-lib's object graph, some 45 MB for a 50-page PDF (docs/performance.md, "Stamping off the event loop"). Admission is decided before any work: a pool whose threads are busy and whose queue is full
 * refuses a copy at once (the caller answers 503 with Retry-After), so a burst of downloads waits in a
 * bounded line, never an unbounded one.
 */
import path from "node:path";
import { Piscina } from "piscina";
import { coresButOne } from "./cores.server";
import type { Stamp } from "./pdf-stamp.server";

/** The heap a PDF's stamping may take: a thread's here, and the upload check's process (material-file.server.ts). */
export const STAMP_HEAP_MB = 256;
/** Copies that may wait for a thread, beyond the ones being stamped. */
const QUEUE_PER_THREAD = 4;
/** Seconds a refused client is told to wait: about a full queue's stamping. */
export const STAMPING_RETRY_AFTER_SECONDS = 5;
/** A thread idle this long ends, and gives its memory back; the next copy starts one again. */
const IDLE_MS = 60_000;

export class StampingBusy extends Error {
  constructor() {
    super("Every stamping thread is busy and the queue is full.");
  }
}

export type StampPool = {
  /** Takes a place for one copy, or throws StampingBusy; the place is given back when `stamp` settles. */
  reserve(): { stamp: (pdf: Uint8Array, stamp: Stamp) => Promise<Uint8Array>; release: () => void };
  close(): Promise<void>;
};

export function createStampPool({
  threads = coresButOne(),
  queue = threads * QUEUE_PER_THREAD,
}: { threads?: number; queue?: number } = {}): StampPool {
  const pool = new Piscina<{ pdf: Uint8Array; stamp: Stamp }, Uint8Array>({
    filename: path.resolve(process.cwd(), "scripts/pdf-stamp-worker.js"),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_MS,
    // The heap the upload check gave the PDF: one that needs more ends its thread, not the server.
    resourceLimits: { maxOldGenerationSizeMb: STAMP_HEAP_MB },
  });
  let taken = 0;
  return {
    reserve() {
      if (taken >= threads + queue) throw new StampingBusy();
      taken += 1;
      let released = false;
      const release = () => {
        if (!released) taken -= 1;
        released = true;
      };
      return {
        stamp: (pdf, stamp) => pool.run({ pdf, stamp }).finally(release),
        release,
      };
    },
    close: () => pool.close(),
  };
}

let shared: StampPool | undefined;

/** The server's pool, started on first use. */
export function stampPool(): StampPool {
  shared ??= createStampPool();
  return shared;
}
