/**
 * The chain as this process knows it, kept without walking the whole trail each time: a process walks
 * it whole once when it starts, then every minute (for the metrics, portal_audit_chain_*) and whenever
 * the audit page is opened only the rows appended since the last row it verified, from that row's
 * hash, or the whole trail again when that row's hash has changed. A break, once found, stays
 * reported until a walk of the whole trail finds the chain intact again: a later check of new rows
 * alone must not hide it. An edit of a row already verified that leaves the rows after it as they
 * were is found by the next whole walk (`npm run audit:verify`, or a restart), not by these checks.
 */
import { now } from "~/server/clock.server";
import { log } from "~/server/log.server";
import { recordAuditChainCheck } from "~/server/metrics.server";
import {
  onChainWalk,
  recordedGaps,
  storedHashOf,
  walkStoredChain,
  type ChainReport,
  type StoredChainWalk,
  type VerifiedRow,
} from "./audit-chain.server";

export const AUDIT_CHAIN_CHECK_INTERVAL_MS = 60_000;

type Break = Extract<ChainReport, { ok: false }>;

let verified: VerifiedRow | null = null;
let broken: Break | null = null;
let gaps: Set<number> | undefined;
let checking: Promise<ChainReport> | undefined;

onChainWalk(noteWalk);

function noteWalk({ report, lastVerified, whole }: StoredChainWalk) {
  verified = lastVerified;
  if (!report.ok) {
    if (broken?.rowId !== report.rowId || broken.problem !== report.problem) {
      log("error", "audit.chain_broken", { problem: report.problem, rowId: report.rowId });
    }
    broken = report;
  } else if (whole) {
    broken = null;
  }
  recordAuditChainCheck({ intact: broken === null, verifiedRow: verified?.id ?? 0, at: now() });
}

/**
 * Checks the rows appended since the last one verified (the whole trail the first time). A rewrite
 * that recomputed the chain after a row changes the hash of every row after it, the last verified
 * too: one lookup finds that, and the whole trail is walked again to say where.
 */
export function checkNewAuditRows(): Promise<ChainReport> {
  // One check at a time: a page opened while the minute's check walks (the first after a restart may walk
  // a million rows) waits for that walk rather than starting a second beside it.
  checking ??= checkFromLastVerified().finally(() => {
    checking = undefined;
  });
  return checking;
}

async function checkFromLastVerified(): Promise<ChainReport> {
  gaps ??= await recordedGaps();
  const from = verified && (await storedHashOf(verified.id)) === verified.hash ? verified : null;
  return walkStoredChain(from, gaps);
}

/** How the chain stands for this process: a break it found, or the last row verified (null: no rows yet). */
export type AuditChainStatus = { broken: Break } | { broken: null; verified: VerifiedRow | null };

/**
 * The chain's status for the audit page: the rows appended since the last verified are checked first,
 * so a page costs those rows, not a walk of the whole trail.
 */
export async function auditChainStatus(): Promise<AuditChainStatus> {
  await checkNewAuditRows();
  return broken ? { broken } : { broken: null, verified };
}

/** Forgets what this process verified (tests start each case from the whole trail). */
export function forgetVerifiedAuditRows() {
  verified = null;
  broken = null;
  gaps = undefined;
}

/** Checks now, then every AUDIT_CHAIN_CHECK_INTERVAL_MS, one check at a time; returns what stops it. */
export function startAuditChainWatch(): () => void {
  let running = false;
  let failing = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await checkNewAuditRows();
      failing = false;
    } catch (error) {
      // A database that is busy or away is tried again next time; said once, not every minute.
      if (!failing) log("warn", "audit.chain_check_failed", { error });
      failing = true;
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, AUDIT_CHAIN_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
