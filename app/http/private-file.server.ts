/**
 * Streams an NDA-protected file from private/ to a user the caller has already
 * let in: whole (200), one byte range (206) or an unsatisfiable range (416),
 * never cached by a browser or a proxy, and written to the audit log once per
 * viewing: a browser fetches a video in dozens of ranges, which would otherwise
 * bury the trail in rows that say nothing more. The library's videos, whose
 * bytes are in the database, are answered the same way (library-file.server.ts). The PDF is not streamed as
 * stored: each download is stamped for its investor and audited
 * (stamped-pdf.server.ts).
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { PublicUser } from "~/models/account/user.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { hitRateLimit } from "~/server/rate-limit.server";

export const PRIVATE_DIR = path.resolve(process.cwd(), "private");

type PrivateFile = { name: string; contentType: string };

/** A file fetched in ranges: one audit row for each user's viewing, the requests within this window. */
type RangedFile = PrivateFile & { viewingWindowMs: number };

/** A viewing of the video: its range requests within half an hour are one audit row. */
export const VIDEO_VIEWING_WINDOW_MS = 30 * 60 * 1000;

export const PRIVATE_FILES = {
  pdf: { name: "download.pdf", contentType: "application/pdf" },
  investorVideo: { name: "investorvideo.mp4", contentType: "video/mp4", viewingWindowMs: VIDEO_VIEWING_WINDOW_MS },
} as const satisfies { pdf: PrivateFile; investorVideo: RangedFile };

type ByteRange = { start: number; end: number };

/**
 * One `bytes=` range, as RFC 9110 reads it: `a-b`, `a-` or `-n`. Null means
 * "no usable Range header" (answer the whole file); "unsatisfiable" means 416.
 * Several ranges are answered with the whole file, which the RFC allows.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

export async function servePrivateFile({
  request,
  user,
  file,
  ip,
}: {
  request: Request;
  user: PublicUser;
  file: RangedFile;
  ip?: string | null;
}): Promise<Response> {
  const filePath = path.join(PRIVATE_DIR, file.name);
  const { size } = await fs.stat(filePath);
  if (await opensNewViewing(`audit:${file.name}:${user.id}`, file.viewingWindowMs)) {
    await recordAuditEvent({
      actorId: user.id,
      actorEmail: user.email,
      action: "file.viewed",
      details: { file: file.name, range: request.headers.get("Range") ?? null, method: request.method },
      ip: ip ?? null,
    });
  }
  return rangedResponse({
    request,
    size,
    contentType: file.contentType,
    contentDisposition: `inline; filename="${file.name}"`,
    body: (start, end) => Readable.toWeb(createReadStream(filePath, { start, end })) as ReadableStream<Uint8Array>,
  });
}

/**
 * A file's answer to a GET or HEAD: whole (200), one byte range (206) or an unsatisfiable range (416),
 * never cached by a browser or a proxy. `body` is asked for the bytes only when they are sent.
 */
export function rangedResponse({
  request,
  size,
  contentType,
  contentDisposition,
  body,
}: {
  request: Request;
  size: number;
  contentType: string;
  contentDisposition: string;
  body: (start: number, end: number) => ReadableStream<Uint8Array>;
}): Response {
  const range = parseRange(request.headers.get("Range"), size);
  const headers = new Headers({
    "Content-Type": contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, no-store",
    "Content-Disposition": contentDisposition,
  });
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    headers.delete("Content-Type");
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers.set("Content-Length", String(size === 0 ? 0 : end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const status = range ? 206 : 200;
  if (request.method === "HEAD" || size === 0) return new Response(null, { status, headers });
  return new Response(body(start, end), { status, headers });
}

/**
 * The viewings this process has already seen open, by key, until their window ends. A player asks for a
 * video in dozens of ranges: only the first of a viewing writes to the database's window, the rest are
 * answered from here without a write. Losing it (a restart, another instance) costs at most one more
 * look at the database's window, which still holds the viewing.
 */
const viewingsSeenHere = new Map<string, number>();
const VIEWINGS_KEPT = 10_000;

/** Whether this request is the first of a viewing: of the requests under `key` within the window. */
export async function opensNewViewing(key: string, windowMs: number): Promise<boolean> {
  const at = now();
  const seenUntil = viewingsSeenHere.get(key);
  if (seenUntil !== undefined && seenUntil > at) return false;
  const result = await hitRateLimit(key, { limit: 1, windowMs });
  if (viewingsSeenHere.size >= VIEWINGS_KEPT) {
    for (const [kept, until] of viewingsSeenHere) if (until <= at) viewingsSeenHere.delete(kept);
    if (viewingsSeenHere.size >= VIEWINGS_KEPT) viewingsSeenHere.clear();
  }
  viewingsSeenHere.set(key, result.allowed ? at + windowMs : at + result.retryAfterSeconds * 1000);
  return result.allowed;
}
