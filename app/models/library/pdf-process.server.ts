/**
 * A PDF handed, as it streams in, to a Node process of its own that reads it and writes one line of JSON: pdf-lib
 * holds a PDF whole and copies it as it works, so the server neither holds the file nor reads it back, and a
 * PDF built to exhaust memory or time only ends that process (its heap is capped at STAMP_HEAP_MB, its time
 * at the caller's limit from the last byte, so a slow upload is not taken for a slow PDF). Whether the file is
 * a PDF at all is told by its first five bytes; for anything else no process starts. Used by the upload's
 * stamping check (pdf-stamp-check.server.ts) and by the trace of a copy (app/models/trace).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { text } from "node:stream/consumers";
import { now } from "~/server/clock.server";
import { STAMP_HEAP_MB } from "~/server/stamp-pool.server";
import { looksLikePdf } from "./material-file.server";

type ChildProcess = {
  child: ChildProcessByStdio<Writable, Readable, null>;
  exited: Promise<number | null>;
  output: Promise<string>;
};

/** How the process ended: its exit code and its output, or outlasted (killed at the time limit). */
export type PdfProcessEnd = { outlasted: true } | { outlasted: false; code: number | null; output: string };

/** Every process still running, with when it started: housekeeping ends those older than any upload. */
const running = new Map<ChildProcess, number>();

export class PdfProcess {
  private early: Uint8Array[] = [];
  private earlyBytes = 0;
  private decided = false;
  private process: ChildProcess | null = null;

  /** `script`: the process's file, from the app's root (scripts/…). */
  constructor(
    private readonly script: string,
    private readonly timeoutMs: number,
  ) {}

  /** Hands on the next piece, resolving once the process can take more (or is gone). */
  async feed(piece: Uint8Array) {
    if (!this.decided) {
      this.early.push(piece);
      this.earlyBytes += piece.byteLength;
      if (this.earlyBytes >= PDF_MAGIC_BYTES) await this.decide();
      return;
    }
    if (this.process && !this.process.child.stdin.write(piece))
      await Promise.race([once(this.process.child.stdin, "drain").catch(() => {}), this.process.exited]);
  }

  /** How the process ended, once every piece was fed; null for a file that is not a PDF. */
  async end(): Promise<PdfProcessEnd | null> {
    if (!this.decided) await this.decide();
    if (!this.process) return null;
    const { child, exited, output } = this.process;
    let outlasted = false;
    const timer = setTimeout(() => {
      outlasted = true;
      child.kill("SIGKILL");
    }, this.timeoutMs);
    child.stdin.end();
    const code = await exited;
    clearTimeout(timer);
    return outlasted ? { outlasted } : { outlasted, code, output: await output };
  }

  /** Ends the process of a file that was refused, broke off or is not wanted; resolves once it is gone. */
  async cancel() {
    if (!this.process) return;
    this.process.child.kill("SIGKILL");
    await this.process.exited;
  }

  private async decide() {
    this.decided = true;
    const early = this.early;
    this.early = [];
    if (!looksLikePdf(Buffer.concat(early))) return;
    this.process = startProcess(this.script);
    for (const piece of early) await this.feed(piece);
  }
}

const PDF_MAGIC_BYTES = "%PDF-".length;

function startProcess(script: string): ChildProcess {
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(
    process.execPath,
    [`--max-old-space-size=${STAMP_HEAP_MB}`, path.resolve(process.cwd(), script)],
    { env: { NODE_ENV: process.env.NODE_ENV }, stdio: ["pipe", "pipe", "ignore"] },
  );
  const started: ChildProcess = {
    child,
    output: text(child.stdout).catch(() => ""),
    exited: new Promise<number | null>((resolve) => {
      child.once("error", () => resolve(null));
      child.once("close", (code) => resolve(code));
    }),
  };
  running.set(started, now());
  void started.exited.then(() => running.delete(started));
  // A child that gave up (or was killed) before reading every byte closes its stdin: not an error here.
  child.stdin.on("error", () => {});
  return started;
}

/** The process ids of the PDF processes running now. */
export function runningPdfProcesses(): number[] {
  return [...running.keys()].flatMap(({ child }) => (child.pid === undefined ? [] : [child.pid]));
}

/**
 * Ends the processes started more than `olderThanMs` ago: no upload lasts that long, so each belongs to a request
 * that is over and will never ask how it ended. Returns how many.
 */
export async function endStalePdfProcesses(olderThanMs: number): Promise<number> {
  const stale = [...running].filter(([, startedAt]) => startedAt < now() - olderThanMs).map(([process]) => process);
  for (const process of stale) process.child.kill("SIGKILL");
  await Promise.all(stale.map((process) => process.exited));
  return stale.length;
}
