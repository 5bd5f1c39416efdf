/**
 * An administrator marks an investor's NDA sent or signed (signed implies sent, docs/requirements.md,
 * "Data"), only once the investor is ready for one, in the same UPDATE; signing mails the investor that
 * the materials are open. Marked signed on the investor's page, it is recorded as signed outside the portal
 * with a reason and the signed copy (app/models/nda/nda-outside.server.ts); clearing "signed" by any way
 * removes that record.
 */
import { sql } from "kysely";
import { z } from "zod";
import { apiMessages } from "~/content/api-messages";
import { portalEmails } from "~/content/emails";
import { investorPageContent } from "~/content/investor-page";
import { ndaMessages } from "~/content/nda";
import { emailSchema } from "~/models/account/account-schemas.server";
import { normalizeEmail, toPublicUser, type PublicUser, type PublicUserRow } from "~/models/account/user.server";
import { notFound, type Actor, type AdminFailure, type AdminResult } from "~/models/administrators/admin-result.server";
import { changeWithAudit, recordAuditEvent, type AuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import {
  insertOutsideRecord,
  outsideFileRefusal,
  outsideRecordRefusal,
  removeOutsideRecord,
  type OutsideFile,
} from "~/models/nda/nda-outside.server";
import { completeBlob, deleteBlob, storeMadeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { trySendMail } from "~/server/mail.server";
import type { OnlyWriter } from "~/server/sql-dialect.server";

type FlagInput = { actor: Actor; email: string; state: boolean; ip?: string | null };

async function investorByEmail(email: string) {
  return getDb()
    .selectFrom("users")
    .selectAll()
    .where("email", "=", normalizeEmail(email))
    .where("role", "=", "investor")
    .executeTakeFirst();
}

const ndaRefusals = investorPageContent.errors;

/** Sets "NDA sent"; setting it to No also clears "NDA signed". */
export async function setNdaSent({ actor, email, state, ip }: FlagInput): Promise<AdminResult<{ user: PublicUser }>> {
  const investor = await investorByEmail(email);
  if (!investor) return notFound;
  const flags = state ? ({ is_nda_sent: 1 } as const) : ({ is_nda_sent: 0, is_nda_signed: 0 } as const);
  const { row, removedBlob } = await changeWithAudit(async (db, record) => {
    const row = await writeNdaFlags(db, investor.id, flags, { onlyIfReady: state });
    if (row) record(ndaChange({ action: "nda.sent.changed", actor, row, ip, state }));
    const removedBlob = row && !state ? await removeOutsideRecord(db, record, { actor, investor, ip }) : null;
    return { row, removedBlob };
  });
  if (removedBlob) await deleteBlob(removedBlob);
  if (!row) return whyNotMarked(investor.id);
  return { ok: true, user: toPublicUser(row) };
}

/** Sets "NDA signed"; setting it to Yes also sets "NDA sent", and tells the investor the materials are open. */
export async function setNdaSigned({ actor, email, state, ip }: FlagInput): Promise<AdminResult<{ user: PublicUser }>> {
  const investor = await investorByEmail(email);
  if (!investor) return notFound;
  // "Signed" is set only where it was not, in one statement: of two requests at once (two administrators,
  // or a retry on another instance) exactly one finds it newly signed, and only that one mails.
  const flags = state ? ({ is_nda_sent: 1, is_nda_signed: 1 } as const) : ({ is_nda_signed: 0 } as const);
  const { row, signedNow, removedBlob } = await changeWithAudit(async (db, record) => {
    const signedNow = state
      ? await writeNdaFlags(db, investor.id, flags, { unlessSigned: true, onlyIfReady: true })
      : undefined;
    const row = signedNow ?? (await writeNdaFlags(db, investor.id, flags, { onlyIfReady: state }));
    if (row) record(ndaChange({ action: "nda.signed.changed", actor, row, ip, state }));
    const removedBlob = row && !state ? await removeOutsideRecord(db, record, { actor, investor, ip }) : null;
    return { row, signedNow, removedBlob };
  });
  if (removedBlob) await deleteBlob(removedBlob);
  if (!row) return whyNotMarked(investor.id);
  if (signedNow) await announceMaterialsOpen(actor, signedNow, ip);
  return { ok: true, user: toPublicUser(row) };
}

type OutsideInput = { actor: Actor; id: string; reason: string; file: OutsideFile | null; ip?: string | null };

/**
 * Marks the NDA completed by hand for one signed outside the portal, from the investor's page: the flags as
 * "signed: yes" sets them, and in the same transaction the record of it with its reason and the signed copy.
 * Refused, with nothing stored, for a file that is not a PDF, an NDA completed already or signed in the
 * portal, or an investor not ready for one.
 */
export async function markNdaSignedOutside({
  actor,
  id,
  reason,
  file,
  ip,
}: OutsideInput): Promise<AdminResult<{ user: PublicUser }> | Failure<409 | 413 | 415>> {
  const refusedFile = outsideFileRefusal(file);
  if (refusedFile) return refusedFile;
  const investor = await getDb()
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
  if (!investor) return notFound;
  const refused = await outsideRecordRefusal(investor.id);
  if (refused) return refused;
  const blob = file ? await storeMadeBlob(file.bytes) : null;
  let signedNow: PublicUserRow | undefined;
  try {
    signedNow = await changeWithAudit(async (db, record) => {
      const row = await writeNdaFlags(
        db,
        investor.id,
        { is_nda_sent: 1, is_nda_signed: 1 },
        { unlessSigned: true, onlyIfReady: true },
      );
      if (!row) return undefined;
      const attached = blob && file && { blobId: blob.id, sha256: blob.sha256, fileName: file.fileName };
      await insertOutsideRecord(db, record, {
        actor,
        investor,
        reason,
        file: attached,
        at: Number(row.updated_at),
        ip,
      });
      if (blob) await completeBlob(db, blob.id);
      return row;
    });
  } catch (error) {
    if (blob) await deleteBlob(blob.id);
    // A signature in the portal taken meanwhile: the database kept that one (nda_signatures_user).
    const meanwhile = await outsideRecordRefusal(investor.id);
    if (meanwhile) return meanwhile;
    throw error;
  }
  if (!signedNow) {
    if (blob) await deleteBlob(blob.id);
    const signed = await getDb().selectFrom("users").select("is_nda_signed").where("id", "=", id).executeTakeFirst();
    if (signed?.is_nda_signed === 1) return { ok: false, status: 409, message: ndaMessages.outsideCompletedAlready };
    return whyNotMarked(investor.id);
  }
  await announceMaterialsOpen(actor, signedNow, ip);
  return { ok: true, user: toPublicUser(signedNow) };
}

/** Mails the investor newly signed that the materials are open, after the change is stored, and audits it. */
async function announceMaterialsOpen(actor: Actor, signedNow: PublicUserRow, ip?: string | null) {
  // After the change is stored: the mail cannot be taken back, so it goes only for a change that is kept.
  const mailed = await mailMaterialsOpen(signedNow);
  const event: AuditEvent = {
    actorId: actor.id,
    actorEmail: actor.email,
    action: "investor.materials_mailed",
    targetId: signedNow.id,
    targetEmail: signedNow.email,
    details: { mailed },
    ip,
  };
  // The signature stands and the mail has gone (or not): a 503 now would say otherwise, and a retry would
  // not mail again. The outcome is kept in the log instead.
  await recordAuditEvent(event).catch((error: unknown) =>
    log("error", "audit.append_failed", { auditAction: event.action, targetId: signedNow.id, mailed, error }),
  );
}

/**
 * The investor's row after the change; undefined if the investor is gone (or, `unlessSigned`, signed
 * already; or, `onlyIfReady`, not ready for an NDA). Readiness is part of the write, so an investor is never
 * marked on the strength of a state read before a change (docs/decisions/0017).
 */
function writeNdaFlags(
  db: OnlyWriter,
  id: string,
  flags: { is_nda_sent?: 0 | 1; is_nda_signed?: 0 | 1 },
  { unlessSigned = false, onlyIfReady = false } = {},
) {
  let update = db
    .updateTable("users")
    .set({ ...flags, updated_at: now() })
    .where("id", "=", id)
    .where("role", "=", "investor");
  if (unlessSigned) update = update.where("is_nda_signed", "=", 0);
  if (onlyIfReady) update = update.where(readyForNda());
  return update.returningAll().executeTakeFirst();
}

/** An NDA is marked sent or signed only for a verified address with a name and address given. */
function readyForNda() {
  return sql<boolean>`(email_verified_at is not null and trim(full_name) <> '' and trim(address) <> '')`;
}

/** Why a flag was not set: the investor is gone, or (read after the write) not ready for an NDA. */
async function whyNotMarked(id: string): Promise<AdminFailure> {
  const row = await getDb()
    .selectFrom("users")
    .select(["email_verified_at", "full_name", "address"])
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
  if (!row) return notFound;
  if (row.email_verified_at === null) return { ok: false, status: 409, message: ndaRefusals.ndaNeedsVerified };
  if (!row.full_name.trim() || !row.address.trim()) {
    return { ok: false, status: 409, message: ndaRefusals.ndaNeedsDetails };
  }
  // Ready now, after all: made ready between the write and this read. Asking again will do.
  return { ok: false, status: 409, message: ndaRefusals.ndaRetry };
}

/** The audit row of a change of a flag, with both flags as they now stand. */
function ndaChange({
  action,
  actor,
  row,
  ip,
  state,
}: {
  action: "nda.sent.changed" | "nda.signed.changed";
  actor: Actor;
  row: PublicUserRow;
  ip?: string | null;
  state: boolean;
}): AuditEvent {
  return {
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetId: row.id,
    targetEmail: row.email,
    details: { state, isNDASent: row.is_nda_sent === 1, isNDASigned: row.is_nda_signed === 1 },
    ip,
  };
}

function mailMaterialsOpen(row: PublicUserRow) {
  const link = new URL("/financing/materials", getEnv().appUrl).href;
  return trySendMail({ to: row.email, ...portalEmails.materialsOpen({ name: row.full_name, link }) });
}

/** The payloads of the administrator API calls (docs/requirements.md, "The JSON API"). */
export const ndaFlagSchema = z.object({
  email: emailSchema,
  state: z.boolean({ error: apiMessages.stateNotBoolean }),
});
