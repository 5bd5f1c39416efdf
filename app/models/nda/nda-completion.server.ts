/**
 * An NDA completes on the firm's countersignature, or on the investor's signature alone where the firm's
 * NDA is one-sided (NDA_ONE_SIDED): "NDA sent" and "NDA signed" are set by themselves, in the same
 * transaction as the signature, and both sides are then e-mailed the fully signed PDF.
 */
import { firm, firmSettings } from "~/content/firm";
import { ndaMessages } from "~/content/nda";
import type { Actor } from "~/models/administrators/admin-result.server";
import { changeWithAudit, recordAuditEvent, type AuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { completeBlob, deleteBlob, readWholeBlob, storeMadeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { trySendMail } from "~/server/mail.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";
import { ndaSigningKey } from "./nda-key.server";
import { renderSealed } from "./nda-pdf.server";

type Completion = { signatureId: string; userId: string; blobId: string; sha256: string };

/** Marks the signature complete with its final file, and sets both flags; its audit row carries them. */
export async function completeNda(
  db: OnlyWriter,
  record: (event: AuditEvent) => void,
  { signatureId, userId, blobId, sha256 }: Completion,
  actor?: Actor,
) {
  const at = now();
  await db
    .updateTable("nda_signatures")
    .set({ completed_blob_id: blobId, completed_sha256: sha256, completed_at: at })
    .where("id", "=", signatureId)
    .execute();
  const user = await db
    .updateTable("users")
    .set({ is_nda_sent: 1, is_nda_signed: 1, updated_at: at })
    .where("id", "=", userId)
    .returning(["id", "email"])
    .executeTakeFirst();
  record({
    actorId: actor?.id ?? user?.id ?? null,
    actorEmail: actor?.email ?? user?.email ?? null,
    action: "nda.completed",
    targetId: userId,
    targetEmail: user?.email ?? null,
    details: { signatureId, sha256, isNDASent: true, isNDASigned: true },
  });
}

/** The firm countersigns an investor's signed NDA: sealed afresh with both blocks, then completed and mailed. */
export async function countersignNda(
  actor: Actor & { fullName?: string },
  userId: string,
  ip: string | null,
): Promise<{ ok: true; sha256: string } | Failure<404 | 409>> {
  if (getEnv().nda.oneSided) return { ok: false, status: 409, message: ndaMessages.oneSided };
  const signature = await getDb()
    .selectFrom("nda_signatures")
    .innerJoin("nda_copies", "nda_copies.id", "nda_signatures.copy_id")
    .innerJoin("nda_consents", "nda_consents.id", "nda_signatures.consent_id")
    .selectAll("nda_signatures")
    .select([
      "nda_copies.blob_id as copy_blob_id",
      "nda_copies.sha256 as copy_sha256",
      "nda_consents.given_at as consent_given_at",
      "nda_consents.disclosure_version",
      "nda_consents.disclosure_sha256",
    ])
    .where("nda_signatures.user_id", "=", userId)
    .where("nda_signatures.kind", "=", "portal")
    .executeTakeFirst();
  if (!signature) return { ok: false, status: 409, message: ndaMessages.notSigned };
  if (signature.completed_at !== null) return { ok: false, status: 409, message: ndaMessages.alreadyCountersigned };
  const at = now();
  const signedAudit = await getDb()
    .selectFrom("audit_events")
    .select("id")
    .where("target_id", "=", userId)
    .where("action", "=", "nda.signed")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const sealed = await renderSealed(
    await readWholeBlob(signature.copy_blob_id),
    {
      investor: {
        typedName: signature.typed_name ?? "",
        signedAt: new Date(Number(signature.signed_at)),
        email: signature.email,
        ip: signature.ip,
        userAgent: signature.user_agent,
        authMethod: signature.auth_method ?? "",
        copySha256: signature.copy_sha256,
        consent: {
          id: signature.consent_id ?? "",
          givenAt: new Date(Number(signature.consent_given_at)),
          disclosureVersion: signature.disclosure_version,
          disclosureSha256: signature.disclosure_sha256,
        },
        auditRows: signedAudit ? [Number(signedAudit.id)] : [],
      },
      firm: { by: actor.email, at: new Date(at) },
      firmName: firmSettings.name,
    },
    ndaSigningKey(),
  );
  const blob = await storeMadeBlob(sealed);
  const done = await changeWithAudit(async (db, record) => {
    // Only where it is not countersigned yet: of two administrators at once, one countersigns.
    const claimed = await db
      .updateTable("nda_signatures")
      .set({ countersigned_by: actor.email, countersigned_at: at })
      .where("id", "=", signature.id)
      .where("countersigned_at", "is", null)
      .returning("id")
      .execute();
    if (claimed.length === 0) return false;
    await completeBlob(db, blob.id);
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "nda.countersigned",
      targetId: userId,
      targetEmail: signature.email,
      details: { signatureId: signature.id, sha256: blob.sha256 },
      ip,
    });
    await completeNda(db, record, { signatureId: signature.id, userId, blobId: blob.id, sha256: blob.sha256 }, actor);
    return true;
  });
  if (!done) {
    await deleteBlob(blob.id);
    return { ok: false, status: 409, message: ndaMessages.alreadyCountersigned };
  }
  await mailSignedNda(signature.id, ip);
  return { ok: true, sha256: blob.sha256 };
}

