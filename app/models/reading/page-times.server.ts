/**
 * Time per page of each stamped copy, as the page's viewer reports it (app/hooks/use-reading-report.ts),
 * kept only when it is plausible (docs/decisions/0035): the copy was delivered, to this reader, of this
 * document; its pages are the document's; one stream per copy, each batch once; no more
 * time in all than has passed since the copy was delivered; and a bounded rate of batches per copy.
 * A batch is kept whole or not at all.
 */
import { sql, type Transaction } from "kysely";
import { readingRefusals } from "~/content/reading";
import { now } from "~/server/clock.server";
import { getDb, type Database } from "~/server/db.server";
import { hitRateLimit, type RateLimitRule } from "~/server/rate-limit.server";
import { pageCountOf } from "./page-count.server";

/** Batches one copy may report a minute: the viewer sends one every 30 s, and when the tab is hidden. */
export const READING_BATCHES_PER_MINUTE: RateLimitRule = { limit: 20, windowMs: 60_000 };
/** How far the server's clock and the viewer's may disagree on a batch's time. */
const CLOCK_SLACK_MS = 2_000;

export type ReadingBatch = {
  downloadId: string;
  stream: string;
  batch: number;
  pages: { page: number; ms: number }[];
};

export type ReadingResult =
  { ok: true } | { ok: false; status: 403 | 404 | 409 | 422 | 429; message: string; retryAfterSeconds?: number };

const refuse = (status: 403 | 404 | 409 | 422, message: string): ReadingResult => ({ ok: false, status, message });

class Refused extends Error {
  constructor(readonly result: ReadingResult) {
    super("refused");
  }
}

export async function recordReadingBatch(
  reader: { id: string },
  documentId: string,
  report: ReadingBatch,
): Promise<ReadingResult> {
  const copy = await getDb()
    .selectFrom("document_opens as o")
    .innerJoin("document_versions as v", "v.id", "o.version_id")
    .innerJoin("documents as d", "d.id", "o.document_id")
    .select(["o.user_id", "o.document_id", "o.opened_at", "v.id as version_id", "v.blob_id", "v.page_count", "d.kind"])
    .where("o.id", "=", report.downloadId)
    .executeTakeFirst();
  if (!copy || copy.document_id !== documentId) return refuse(404, readingRefusals.copyNotDelivered);
  if (copy.user_id !== reader.id) return refuse(403, readingRefusals.notYourCopy);
  if (copy.kind !== "pdf") return refuse(422, readingRefusals.notAPdf);

  const pages = await pageCountOf({ id: copy.version_id, blobId: copy.blob_id, pageCount: copy.page_count });
  const beyond = report.pages.find((entry) => entry.page > pages);
  if (beyond) return refuse(422, readingRefusals.pageBeyondDocument(beyond.page, pages));

  const at = now();
  const ms = report.pages.reduce((sum, entry) => sum + entry.ms, 0);
  const allowedMs = at - Number(copy.opened_at) + CLOCK_SLACK_MS;
  if (ms > allowedMs) return refuse(422, readingRefusals.moreTimeThanPassed);
  // One transaction, four statements: the rate, the stream, the batch's number, its pages. A refused batch
  // leaves nothing, its hit on the rate included.
  try {
    await getDb()
      .transaction()
      .execute(async (trx) => {
        const minute = await hitRateLimit(`reading:${report.downloadId}`, READING_BATCHES_PER_MINUTE, trx);
        if (!minute.allowed)
          throw new Refused({
            ok: false,
            status: 429,
            message: readingRefusals.flood(minute.retryAfterSeconds),
            retryAfterSeconds: minute.retryAfterSeconds,
          });
        // One statement takes the stream or adds to it, and decides, so two batches at once cannot both slip
        // past the stream's rules.
        const taken = await trx
          .insertInto("reading_streams")
          .values({ download_id: report.downloadId, stream: report.stream, total_ms: ms, updated_at: at })
          .onConflict((oc) =>
            oc
              .column("download_id")
              .doUpdateSet({ total_ms: sql`reading_streams.total_ms + excluded.total_ms`, updated_at: at })
              .where("reading_streams.stream", "=", report.stream)
              .where(sql<number>`reading_streams.total_ms + excluded.total_ms`, "<=", allowedMs),
          )
          .returning("download_id")
          .executeTakeFirst();
        if (!taken) throw new Refused(await whyRefused(trx, report));
        // Beacons may arrive out of order: each number is taken once, in any order.
        const numbered = await trx
          .insertInto("reading_batches")
          .values({ download_id: report.downloadId, batch: report.batch })
          .onConflict((oc) => oc.columns(["download_id", "batch"]).doNothing())
          .returning("batch")
          .executeTakeFirst();
        if (!numbered) throw new Refused(refuse(409, readingRefusals.batchRepeated));
        await trx
          .insertInto("page_times")
          .values(
            report.pages.map((entry) => ({
              download_id: report.downloadId,
              page: entry.page,
              document_id: documentId,
              user_id: reader.id,
              ms: entry.ms,
              delivered_at: Number(copy.opened_at),
              updated_at: at,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["download_id", "page"]).doUpdateSet({
              ms: sql`page_times.ms + excluded.ms`,
              updated_at: at,
            }),
          )
          .execute();
      });
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
  return { ok: true };
}

/** Which of the stream's rules a refused batch broke. */
async function whyRefused(trx: Transaction<Database>, report: ReadingBatch) {
  const stream = await trx
    .selectFrom("reading_streams")
    .select("stream")
    .where("download_id", "=", report.downloadId)
    .executeTakeFirstOrThrow();
  if (stream.stream !== report.stream) return refuse(409, readingRefusals.otherStream);
  return refuse(422, readingRefusals.moreTimeThanPassed);
}
