/**
 * PDF stamping on a pool of worker threads (piscina), so that a stamped copy (pdf-lib parses and rewrites
 * the whole file, 40-90 ms for a 50-page PDF) never holds up the other requests on the event loop.
 *
 * The pool is shared by every reader, so no one reader may fill it (decision 0027): a reader holds at most
 * `perReader` places (their copies stamping or waiting; the next one is refused with ReaderBusy, a 429),
 * and stamps on at most `threads - 1` threads at once (at least one), so a thread is always left for
 * another reader's copy. Copies wait for a thread in the order they came, a reader at their share of the
 * threads passed over; a copy whose request is abandoned while it waits leaves the line. Admission is
 * decided before any work: a pool whose places are all taken refuses at once (StampingBusy, a 503), so
 * downloads wait in a bounded line, never an unbounded one.
 *
 * Every stamping thread yields the CPU to the event loop (a nice value above the process's), and a reader's
 * copy stamped while they hold other places yields to everyone's: it runs on a thread at the lowest priority.
 * A thread cannot raise its priority again without privileges, so the two priorities are two sets of threads,
 * together as many as `threads` (each set takes a copy meant for the other when its own threads are busy).
 */
import path from "node:path";
import { Piscina } from "piscina";
import { coresButOne } from "./cores.server";
import type { Stamp } from "./pdf-stamp.server";

/** The heap a PDF's stamping may take: a thread's here, and the upload check's process (material-file.server.ts). */
export const STAMP_HEAP_MB = 256;
/**
 * The memory outside that heap a thread may hold: the PDF's bytes, zlib's output and the stamped copy live
 * in buffers the heap limit does not count. A thread past it is ended, like one past its heap.
 */
export const STAMP_EXTERNAL_MB = 512;
/** How often a stamping thread's memory is looked at from the server's side. */
const MEMORY_CHECK_MS = 100;
/** Copies that may wait for a thread, beyond the ones being stamped. */
const QUEUE_PER_THREAD = 4;
/** Copies one reader may have stamping or waiting at once. */
export const COPIES_IN_FLIGHT_PER_READER = 3;
/** Seconds a refused client is told to wait: about a full queue's stamping. */
export const STAMPING_RETRY_AFTER_SECONDS = 5;
/** How long a reader's copies stay "one of several" after their last place is given back. */
const CROWDED_FOR_MS = 1000;
/** A thread idle this long ends, and gives its memory back; the next copy starts one again. */
const IDLE_MS = 60_000;
/**
 * The stamping threads' nice values (scripts/pdf-stamp-worker.js sets its own): for a reader's only copy, and
 * for one of several. With both at 10, another reader's one-page copy beside a reader's bursts took 3.1-3.9×
 * its time alone on a machine whose other core was taken: at 10 a thread gets a tenth of a core shared with a
 * process at the default priority, so 2 ms of stamping took 25-40 ms (scripts/bench/stamping-share.ts). At 5
 * it gets a quarter, and the loop still three quarters of a core it shares with one.
 */
export const STAMPING_NICE = { only: 5, oneOfSeveral: 19 } as const;

export class StampingBusy extends Error {
  constructor() {
    super("Every stamping thread is busy and the queue is full.");
  }
}

/** The reader already has as many copies stamping or waiting as one reader may. */
export class ReaderBusy extends Error {
  constructor() {
    super("This reader already has their share of copies in flight.");
  }
}

/** One copy's place in the pool. */
export type StampPlace = {
  /**
   * Resolves once a thread is free for this copy (the thread is then this copy's until `release`); rejects
   * with the signal's reason, having left the line, when the signal aborts first.
   */
  turn(signal?: AbortSignal): Promise<void>;
  /** Stamps on the thread `turn` gave. */
  stamp(pdf: Uint8Array, stamp: Stamp): Promise<Uint8Array>;
  /** Gives the place, and the thread if it held one, back; idempotent. */
  release(): void;
};

