/**
 * An NDA signed outside the portal, as an administrator records it when marking it completed by hand: an
 * `nda_signatures` row of kind "outside" with the reason and, where given, the signed copy as a blob. It
 * takes the investor's one signature (nda_signatures_user), so the portal offers them no signing; marking
 * the NDA not completed again removes it (docs/decisions/0034-nda-signed-in-the-portal.md).
 */
import { randomUUID } from "node:crypto";
import { ndaMessages } from "~/content/nda";
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import type { Actor } from "~/models/administrators/admin-result.server";
import type { AuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { looksLikePdf } from "~/models/library/material-file.server";
import { getDb } from "~/server/db.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";

export type OutsideFile = { bytes: Uint8Array; fileName: string };

/** The signed copy is judged by its bytes, as the library's files are: a PDF's header, within the PDF limit. */
export function outsideFileRefusal(file: OutsideFile | null): Failure<413 | 415> | null {
  if (!file) return null;
  if (!looksLikePdf(file.bytes.subarray(0, 8))) return { ok: false, status: 415, message: ndaMessages.outsideNotPdf };
  if (file.bytes.byteLength > MATERIAL_LIMITS.pdf) {
    return { ok: false, status: 413, message: ndaMessages.outsideTooLarge };
  }
  return null;
}

/** Why the investor's NDA cannot be recorded as signed outside: a signature of either kind is there already. */
export async function outsideRecordRefusal(userId: string): Promise<Failure<409> | null> {
  const signature = await getDb()
    .selectFrom("nda_signatures")
    .select("kind")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!signature) return null;
  const message = signature.kind === "portal" ? ndaMessages.outsideSignedInPortal : ndaMessages.outsideCompletedAlready;
  return { ok: false, status: 409, message };
}

type OutsideRecord = {
  actor: Actor;
  investor: { id: string; email: string };
  reason: string;
  file: { blobId: string; sha256: string; fileName: string } | null;
  at: number;
  ip?: string | null;
};

/** Writes the record in the caller's transaction, with its audit row (which carries both flags, now set). */
export async function insertOutsideRecord(
  db: OnlyWriter,
  record: (event: AuditEvent) => void,
  { actor, investor, reason, file, at, ip }: OutsideRecord,
) {
  const signatureId = randomUUID();
  await db
    .insertInto("nda_signatures")
    .values({
      id: signatureId,
      user_id: investor.id,
      email: investor.email,
      kind: "outside",
      copy_id: null,
      consent_id: null,
      typed_name: null,
      signed_at: at,
      ip: null,
      user_agent: null,
      auth_method: null,
      signed_blob_id: file?.blobId ?? null,
      signed_sha256: file?.sha256 ?? null,
      countersigned_by: null,
      countersigned_at: null,
      completed_blob_id: null,
      completed_sha256: null,
      completed_at: at,
      reason,
    })
    .execute();
  record({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "nda.recorded_outside",
    targetId: investor.id,
    targetEmail: investor.email,
    details: {
      signatureId,
      reason,
      ...(file ? { file: file.fileName, sha256: file.sha256 } : {}),
      state: true,
      isNDASent: true,
      isNDASigned: true,
    },
    ip,
  });
}

/**
 * Removes the investor's record of an NDA signed outside, if there is one, in the caller's transaction (the
 * flag was just cleared): audited with what it held. Returns its file's blob, to delete once committed.
 */
export async function removeOutsideRecord(
  db: OnlyWriter,
  record: (event: AuditEvent) => void,
  { actor, investor, ip }: { actor: Actor; investor: { id: string; email: string }; ip?: string | null },
): Promise<string | null> {
  const removed = await db
    .deleteFrom("nda_signatures")
    .where("user_id", "=", investor.id)
    .where("kind", "=", "outside")
    .returning(["id", "reason", "signed_blob_id", "signed_sha256"])
    .executeTakeFirst();
  if (!removed) return null;
  record({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "nda.outside_removed",
    targetId: investor.id,
    targetEmail: investor.email,
    details: {
      signatureId: removed.id,
      reason: removed.reason,
      ...(removed.signed_sha256 ? { sha256: removed.signed_sha256 } : {}),
    },
    ip,
  });
  return removed.signed_blob_id;
}
