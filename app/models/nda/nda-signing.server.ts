/**
 * The investor signs their copy: with consent to electronic records in force, the copy they reviewed
 * (by its SHA-256) still the one offered, their full name typed as on file, the intent ticked, and their
 * identity confirmed at the edge (password and second factor on a page; the token and a code through the
 * API). The signed file is rendered from the copy, sealed, stored with its SHA-256, and the hash written
 * into the audit chain. A one-sided NDA is complete with this signature (nda-completion.server.ts).
 */
import { randomUUID } from "node:crypto";
import { firmSettings } from "~/content/firm";
import { ndaMessages } from "~/content/nda";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { foldForSearch } from "~/models/investors/search-text.server";
import { completeBlob, deleteBlob, readWholeBlob, storeMadeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { completeNda, mailSignedNda } from "./nda-completion.server";
import { activeConsent, giveConsent, type FromClient, type Signer } from "./nda-consent.server";
import { copyBySha256, copyState } from "./nda-copies.server";
import { ndaSigningKey } from "./nda-key.server";
import { renderSealed, type InvestorEvidence } from "./nda-pdf.server";

export type SignInput = {
  typedName: string;
  copySha256: string;
  intent: boolean;
  /** The consent to electronic records comes with this signature (the status page's form): recorded just before it. */
  consentWithSignature?: boolean;
  /** How the edge confirmed who is signing, e.g. "password+totp". */
  authMethod: string;
} & FromClient;

export type SignResult = { ok: true; signatureId: string; sha256: string; completed: boolean } | Failure<400 | 409>;

/**
 * Names compared as a person reads them, folded as the investor search folds them: case, accents (Ø and ß
 * too, which carry none Unicode can drop), punctuation and runs of spaces do not count.
 */
export function sameName(typed: string, onFile: string): boolean {
  return foldForSearch(typed) !== "" && foldForSearch(typed) === foldForSearch(onFile);
}

export async function signNda(user: Signer, input: SignInput): Promise<SignResult> {
  const refusal = await whyNotSign(user, input);
  if (refusal) return refusal;
  if (input.consentWithSignature) await giveConsent(user, { agreed: true, ip: input.ip, userAgent: input.userAgent });
  const consent = (await activeConsent(user.id))!;
  const copy = (await copyBySha256(user.id, input.copySha256))!;
  const signedAt = now();
  const evidence: InvestorEvidence = {
    typedName: input.typedName.trim().replace(/\s+/g, " "),
    signedAt: new Date(signedAt),
    email: user.email,
    ip: input.ip,
    userAgent: input.userAgent,
    authMethod: input.authMethod,
    copySha256: copy.sha256,
    consent: {
      id: consent.id,
      givenAt: new Date(consent.givenAt),
      disclosureVersion: consent.disclosureVersion,
      disclosureSha256: consent.disclosureSha256,
    },
    auditRows: await leadingAuditRows(user.id),
  };
  const sealed = await renderSealed(
    await readWholeBlob(copy.blobId),
    { investor: evidence, firmName: firmSettings.name },
    ndaSigningKey(),
  );
  const blob = await storeMadeBlob(sealed);
  const signatureId = randomUUID();
  const oneSided = getEnv().nda.oneSided;
  try {
    await changeWithAudit(async (db, record) => {
      await db
        .insertInto("nda_signatures")
        .values({
          id: signatureId,
          user_id: user.id,
          email: user.email,
          kind: "portal",
          copy_id: copy.id,
          consent_id: consent.id,
          typed_name: evidence.typedName,
          signed_at: signedAt,
          ip: input.ip,
          user_agent: input.userAgent,
          auth_method: input.authMethod,
          signed_blob_id: blob.id,
          signed_sha256: blob.sha256,
          countersigned_by: null,
          countersigned_at: null,
          completed_blob_id: null,
          completed_sha256: null,
          completed_at: null,
          reason: null,
        })
        .execute();
      await completeBlob(db, blob.id);
      record({
        actorId: user.id,
        actorEmail: user.email,
        action: "nda.signed",
        targetId: user.id,
        targetEmail: user.email,
        details: {
          signatureId,
          copyId: copy.id,
          templateVersion: copy.templateNumber,
          copySha256: copy.sha256,
          sha256: blob.sha256,
          method: input.authMethod,
        },
        ip: input.ip,
      });
      if (oneSided)
        await completeNda(db, record, { signatureId, userId: user.id, blobId: blob.id, sha256: blob.sha256 });
    });
  } catch (error) {
    await deleteBlob(blob.id);
    // Two signatures at once: the database kept one (nda_signatures_user); this one is the second.
    if (await getDb().selectFrom("nda_signatures").select("id").where("user_id", "=", user.id).executeTakeFirst()) {
      return { ok: false, status: 409, message: ndaMessages.alreadySigned };
    }
    throw error;
  }
  if (oneSided) await mailSignedNda(signatureId, input.ip);
  return { ok: true, signatureId, sha256: blob.sha256, completed: oneSided };
}

/** Why this signature cannot be taken, checked in the order a person would fix them; null when it can. */
async function whyNotSign(user: Signer, input: SignInput): Promise<Failure<400 | 409> | null> {
  const signed = await getDb()
    .selectFrom("nda_signatures")
    .select("id")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (signed) return { ok: false, status: 409, message: ndaMessages.alreadySigned };
  if (!input.consentWithSignature && !(await activeConsent(user.id))) {
    return { ok: false, status: 409, message: ndaMessages.consentNeeded };
  }
  const state = await copyState(user.id);
  if (!state.ok) return state;
  if (!state.offered) return { ok: false, status: 409, message: ndaMessages.notOffered };
  const reviewed = await copyBySha256(user.id, input.copySha256);
  if (!reviewed) return { ok: false, status: 400, message: ndaMessages.hashMismatch };
  if (reviewed.id !== state.offered.id || !state.current) {
    return { ok: false, status: 409, message: ndaMessages.superseded(state.template.number) };
  }
  if (!sameName(input.typedName, state.investor.full_name)) {
    return { ok: false, status: 400, message: ndaMessages.nameMismatch };
  }
  if (!input.intent) return { ok: false, status: 400, message: ndaMessages.intentNeeded };
  return null;
}

/** The audit rows that led to the signature: the newest offer, consent and opening of the investor's NDA. */
async function leadingAuditRows(userId: string): Promise<number[]> {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select(["action", (eb) => eb.fn.max("id").as("id")])
    .where("target_id", "=", userId)
    .where("action", "in", ["nda.offered", "nda.consent.given", "nda.opened"])
    .groupBy("action")
    .execute();
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}
