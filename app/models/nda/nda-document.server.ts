/**
 * The investor's NDA as a file: once signed, what they signed (the fully signed file once complete); before,
 * the copy offered for review. Each opening is an audit row: "opened" for the copy, "downloaded" after.
 */
import { recordAuditEvent } from "~/models/audit/audit.server";
import { readWholeBlob } from "~/server/blob-store.server";
import { getDb } from "~/server/db.server";
import { copyToReview } from "./nda-copies.server";

export type NdaFile = { bytes: Buffer; fileName: string; sha256: string };

/** Whether the investor has a signed file to download: what they signed in the portal, or a copy attached to one signed outside. */
export async function hasSignedNdaFile(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("nda_signatures")
    .select(["signed_blob_id", "completed_blob_id"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Boolean(row?.completed_blob_id ?? row?.signed_blob_id);
}

export async function investorNdaFile(user: { id: string; email: string }, ip: string | null): Promise<NdaFile | null> {
  const signed = await getDb()
    .selectFrom("nda_signatures")
    .select(["id", "signed_blob_id", "signed_sha256", "completed_blob_id", "completed_sha256"])
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  const blobId = signed?.completed_blob_id ?? signed?.signed_blob_id;
  const sha256 = signed?.completed_sha256 ?? signed?.signed_sha256;
  if (signed && blobId && sha256) {
    await recordAuditEvent({
      actorId: user.id,
      actorEmail: user.email,
      action: "nda.downloaded",
      targetId: user.id,
      targetEmail: user.email,
      details: { signatureId: signed.id, sha256 },
      ip,
    });
    return { bytes: await readWholeBlob(blobId), fileName: "non-disclosure-agreement-signed.pdf", sha256 };
  }
  if (signed) return null;
  const copy = await copyToReview(user.id, ip);
  if (!copy.ok) return null;
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "nda.opened",
    targetId: user.id,
    targetEmail: user.email,
    details: { copyId: copy.copy.id, sha256: copy.copy.sha256 },
    ip,
  });
  return {
    bytes: await readWholeBlob(copy.copy.blobId),
    fileName: "non-disclosure-agreement.pdf",
    sha256: copy.copy.sha256,
  };
}

/**
 * An investor's signed NDA as an administrator downloads it from the investor's page: "signed" is the file
 * the investor signed (or the copy attached for one signed outside the portal), "completed" the fully
 * signed one. Null where there is no such file. The download is an audit row, as the investor's own is.
 */
export async function ndaFileForAdministrator(
  userId: string,
  which: "signed" | "completed",
  actor: { id: string; email: string },
  ip: string | null,
): Promise<NdaFile | null> {
  const row = await getDb()
    .selectFrom("nda_signatures")
    .select(["id", "email", "signed_blob_id", "signed_sha256", "completed_blob_id", "completed_sha256"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  const blobId = which === "signed" ? row?.signed_blob_id : row?.completed_blob_id;
  const sha256 = which === "signed" ? row?.signed_sha256 : row?.completed_sha256;
  if (!row || !blobId || !sha256) return null;
  await recordAuditEvent({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "nda.downloaded",
    targetId: userId,
    targetEmail: row.email,
    details: { signatureId: row.id, sha256 },
    ip,
  });
  return { bytes: await readWholeBlob(blobId), fileName: `non-disclosure-agreement-${which}.pdf`, sha256 };
}
