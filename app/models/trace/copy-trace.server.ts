/**
 * Whose copy is this (issue 53, item 7): a download id, pasted or read from a PDF found outside, answered with
 * the reader it was stamped for, when it was delivered, which document and version, and the address it went
 * to. A library document's copy is its opening's row (document_opens, by its id, the primary key); the address,
 * and the copies the reading report does not keep (the shipped investor PDF, a copy that was not delivered),
 * are in the audit trail, whose rows of copies carry the id: those are read by action, then by the id in their
 * details (decision 0036). Every lookup is audited itself.
 */
import type { PublicUser } from "~/models/account/user.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { getDb } from "~/server/db.server";

export type TracedCopy = {
  downloadId: string;
  reader: { id: string | null; email: string; fullName: string | null };
  deliveredAt: number;
  /** The library's document, or null for the shipped investor PDF (whose file name is `file`). */
  document: { id: string; title: string } | null;
  file: string | null;
  version: number | null;
  ip: string | null;
  /** False when the reader's client went before the last byte: the copy was made, and may be partial. */
  delivered: boolean;
};

/** The audit rows that record a copy, and those that record a copy not delivered. */
const COPY_ACTIONS = ["material.opened", "file.download"] as const;
const UNDELIVERED_ACTIONS = ["material.undelivered", "file.undelivered"] as const;

type CopyDetails = { downloadId?: unknown; title?: unknown; version?: unknown; documentId?: unknown; file?: unknown };

/** The copy with this download id (lower case), or null if this portal never made it. */
export async function traceDownloadId(downloadId: string): Promise<TracedCopy | null> {
  return (await libraryCopy(downloadId)) ?? (await copyOnRecord(downloadId));
}

/** The audit rows of copies that carry this download id, oldest first; only the reader's own, when known. */
async function copyRows(downloadId: string, readerId?: string) {
  let rows = getDb()
    .selectFrom("audit_events")
    .select(["action", "actor_id", "actor_email", "details", "ip", "at"])
    .where("action", "in", [...COPY_ACTIONS, ...UNDELIVERED_ACTIONS])
    .where("details", "like", `%"downloadId":"${downloadId}"%`);
  if (readerId) rows = rows.where("actor_id", "=", readerId);
  const found = await rows.orderBy("id").execute();
  return found.filter((row) => (JSON.parse(row.details ?? "{}") as CopyDetails).downloadId === downloadId);
}

/** A library document's copy, from its opening's row (the reading report's), its address from the audit trail. */
async function libraryCopy(downloadId: string): Promise<TracedCopy | null> {
  const opening = await getDb()
    .selectFrom("document_opens as o")
    .innerJoin("users as u", "u.id", "o.user_id")
    .innerJoin("documents as d", "d.id", "o.document_id")
    .innerJoin("document_versions as v", "v.id", "o.version_id")
    .select(["u.id as userId", "u.email", "u.full_name", "o.opened_at", "d.id as documentId", "d.title", "v.number"])
    .where("o.id", "=", downloadId)
    .executeTakeFirst();
  if (!opening) return null;
  const made = (await copyRows(downloadId, opening.userId)).find((row) => row.action === "material.opened");
  return {
    downloadId,
    reader: { id: opening.userId, email: opening.email, fullName: opening.full_name },
    deliveredAt: Number(opening.opened_at),
    document: { id: opening.documentId, title: opening.title },
    file: null,
    version: Number(opening.number),
    ip: made?.ip ?? null,
    delivered: true,
  };
}

/** A copy the reading report does not keep (the shipped investor PDF, a copy not delivered), from the audit trail. */
async function copyOnRecord(downloadId: string): Promise<TracedCopy | null> {
  const found = await copyRows(downloadId);
  const made = found.find((row) => (COPY_ACTIONS as readonly string[]).includes(row.action));
  if (!made) return null;
  const details = JSON.parse(made.details ?? "{}") as CopyDetails;
  const reader = made.actor_id
    ? await getDb()
        .selectFrom("users")
        .select(["id", "email", "full_name"])
        .where("id", "=", made.actor_id)
        .executeTakeFirst()
    : undefined;
  const documentId = typeof details.documentId === "string" ? details.documentId : null;
  return {
    downloadId,
    reader: reader
      ? { id: reader.id, email: reader.email, fullName: reader.full_name }
      : { id: null, email: made.actor_email ?? "", fullName: null },
    deliveredAt: Number(made.at),
    document: documentId ? { id: documentId, title: typeof details.title === "string" ? details.title : "" } : null,
    file: typeof details.file === "string" ? details.file : null,
    version: typeof details.version === "number" ? details.version : null,
    ip: made.ip,
    delivered: !found.some((row) => (UNDELIVERED_ACTIONS as readonly string[]).includes(row.action)),
  };
}

export type TraceSource = "pasted" | "upload";

/** Looks the id up (null: an uploaded PDF that carries none) and records the lookup; the copy, or null. */
export async function traceCopy(
  downloadId: string | null,
  { user, ip, source }: { user: Pick<PublicUser, "id" | "email">; ip: string | null; source: TraceSource },
): Promise<TracedCopy | null> {
  const copy = downloadId ? await traceDownloadId(downloadId) : null;
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "copy.traced",
    targetId: copy?.reader.id ?? null,
    targetEmail: copy?.reader.email ?? null,
    details: { downloadId, source, found: copy !== null },
    ip,
  });
  return copy;
}
