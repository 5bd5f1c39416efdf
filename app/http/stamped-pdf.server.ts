/**
 * A PDF, stamped for the one who downloads it: their name, e-mail, the time and a new download id on
 * every page, the same id in the document's metadata and that download's record. A leaked copy names
 * its source. Each copy is unique, so it is answered whole (no byte ranges) and never cached. The
 * shipped investor PDF (/pdfs/download.pdf) and the library's PDFs are served alike.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { materialsMessages } from "~/content/materials";
import { materialsStamp } from "~/content/portal";
import { formatRegistrationTime } from "~/lib/investor-table";
import { recordAuditEvent } from "~/models/audit.server";
import type { PublicUser } from "~/models/user.server";
import { now } from "~/server/clock.server";
import { STAMPING_RETRY_AFTER_SECONDS, stampPool, StampingBusy, type StampPool } from "~/server/stamp-pool.server";
import { PRIVATE_DIR, PRIVATE_FILES } from "./private-file.server";

const PDF = PRIVATE_FILES.pdf;

export async function serveStampedPdf({
  request,
  user,
  ip,
}: {
  request: Request;
  user: PublicUser;
  ip?: string | null;
}): Promise<Response> {
  return stampedPdfResponse({
    request,
    user,
    contentDisposition: `inline; filename="${PDF.name}"`,
    source: () => fs.readFile(path.join(PRIVATE_DIR, PDF.name)),
    record: async () => {
      const downloadId = randomUUID();
      await recordAuditEvent({
        actorId: user.id,
        actorEmail: user.email,
        action: "file.download",
        details: { file: PDF.name, downloadId },
        ip: ip ?? null,
      });
      return downloadId;
    },
  });
}

/**
 * The stamped copy's answer. `record` writes the download wherever it is kept and returns its id; it
 * runs before a byte leaves, so a copy that is not on record is never served. A HEAD request is told
 * what it would get: no copy is made, so nothing is recorded. The copy is stamped on the pool's threads
 * (app/server/stamp-pool.server.ts); when they are all busy and their queue is full, the answer is 503
 * with Retry-After, before anything is read or recorded.
 */
export async function stampedPdfResponse({
  request,
  user,
  contentDisposition,
  source,
  record,
  pool = stampPool(),
}: {
  request: Request;
  user: Pick<PublicUser, "fullName" | "email">;
  contentDisposition: string;
  source: () => Promise<Uint8Array>;
  record: () => Promise<string>;
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

  let place: ReturnType<StampPool["reserve"]>;
  try {
    place = pool.reserve();
  } catch (error) {
    if (!(error instanceof StampingBusy)) throw error;
    return new Response(materialsMessages.stampingBusy(STAMPING_RETRY_AFTER_SECONDS), {
      status: 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": String(STAMPING_RETRY_AFTER_SECONDS),
      },
    });
  }
  try {
    const original = await source();
    const downloadId = await record();
    const stamped = await place.stamp(
      original,
      materialsStamp({
        fullName: user.fullName,
        email: user.email,
        downloadedAt: formatRegistrationTime(new Date(now()).toISOString()),
        downloadId,
      }),
    );
    headers.set("Content-Length", String(stamped.byteLength));
    return new Response(stamped as Uint8Array<ArrayBuffer>, { status: 200, headers });
  } finally {
    place.release();
  }
}
