/**
 * The library's documents as an investor opens them: a PDF stamped for them and named after the
 * document, a video's bytes in ranges, a video's captions. Each request checks the document is open
 * to them (openableVersion: 404 for none, 403 outside its audience, audited); each PDF copy delivered, and
 * each viewing of a video, is recorded in the reading report and the audit trail.
 */
import type { AppLoadContext } from "@remix-run/node";
import { firm } from "~/content/firm";
import { materialsMessages } from "~/content/materials";
import type { PublicUser } from "~/models/account/user.server";
import { documentVersion, openableVersion, type OpenableVersion } from "~/models/library/library-access.server";
import type { LibraryDocument, VersionSummary } from "~/models/library/library-documents.server";
import { recordOpening } from "~/models/library/library-openings.server";
import { documentIdSchema } from "~/models/library/library-schema.server";
import { recordUndeliveredOpening } from "~/models/library/undelivered-copy.server";
import { readBlobRange, readWholeBlob } from "~/server/blob-store.server";
import { requireNdaSigned } from "./auth.server";
import { opensNewViewing, rangedResponse, VIDEO_VIEWING_WINDOW_MS } from "./private-file.server";
import { stampedPdfResponse } from "./stamped-pdf.server";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" };

/** A version's number as versions are numbered, from 1. */
const VERSION_NUMBER = /^[1-9]\d{0,8}$/;

/** The signed-in user and the latest version of the document they may open; else the refusal is thrown. */
export async function requireOpenableDocument(
  request: Request,
  documentId: string | undefined,
  ip: string | null,
): Promise<{ user: PublicUser } & OpenableVersion> {
  const user = await requireNdaSigned(request);
  return { user, ...(await openableDocumentFor(user, documentId, ip)) };
}

/** The latest version of the document the user may open; else the refusal (404 or 403) is thrown. */
export async function openableDocumentFor(
  user: PublicUser,
  documentId: string | undefined,
  ip: string | null,
): Promise<OpenableVersion> {
  const id = documentIdSchema.safeParse(documentId);
  if (!id.success) throw new Response(materialsMessages.notFound, { status: 404, headers: TEXT_HEADERS });
  const openable = await openableVersion(user, id.data, ip);
  if (!openable.ok) throw new Response(openable.message, { status: openable.status, headers: TEXT_HEADERS });
  const { ok: _ok, ...version } = openable;
  return version;
}

/**
 * `inline`, named after the firm and the document ("Northbeam - Slide deck.pdf"): plain ASCII for old
 * clients, and the exact name in UTF-8 (RFC 6266) for the rest.
 */
export function inlineDisposition(title: string, extension: string) {
  const name = `${firm.shortName} - ${title}.${extension}`.replace(/[\\/]/g, "-");
  const ascii = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["%]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Whether the browser asked for the file to show it as a page (a link followed, an address typed), not
 * for a script: the viewer fetches its copy (Sec-Fetch-Dest: empty). Without Sec-Fetch headers, a browser
 * navigating asks for HTML first.
 */
export function opensAsDocument(request: Request): boolean {
  const destination = request.headers.get("Sec-Fetch-Dest");
  if (destination) return ["document", "iframe", "frame", "embed", "object"].includes(destination);
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/** A PDF of the library (its latest version), stamped for the user as of now. */
export function serveLibraryPdf(request: Request, user: PublicUser, openable: OpenableVersion, ip: string | null) {
  const { document, blobId } = openable;
  return servePdf(request, user, { document, version: document.latest, blobId }, document.title, ip);
}

/** A video of the library (its latest version) in byte ranges; the first request of a viewing records the opening. */
export function serveLibraryVideo(
  request: Request,
  user: PublicUser,
  openable: OpenableVersion,
  context: ServeContext,
) {
  const { document, blobId } = openable;
  return serveVideo(request, user, { document, version: document.latest, blobId }, document.title, context);
}

type ServedVersion = { document: LibraryDocument; version: VersionSummary; blobId: string };

/** Who asked, and the pace their response is read at (app/load-context.ts). */
export type ServeContext = Pick<AppLoadContext, "clientIp" | "untilWritable">;

function servePdf(request: Request, user: PublicUser, served: ServedVersion, name: string, ip: string | null) {
  return stampedPdfResponse({
    request,
    user,
    contentDisposition: inlineDisposition(name, "pdf"),
    source: () => readWholeBlob(served.blobId),
    record: (downloadId) => recordOpening(user, served.document, ip, served.version, downloadId),
    undelivered: (downloadId) => recordUndeliveredOpening(user, served.document, served.version, downloadId, ip),
  });
}

async function serveVideo(
  request: Request,
  user: PublicUser,
  served: ServedVersion,
  name: string,
  { clientIp, untilWritable }: ServeContext,
) {
  const { document, version, blobId } = served;
  const viewing = `viewing:${version.id}:${user.id}`;
  if (request.method !== "HEAD" && (await opensNewViewing(viewing, VIDEO_VIEWING_WINDOW_MS)))
    await recordOpening(user, document, clientIp, version);
  return rangedResponse({
    request,
    size: version.size,
    contentType: version.contentType,
    contentDisposition: inlineDisposition(name, "mp4"),
    body: (start, end) => readBlobRange(blobId, start, end, { signal: request.signal, untilWritable }),
  });
}

/** A video's WebVTT captions; 404 when it has none. */
export async function serveLibraryCaptions(openable: OpenableVersion) {
  if (!openable.captionsBlobId)
    throw new Response(materialsMessages.noCaptions, { status: 404, headers: TEXT_HEADERS });
  return new Response(new Uint8Array(await readWholeBlob(openable.captionsBlobId)), {
    headers: { "Content-Type": "text/vtt; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}

/**
 * One version of a document, for an administrator: a PDF stamped for them like any copy, a video in ranges
 * (its captions are the latest version's page's). Each is an opening of that version, on record.
 */
export async function serveLibraryVersion(
  request: Request,
  user: PublicUser,
  documentId: string | undefined,
  number: string | undefined,
  context: ServeContext,
) {
  const id = documentIdSchema.safeParse(documentId);
  const found =
    id.success && number && VERSION_NUMBER.test(number) ? await documentVersion(id.data, Number(number)) : null;
  if (!found) throw new Response(materialsMessages.noSuchVersion, { status: 404, headers: TEXT_HEADERS });
  const name = `${found.document.title} (version ${found.version.number})`;
  return found.document.kind === "pdf"
    ? servePdf(request, user, found, name, context.clientIp)
    : serveVideo(request, user, found, name, context);
}
