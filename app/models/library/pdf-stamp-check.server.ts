/**
 * Whether an uploaded PDF parses and takes a stamp, as each investor's copy will, and at what cost (pages,
 * the bytes its content inflates to, the time one stamp takes): past PDF_STAMP_LIMITS it is refused, since
 * every copy would cost as much. pdf-lib holds a PDF whole and copies it as it stamps (a 20 MiB upload raised
 * the server's peak memory by some 60 MiB), so the check runs in a child process (scripts/pdf-stampable.js)
 * fed the upload's own pieces as they stream in: the server neither holds the file nor reads it back, and a
 * PDF built to exhaust memory or time only ends that process. Whether the file is a PDF at all is told by its
 * first five bytes; for anything else no process starts and there is no verdict. The time limit runs from the
 * last byte, so a slow upload is not taken for a slow check.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { text } from "node:stream/consumers";
import { now } from "~/server/clock.server";
import { log } from "~/server/log.server";
import { STAMP_HEAP_MB } from "~/server/stamp-pool.server";
import { looksLikePdf } from "./material-file.server";

/** How long the stamping check's process may take, once the last byte is in, before it is killed and the PDF refused. */
export const STAMP_CHECK_TIMEOUT_MS = 30_000;

export type StampCheckVerdict = "stampable" | "unreadable" | "too-many-pages" | "too-much-content" | "too-slow";

/** What the check found, as scripts/pdf-stampable.js writes it (the figures it had when it stopped). */
export type StampCheckFinding = {
  verdict: StampCheckVerdict;
  pages?: number;
  inflatedBytes?: number;
  stampMs?: number;
};

const VERDICTS = new Set<string>(["stampable", "unreadable", "too-many-pages", "too-much-content", "too-slow"]);

type CheckProcess = {
  child: ChildProcessByStdio<Writable, Readable, null>;
  exited: Promise<number | null>;
  output: Promise<string>;
};

/** Every check process still running, with when it started: housekeeping ends those older than any upload. */
const running = new Map<CheckProcess, number>();

export class PdfStampCheck {
  private early: Uint8Array[] = [];
  private earlyBytes = 0;
  private decided = false;
  private check: CheckProcess | null = null;

  constructor(private readonly timeoutMs = STAMP_CHECK_TIMEOUT_MS) {}

  /** Hands on the next piece, resolving once the process can take more (or is gone). */
  async feed(piece: Uint8Array) {
    if (!this.decided) {
      this.early.push(piece);
      this.earlyBytes += piece.byteLength;
      if (this.earlyBytes >= PDF_MAGIC_BYTES) await this.decide();
      return;
    }
    if (this.check && !this.check.child.stdin.write(piece))
      await Promise.race([once(this.check.child.stdin, "drain").catch(() => {}), this.check.exited]);
  }

  /** What the check found of a PDF, once every piece was fed; null for a file that is not one. */
  async verdict(): Promise<StampCheckFinding | null> {
    if (!this.decided) await this.decide();
    if (!this.check) return null;
    const { child, exited, output } = this.check;
    let outlasted = false;
    const timer = setTimeout(() => {
      outlasted = true;
      child.kill("SIGKILL");
    }, this.timeoutMs);
    child.stdin.end();
    const code = await exited;
    clearTimeout(timer);
    const finding: StampCheckFinding = outlasted
      ? { verdict: "too-slow", stampMs: this.timeoutMs }
      : findingOf(code, await output);
    log("info", "materials.stamp_check", finding);
    return finding;
  }

  /** Ends the check of an upload that was refused, broke off or was not chosen; resolves once its process is gone. */
  async cancel() {
    if (!this.check) return;
    this.check.child.kill("SIGKILL");
    await this.check.exited;
  }

  private async decide() {
    this.decided = true;
    const early = this.early;
    this.early = [];
    if (!looksLikePdf(Buffer.concat(early))) return;
    this.check = startCheckProcess();
    for (const piece of early) await this.feed(piece);
  }
}

const PDF_MAGIC_BYTES = "%PDF-".length;

/** The process's one line of JSON; a process that died without one (out of memory, say) found the PDF unreadable. */
function findingOf(code: number | null, output: string): StampCheckFinding {
  try {
    const finding = JSON.parse(output) as StampCheckFinding;
    if (VERDICTS.has(finding.verdict) && (finding.verdict === "stampable") === (code === 0)) return finding;
  } catch {
    // No line, or half of one.
  }
  return { verdict: "unreadable" };
}

function startCheckProcess(): CheckProcess {
  const script = path.resolve(process.cwd(), "scripts/pdf-stampable.js");
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(
    process.execPath,
    [`--max-old-space-size=${STAMP_HEAP_MB}`, script],
    { env: { NODE_ENV: process.env.NODE_ENV }, stdio: ["pipe", "pipe", "ignore"] },
  );
  const check: CheckProcess = {
    child,
    output: text(child.stdout).catch(() => ""),
    exited: new Promise<number | null>((resolve) => {
      child.once("error", () => resolve(null));
      child.once("close", (code) => resolve(code));
    }),
  };
  running.set(check, now());
  void check.exited.then(() => running.delete(check));
  // A child that gave up (or was killed) before reading every byte closes its stdin: not an error here.
  child.stdin.on("error", () => {});
  return check;
}

/** The process ids of the check processes running now. */
export function runningStampChecks(): number[] {
  return [...running.keys()].flatMap(({ child }) => (child.pid === undefined ? [] : [child.pid]));
}

/**
 * Ends the check processes started more than `olderThanMs` ago: no upload lasts that long, so each belongs to
 * a request that is over and will never ask its verdict. Returns how many.
 */
export async function endStaleStampChecks(olderThanMs: number): Promise<number> {
  const stale = [...running].filter(([, startedAt]) => startedAt < now() - olderThanMs).map(([check]) => check);
  for (const check of stale) check.child.kill("SIGKILL");
  await Promise.all(stale.map((check) => check.exited));
  return stale.length;
}
