/**
 * The investor PDF, stamped for the one who downloads it: their name, e-mail, the time and a new
 * download id on every page, the same id in the document's metadata and that download's audit row.
 * A leaked copy names its source. Each copy is unique, so it is answered whole (no byte ranges) and
 * never cached.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { materialsStamp } from "~/content/portal";
import { formatRegistrationTime } from "~/lib/investor-table";
import { recordAuditEvent } from "~/models/audit.server";
import type { PublicUser } from "~/models/user.server";
import { now } from "~/server/clock.server";
import { stampPdf } from "~/server/pdf-stamp.server";
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
  const headers = new Headers({
    "Content-Type": PDF.contentType,
    // A byte range of one copy cannot be joined to a range of another: the whole copy each time.
    "Accept-Ranges": "none",
    "Cache-Control": "private, no-store",
    "Content-Disposition": `inline; filename="${PDF.name}"`,
  });
  // A HEAD request is told what it would get; no copy is made, so nothing is recorded.
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });

  const downloadId = randomUUID();
  const downloadedAt = now();
  const stamped = await stampPdf(
    await fs.readFile(path.join(PRIVATE_DIR, PDF.name)),
    materialsStamp({
      fullName: user.fullName,
      email: user.email,
      downloadedAt: formatRegistrationTime(new Date(downloadedAt).toISOString()),
      downloadId,
    }),
  );
  // Recorded before a byte leaves: a copy that is not in the trail is never served.
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "file.download",
    details: { file: PDF.name, downloadId },
    ip: ip ?? null,
  });
  headers.set("Content-Length", String(stamped.byteLength));
  return new Response(stamped as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
