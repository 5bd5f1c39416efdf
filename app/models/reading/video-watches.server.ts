/**
 * The parts of a library video each viewer played, as the watch page reports them (the player's own
 * played ranges, resent whole each time, so a report again or out of order changes nothing): kept as
 * their union per viewer and video, with where the viewer last stopped. Only a viewer who opened the
 * video reports, within its length, at a bounded rate, and never more of it than could have played
 * since they first opened it (at double speed). A report is kept whole or not at all.
 */
import { watchingRefusals } from "~/content/reading";
import { lengthOfRanges, unionOfRanges, type PlayedRange } from "~/lib/played-ranges";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { hitRateLimit, type RateLimitRule } from "~/server/rate-limit.server";

export const WATCH_REPORTS_PER_MINUTE: RateLimitRule = { limit: 20, windowMs: 60_000 };
/** Players play at double speed, so twice the wall-clock time may play; and a second for the clocks. */
const FASTEST_PLAYBACK = 2;
const SLACK_MS = 1_000;

export type WatchReport = { durationMs: number; stoppedAtMs: number; ranges: PlayedRange[] };
export type WatchResult =
  { ok: true } | { ok: false; status: 404 | 422 | 429; message: string; retryAfterSeconds?: number };

export async function recordVideoWatch(
  viewer: { id: string },
  documentId: string,
  report: WatchReport,
): Promise<WatchResult> {
  const db = getDb();
  const opened = await db
    .selectFrom("document_readers as r")
    .innerJoin("documents as d", "d.id", "r.document_id")
    .select(["d.kind", "r.first_opened_at"])
    .where("r.document_id", "=", documentId)
    .where("r.user_id", "=", viewer.id)
    .executeTakeFirst();
  if (!opened) return { ok: false, status: 404, message: watchingRefusals.notOpened };
  if (opened.kind !== "video") return { ok: false, status: 422, message: watchingRefusals.notAVideo };

  const minute = await hitRateLimit(`watching:${viewer.id}:${documentId}`, WATCH_REPORTS_PER_MINUTE);
  if (!minute.allowed)
    return {
      ok: false,
      status: 429,
      message: watchingRefusals.flood(minute.retryAfterSeconds),
      retryAfterSeconds: minute.retryAfterSeconds,
    };

  const { durationMs, stoppedAtMs } = report;
  if (stoppedAtMs > durationMs || report.ranges.some(([, to]) => to > durationMs))
    return { ok: false, status: 422, message: watchingRefusals.rangeBeyondVideo };

  const stored = await db
    .selectFrom("video_watches")
    .select("ranges")
    .where("document_id", "=", documentId)
    .where("user_id", "=", viewer.id)
    .executeTakeFirst();
  const earlier = stored ? (JSON.parse(stored.ranges) as PlayedRange[]) : [];
  const union = unionOfRanges([...earlier, ...report.ranges].map(([from, to]) => [from, Math.min(to, durationMs)]));
  const watchedMs = lengthOfRanges(union);
  const at = now();
  if (watchedMs > (at - Number(opened.first_opened_at)) * FASTEST_PLAYBACK + SLACK_MS)
    return { ok: false, status: 422, message: watchingRefusals.moreThanCouldPlay };

  const row = {
    duration_ms: durationMs,
    ranges: JSON.stringify(union),
    watched_ms: watchedMs,
    stopped_at_ms: stoppedAtMs,
    updated_at: at,
  };
  await db
    .insertInto("video_watches")
    .values({ user_id: viewer.id, document_id: documentId, ...row })
    .onConflict((oc) => oc.columns(["document_id", "user_id"]).doUpdateSet(row))
    .execute();
  return { ok: true };
}
