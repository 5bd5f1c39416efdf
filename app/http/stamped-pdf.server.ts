/**
 * A PDF, stamped for the one who downloads it: their name, e-mail, the time and a new download id on
 * every page, the same id in the document's metadata and that download's record. A leaked copy names
 * its source. Each copy is unique, so it is answered whole (no byte ranges) and never cached. The
 * shipped investor PDF (/pdfs/download.pdf) and the library's PDFs are served alike.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { materialsMessages } from "~/content/materials";
import { materialsStamp } from "~/content/portal";
import { formatRegistrationTime } from "~/lib/investor-table";
import type { PublicUser } from "~/models/account/user.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { hitRateLimit, type RateLimitRule } from "~/server/rate-limit.server";
import {
  ReaderBusy,
  STAMPING_RETRY_AFTER_SECONDS,
  stampPool,
  StampingBusy,
  type StampPlace,
  type StampPool,
} from "~/server/stamp-pool.server";
import { PRIVATE_DIR, PRIVATE_FILES } from "./private-file.server";

const PDF = PRIVATE_FILES.pdf;

/** Stamped copies one reader may start a minute, counted in the database, so across instances. */
export const STAMPED_COPIES_PER_MINUTE: RateLimitRule = { limit: 30, windowMs: 60_000 };

/** The minute's rule, its limit raised (never lowered) by STAMPED_COPIES_PER_MINUTE. */
function copiesPerMinute(): RateLimitRule {
  const raised = getEnv().stampedCopiesPerMinute ?? 0;
  return { ...STAMPED_COPIES_PER_MINUTE, limit: Math.max(STAMPED_COPIES_PER_MINUTE.limit, raised) };
}

export async function serveStampedPdf({
  request,
  user,
  ip,
}: {
  request: Request;
  user: PublicUser;
  ip?: string | null;
}): Promise<Response> {
  const download = (action: string) => (downloadId: string) =>
    recordAuditEvent({
      actorId: user.id,
      actorEmail: user.email,
      action,
      details: { file: PDF.name, downloadId },
      ip: ip ?? null,
    });
  return stampedPdfResponse({
    request,
    user,
    contentDisposition: `inline; filename="${PDF.name}"`,
    // Read in one step on the event loop, as the library's PDFs are read from the database: the file is small,
    // and fs.readFile's four hops through libuv's thread pool (open, stat, read, close), each waiting for a
    // thread and then for the loop, took 10-55 ms beside another reader's copies (a copy alone: 0.3 ms).
    source: async () => readFileSync(path.join(PRIVATE_DIR, PDF.name)),
    record: download("file.download"),
    undelivered: download("file.undelivered"),
  });
}

/**
 * The stamped copy's answer. A HEAD request is told what it would get: no copy is made, so nothing is
 * recorded. Otherwise, in this order (decision 0027):
 * - the reader is admitted: a reader with their share of copies in flight, or past their copies of the
 *   minute, is answered 429 with Retry-After; a pool full of several readers' copies, 503. Nothing is read
 *   or recorded for either.
 * - the copy waits for a thread (app/server/stamp-pool.server.ts), then is read and stamped with a new
 *   download id. A request abandoned meanwhile leaves the line, or its copy is dropped once stamped:
 *   nothing is recorded, nothing sent.
 * - `record` writes the download wherever it is kept, before a byte leaves, so a copy that is not on
 *   record is never served; if the client goes before the last byte is sent, `undelivered` says so.
 */
export async function stampedPdfResponse({
  request,
  user,
  contentDisposition,
  source,
  record,
  undelivered,
  pool = stampPool(),
}: {
  request: Request;
  user: Pick<PublicUser, "id" | "fullName" | "email">;
  contentDisposition: string;
  source: () => Promise<Uint8Array>;
  record: (downloadId: string) => Promise<unknown>;
  undelivered: (downloadId: string) => Promise<unknown>;
  pool?: StampPool;
}): Promise<Response> {
  const headers = new Headers({
    "Content-Type": PDF.contentType,
    // A byte range of one copy cannot be joined to a range of another: the whole copy each time.
    "Accept-Ranges": "none",
    "Cache-Control": "private, no-store",
    "Content-Disposition": contentDisposition,
  });
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });

  const admitted = await admit(pool, user.id);
  if (admitted instanceof Response) return admitted;
  const place = admitted;
  const { signal } = request;
  try {
    await place.turn(signal);
    signal.throwIfAborted(); // Gone as its turn came: nothing is read or stamped.
    const original = await source();
    const downloadId = randomUUID();
    const stamped = await place.stamp(
      original,
      materialsStamp({
        fullName: user.fullName,
        email: user.email,
        downloadedAt: formatRegistrationTime(new Date(now()).toISOString()),
        downloadId,
      }),
    );
    place.release();
    if (signal.aborted) return clientGone();
    await record(downloadId);
    const markUndelivered = () =>
      void undelivered(downloadId).catch((error: unknown) =>
        log("error", "stamped-copy.undelivered-not-recorded", { downloadId, error }),
      );
    // The signal aborts when the response closes before it has finished (never after): the copy did not all leave.
    if (signal.aborted) {
      markUndelivered();
      return clientGone();
    }
    signal.addEventListener("abort", markUndelivered, { once: true });
    headers.set("Content-Length", String(stamped.byteLength));
    // The viewer reports the copy's reading under this id (it is stamped on the copy, too).
    headers.set("X-Download-Id", downloadId);
    return new Response(stamped as Uint8Array<ArrayBuffer>, { status: 200, headers });
  } catch (error) {
    if (signal.aborted) return clientGone();
    throw error;
  } finally {
    place.release();
  }
}

/** A place in the pool for the reader's copy; or the refusal, with when to try again. */
async function admit(pool: StampPool, readerId: string): Promise<StampPlace | Response> {
  let place: StampPlace;
  try {
    place = pool.reserve(readerId);
  } catch (error) {
    if (error instanceof ReaderBusy) return refusal(429, materialsMessages.readerBusy, STAMPING_RETRY_AFTER_SECONDS);
    if (error instanceof StampingBusy)
      return refusal(503, materialsMessages.stampingBusy, STAMPING_RETRY_AFTER_SECONDS);
    throw error;
  }
  try {
    const minute = await hitRateLimit(`stamped-copies:${readerId}`, copiesPerMinute());
    if (minute.allowed) return place;
    place.release();
    return refusal(429, materialsMessages.readerBusy, minute.retryAfterSeconds);
  } catch (error) {
    place.release();
    throw error;
  }
}

/** A refused copy's answer, as parts: the pool's and the edge's (copy-gate.server.ts) are the same answer. */
export function copyRefusalParts(status: 429 | 503, message: (seconds: number) => string, retryAfterSeconds: number) {
  return {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(retryAfterSeconds),
    },
    body: message(retryAfterSeconds),
  };
}

function refusal(status: 429 | 503, message: (seconds: number) => string, retryAfterSeconds: number) {
  const { body, ...init } = copyRefusalParts(status, message, retryAfterSeconds);
  return new Response(body, init);
}

/** No one is left to read it: an empty answer, logged as the client's (nginx's 499). */
function clientGone() {
  return new Response(null, { status: 499 });
}