/** E-mails the fully signed PDF to the investor and to the firm, and records whether each went. */
export async function mailSignedNda(signatureId: string, ip: string | null) {
  const signature = await getDb()
    .selectFrom("nda_signatures")
    .select(["user_id", "email", "completed_blob_id"])
    .where("id", "=", signatureId)
    .executeTakeFirstOrThrow();
  if (!signature.completed_blob_id) return;
  const content = await readWholeBlob(signature.completed_blob_id);
  const attachments = [{ filename: "non-disclosure-agreement.pdf", content, contentType: "application/pdf" }];
  const link = new URL("/financing/materials", getEnv().appUrl).href;
  const investorMailed = await trySendMail({
    to: signature.email,
    subject: "Your signed non-disclosure agreement",
    text:
      `Thank you for signing the non-disclosure agreement with ${firm.shortName}. The fully signed agreement is attached; ` +
      `you can also download it from your account at any time.\n\nThe investor materials are now open to you:\n\n${link}\n`,
    attachments,
  });
  const firmMailed = await trySendMail({
    to: firm.mailboxes.investors,
    subject: `Signed non-disclosure agreement: ${signature.email}`,
    text: `The non-disclosure agreement with ${signature.email} is signed by both sides. The signed PDF is attached.`,
    attachments,
  });
  const event: AuditEvent = {
    action: "nda.mailed",
    targetId: signature.user_id,
    targetEmail: signature.email,
    details: { signatureId, investor: investorMailed, firm: firmMailed },
    ip,
  };
  await recordAuditEvent(event).catch((error: unknown) =>
    log("error", "audit.append_failed", { auditAction: event.action, targetId: signature.user_id, error }),
  );
}

/** The investors whose signature waits for the firm's, the longest waiting first. */
export async function waitingForCountersignature(): Promise<{ userId: string; email: string; signedAt: number }[]> {
  const rows = await getDb()
    .selectFrom("nda_signatures")
    .select(["user_id", "email", "signed_at"])
    .where("kind", "=", "portal")
    .where("completed_at", "is", null)
    .orderBy("signed_at")
    .execute();
  return rows.map((row) => ({ userId: row.user_id, email: row.email, signedAt: Number(row.signed_at) }));
}

/** How many wait for the firm's countersignature: the investors page's count. */
export async function waitingCount(): Promise<number> {
  const row = await getDb()
    .selectFrom("nda_signatures")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("kind", "=", "portal")
    .where("completed_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
