/**
 * Rows that can no longer open anything are deleted on a schedule (server.js),
 * so that the tables a request reads stay small however long the site runs:
 * ended rate-limit windows, expired or idle sessions, expired one-time links,
 * administrator invitations, API tokens and uploads left unfinished (their blobs, and their PDFs' stamping
 * check processes), alert e-mails past ALERT_MAIL_KEPT_MS, a deleted investor's NDA past NDA_RETENTION_YEARS.
 * Audit rows and contact messages are records, and are kept.
 */
import { SESSION_IDLE_MS } from "~/models/account/session.server";
import { STAMP_CHECK_TIMEOUT_MS, endStaleStampChecks } from "~/models/library/pdf-stamp-check.server";
import { pruneExpiredNdas } from "~/models/nda/nda-retention.server";
import { REQUEST_TIMEOUT_MS, pruneAbandonedBlobs } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { log } from "~/server/log.server";
import { MINUTE_MS } from "./throttle.server";

export const HOUSEKEEPING_INTERVAL_MS = 10 * MINUTE_MS;

/** An alert e-mail's row is kept this long, so that a first opening's alert is never made twice meanwhile. */
export const ALERT_MAIL_KEPT_MS = 90 * 24 * 60 * MINUTE_MS;

/**
 * The longest an upload is under way: its request (cut off at REQUEST_TIMEOUT_MS), its PDF's check after the
 * last byte, and a minute for its version's rows. Anything of an upload older than that was left behind.
 */
export const UPLOAD_LIFETIME_MS = REQUEST_TIMEOUT_MS + STAMP_CHECK_TIMEOUT_MS + MINUTE_MS;

export type PrunedRows = {
  rateLimits: number;
  sessions: number;
  oneTimeTokens: number;
  apiTokens: number;
  apiTokenFamilies: number;
  loginChallenges: number;
  adminInvitations: number;
  /** Uploads a stopped process or a lost request left incomplete (app/server/blob-store.server.ts). */
  abandonedUploads: number;
  /** Stamping check processes no upload waits for any more (pdf-stamp-check.server.ts). */
  abandonedStampChecks: number;
  alertMails: number;
  /** Investors deleted more than NDA_RETENTION_YEARS ago whose NDA records went (nda-retention.server.ts). */
  expiredNdas: number;
};

export async function pruneExpiredRows(): Promise<PrunedRows> {
  const at = now();
  const db = getDb();
  const deleted = async (query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numDeletedRows);
  return {
    rateLimits: await deleted(db.deleteFrom("rate_limits").where("reset_at", "<=", at)),
    sessions: await deleted(
      db
        .deleteFrom("sessions")
        .where((eb) => eb.or([eb("expires_at", "<", at), eb("last_seen_at", "<", at - SESSION_IDLE_MS)])),
    ),
    oneTimeTokens: await deleted(db.deleteFrom("one_time_tokens").where("expires_at", "<", at)),
    // A refresh token's row lives as long as its login (the family), so reuse is still recognised until then.
    apiTokens: await deleted(db.deleteFrom("api_tokens").where("expires_at", "<", at)),
    apiTokenFamilies: await deleted(db.deleteFrom("api_token_families").where("expires_at", "<", at)),
    loginChallenges: await deleted(db.deleteFrom("login_challenges").where("expires_at", "<", at)),
    adminInvitations: await deleted(db.deleteFrom("admin_invitations").where("expires_at", "<", at)),
    abandonedUploads: await pruneAbandonedBlobs(UPLOAD_LIFETIME_MS),
    abandonedStampChecks: await endStaleStampChecks(UPLOAD_LIFETIME_MS),
    alertMails: await deleted(db.deleteFrom("alert_mails").where("created_at", "<", at - ALERT_MAIL_KEPT_MS)),
    expiredNdas: await pruneExpiredNdas(),
  };
}

/** Prunes now and then every HOUSEKEEPING_INTERVAL_MS; returns what stops it. */
export function startHousekeeping(): () => void {
  return runEvery("housekeeping", HOUSEKEEPING_INTERVAL_MS, async () => {
    const pruned = await pruneExpiredRows();
    if (Object.values(pruned).some((count) => count > 0)) log("info", "housekeeping.pruned", pruned);
  });
}

/**
 * Runs `job` now and then every `intervalMs`, in the background of the server; returns what stops it. A failure
 * (a busy database, say) is logged as `<name>.failed` and tried again next time: it must never stop the server.
 * A run still going when the next is due is left to finish, and that next run skipped.
 */
export function runEvery(name: string, intervalMs: number, job: () => Promise<void>): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      log("warn", `${name}.failed`, { error });
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