export type StampPool = {
  /** How many copies may be stamping at once. */
  readonly threads: number;
  /** Takes a place for one of `reader`'s copies, or throws ReaderBusy or StampingBusy. */
  reserve(reader: string): StampPlace;
  close(): Promise<void>;
};

/** Threads: a core but one, and at least two, so that one reader's copy never holds up every other. */
function defaultThreads() {
  return Math.max(2, coresButOne());
}

export function createStampPool({
  threads = defaultThreads(),
  queue = threads * QUEUE_PER_THREAD,
  perReader = COPIES_IN_FLIGHT_PER_READER,
  externalMb = STAMP_EXTERNAL_MB,
  crowdedForMs = CROWDED_FOR_MS,
}: {
  threads?: number;
  queue?: number;
  perReader?: number;
  externalMb?: number;
  crowdedForMs?: number;
} = {}): StampPool {
  const threadsPerReader = Math.max(1, threads - 1);
  const threadsAt = (nice: number, size: number) => ({
    // A set of no threads (a pool of one thread has only the higher priority's) starts none.
    pool:
      size === 0
        ? null
        : new Piscina<{ pdf: Uint8Array; stamp: Stamp }, Uint8Array>({
            filename: path.resolve(process.cwd(), "scripts/pdf-stamp-worker.js"),
            workerData: { nice },
            minThreads: 0,
            maxThreads: size,
            idleTimeout: IDLE_MS,
            // The heap the upload check gave the PDF: one that needs more ends its thread, not the server.
            resourceLimits: { maxOldGenerationSizeMb: STAMP_HEAP_MB },
          }),
    size,
    busy: 0,
  });
  // Half the threads each (the higher priority's the larger half); either set may take the other's copies.
  const onlyCopies = threadsAt(STAMPING_NICE.only, Math.ceil(threads / 2));
  const severalCopies = threadsAt(STAMPING_NICE.oneOfSeveral, threads - onlyCopies.size);
  /** Stamps on the copy's own set, or the other when its own is busy (at most `threads` stamp at once). */
  const run = async (task: { pdf: Uint8Array; stamp: Stamp }, several: boolean) => {
    const [own, other] = several ? [severalCopies, onlyCopies] : [onlyCopies, severalCopies];
    const set = own.busy < own.size ? own : other;
    set.busy += 1;
    try {
      return await set.pool!.run(task);
    } finally {
      set.busy -= 1;
    }
  };
  const places = new Map<string, number>();
  /**
   * Readers whose copies are several: from holding a second place until `crowdedForMs` after holding none (the
   * time is when that ends; Infinity while they hold places). The last copy of a burst is one of several though
   * the others are done, and so is the first of the next: judged by its own moment, each took the higher set's
   * thread and sent another reader's only copy to the lower set (scripts/bench/stamping-share.ts: 2.6-3.5×).
   */
  const crowded = new Map<string, number>();
  /** The reader holds no place now: one of several for `crowdedForMs` more, then forgotten. */
  const calmDown = (reader: string) => {
    const until = performance.now() + crowdedForMs;
    crowded.set(reader, until);
    setTimeout(() => {
      if (crowded.get(reader) === until) crowded.delete(reader);
    }, crowdedForMs).unref();
  };
  const isCrowded = (reader: string) => {
    const until = crowded.get(reader);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    crowded.delete(reader);
    return false;
  };
  const stamping = new Map<string, number>();
  const waiting: { reader: string; start: () => void }[] = [];
  let taken = 0;
  let busyThreads = 0;
  const sets = [onlyCopies.pool, severalCopies.pool].filter((pool) => pool !== null);
  const memory = memoryWatch(sets, externalMb);

  const count = (counts: Map<string, number>, reader: string, by: number) => {
    const next = (counts.get(reader) ?? 0) + by;
    if (next === 0) counts.delete(reader);
    else counts.set(reader, next);
  };
  const mayStart = (reader: string) => busyThreads < threads && (stamping.get(reader) ?? 0) < threadsPerReader;
  const startThread = (reader: string) => {
    busyThreads += 1;
    count(stamping, reader, 1);
    memory.watching(busyThreads);
  };
  const startWaiting = () => {
    for (let i = 0; i < waiting.length && busyThreads < threads;) {
      const next = waiting[i];
      if (!mayStart(next.reader)) {
        i += 1;
        continue;
      }
      waiting.splice(i, 1);
      startThread(next.reader);
      next.start();
    }
  };

  return {
    threads,
    reserve(reader) {
      if ((places.get(reader) ?? 0) >= perReader) throw new ReaderBusy();
      if (taken >= threads + queue) throw new StampingBusy();
      taken += 1;
      count(places, reader, 1);
      if ((places.get(reader) ?? 0) > 1 || isCrowded(reader)) crowded.set(reader, Infinity);
      let holdsThread = false;
      let released = false;
      let leaveLine: (() => void) | undefined;
      return {
        turn(signal) {
          if (released || holdsThread) return Promise.reject(new Error("This place has no turn to wait for."));
          if (signal?.aborted) return Promise.reject(signal.reason);
          // Those waiting cannot start (each thread given back starts them), so this copy takes no one's turn.
          if (mayStart(reader)) {
            startThread(reader);
            holdsThread = true;
            return Promise.resolve();
          }
          return new Promise<void>((resolve, reject) => {
            const onAbort = () => {
              leaveLine?.();
              reject(signal?.reason);
            };
            const entry = {
              reader,
              start: () => {
                signal?.removeEventListener("abort", onAbort);
                leaveLine = undefined;
                holdsThread = true;
                resolve();
              },
            };
            leaveLine = () => {
              const at = waiting.indexOf(entry);
              if (at >= 0) waiting.splice(at, 1);
              leaveLine = undefined;
            };
            waiting.push(entry);
            signal?.addEventListener("abort", onAbort, { once: true });
          });
        },
        stamp(pdf, stamp) {
          if (!holdsThread) return Promise.reject(new Error("A copy is stamped only on the thread its turn gave."));
          return run({ pdf, stamp }, isCrowded(reader));
        },
        release() {
          if (released) return;
          released = true;
          leaveLine?.();
          taken -= 1;
          count(places, reader, -1);
          if (!places.has(reader) && crowded.has(reader)) calmDown(reader);
          if (holdsThread) {
            holdsThread = false;
            busyThreads -= 1;
            count(stamping, reader, -1);
            memory.watching(busyThreads);
            startWaiting();
          }
        },
      };
    },
    close: async () => {
      memory.watching(0);
      await Promise.all(sets.map((pool) => pool.close()));
    },
  };
}

/**
 * Ends a thread whose memory outside its heap passes `externalMb` (piscina fails its copy and starts
 * another thread), looked at every MEMORY_CHECK_MS while any copy is stamping. The heap limit cannot do
 * this: zlib's output, the PDF's bytes and the stamped copy are buffers, outside the heap V8 is held to.
 */
function memoryWatch(pools: Piscina[], externalMb: number) {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    for (const thread of pools.flatMap((pool) => pool.threads))
      thread
        .getHeapStatistics()
        .then((heap) => {
          if (heap.external_memory > externalMb * 1024 * 1024) void thread.terminate();
        })
        .catch(() => {}); // A thread that ended meanwhile has nothing left to look at.
  };
  return {
    watching(busy: number) {
      if (busy > 0 && !timer) {
        timer = setInterval(check, MEMORY_CHECK_MS);
        timer.unref();
      } else if (busy === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
  };
}

let shared: StampPool | undefined;

/** The server's pool, started on first use. */
export function stampPool(): StampPool {
  shared ??= createStampPool();
  return shared;
}
