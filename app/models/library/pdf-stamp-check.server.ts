/**
 * Whether an uploaded PDF parses and takes a stamp, as each investor's copy will, and at what cost (pages,
 * the bytes its content inflates to, the time one stamp takes): past PDF_STAMP_LIMITS it is refused, since
 * every copy would cost as much. pdf-lib holds a PDF whole and copies it as it stamps (a 20 MiB upload raised
 * the server's peak memory by some 60 MiB), so the check runs in a process of its own (scripts/pdf-stampable.js,
 * through pdf-process.server.ts) fed the upload's own pieces as they stream in. For a file that is not a PDF
 * there is no verdict.
 */
import { log } from "~/server/log.server";
import { PdfProcess, endStalePdfProcesses, runningPdfProcesses } from "./pdf-process.server";

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

export class PdfStampCheck {
  private readonly process: PdfProcess;

  constructor(private readonly timeoutMs = STAMP_CHECK_TIMEOUT_MS) {
    this.process = new PdfProcess("scripts/pdf-stampable.js", timeoutMs);
  }

  /** Hands on the next piece, resolving once the process can take more (or is gone). */
  feed(piece: Uint8Array) {
    return this.process.feed(piece);
  }

  /** What the check found of a PDF, once every piece was fed; null for a file that is not one. */
  async verdict(): Promise<StampCheckFinding | null> {
    const end = await this.process.end();
    if (!end) return null;
    const finding: StampCheckFinding = end.outlasted
      ? { verdict: "too-slow", stampMs: this.timeoutMs }
      : findingOf(end.code, end.output);
    log("info", "materials.stamp_check", finding);
    return finding;
  }

  /** Ends the check of an upload that was refused, broke off or was not chosen; resolves once its process is gone. */
  cancel() {
    return this.process.cancel();
  }
}

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

/** The process ids of the check processes (and any other PDF process) running now. */
export const runningStampChecks = runningPdfProcesses;

/**
 * Ends the check processes (and any other PDF process) started more than `olderThanMs` ago: no upload lasts that
 * long, so each belongs to a request that is over. Returns how many.
 */
export const endStaleStampChecks = endStalePdfProcesses;
