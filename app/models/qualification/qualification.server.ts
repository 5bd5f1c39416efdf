/**
 * How an investor qualifies (docs/decisions/0037): their statements, each kept (the latest stands), and the
 * firm's verifications, each kept, the latest standing until it expires after the days the firm set. A
 * verification's file is stored as the library's files are (app/server/blob-store.server.ts), and only a PDF.
 */
import { randomUUID } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { PublicUser } from "~/models/account/user.server";
import type { Actor } from "~/models/administrators/admin-result.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { readPortalFeatures } from "~/models/features/portal-features.server";
import { completeBlob, deleteBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb, type Database } from "~/server/db.server";
import type { QualificationStatementInput, VerificationInput } from "./qualification-schemas.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export type Statement = { category: string; statedOn: string; recordedAt: string };
export type Verification = {
  id: string;
  method: string;
  verifiedOn: string;
  note: string;
  fileName: string | null;
  expiresAt: string;
  expired: boolean;
  recordedAt: string;
};
export type Qualification = { statements: Statement[]; verifications: Verification[] };
/** When the latest verification stops standing, and whether it has. */
export type VerificationStanding = { expiresAt: string; expired: boolean };

/**
 * The expiry of the latest verification of the row's investor (its table named `users`), for a list of
 * investors: one seek of verifications_user (user_id, created_at) a row.
 */
export const latestVerificationExpiryOf = (eb: ExpressionBuilder<Database, "users">) =>
  eb
    .selectFrom("verifications as v")
    .select("v.expires_at")
    .whereRef("v.user_id", "=", "users.id")
    .orderBy("v.created_at", "desc")
    .orderBy("v.id", "desc")
    .limit(1);

/** The standing of a verification expiring at `expiresAt` (ms; null: none recorded) at the time `at`. */
export function verificationStandingOf(expiresAt: number | string | null, at: number): VerificationStanding | null {
  if (expiresAt === null) return null;
  const ms = Number(expiresAt);
  return { expiresAt: new Date(ms).toISOString(), expired: ms <= at };
}

/** The investor's statements and the firm's verifications, newest first: theirs only. */
export async function qualificationOf(userId: string): Promise<Qualification> {
  const db = getDb();
  const [statements, verifications] = await Promise.all([
    db
      .selectFrom("qualification_statements")
      .select(["category", "stated_on", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute(),
    db
      .selectFrom("verifications")
      .select(["id", "method", "verified_on", "note", "file_name", "expires_at", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute(),
  ]);
  const at = now();
  return {
    statements: statements.map((row) => ({
      category: row.category,
      statedOn: row.stated_on,
      recordedAt: new Date(row.created_at).toISOString(),
    })),
    verifications: verifications.map((row) => ({
      id: row.id,
      method: row.method,
      verifiedOn: row.verified_on,
      note: row.note,
      fileName: row.file_name,
      ...verificationStandingOf(row.expires_at, at)!,
      recordedAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/** Stores a new statement (the earlier ones stay, as its history). */
export async function stateQualification({
  user,
  input,
  ip,
}: {
  user: PublicUser;
  input: QualificationStatementInput;
  ip?: string | null;
}): Promise<void> {
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("qualification_statements")
      .values({
        id: randomUUID(),
        user_id: user.id,
        category: input.category,
        stated_on: input.statedOn,
        created_at: now(),
      })
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "qualification.stated",
      targetId: user.id,
      targetEmail: user.email,
      details: { category: input.category, statedOn: input.statedOn },
      ip,
    });
  });
}

/**
 * Records the firm's verification of an investor, expiring after the firm's days from its date; `file` is a
 * blob already stored and checked, kept with it (or deleted, for an investor that is gone).
 */
export async function recordVerification({
  actor,
  investorId,
  input,
  file,
  ip,
}: {
  actor: Actor;
  investorId: string;
  input: VerificationInput;
  file?: { blobId: string; name: string } | null;
  ip?: string | null;
}): Promise<boolean> {
  const { verificationDays } = await readPortalFeatures();
  const recorded = await changeWithAudit(async (db, record) => {
    const investor = await db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", investorId)
      .where("role", "=", "investor")
      .executeTakeFirst();
    if (!investor) return false;
    if (file) await completeBlob(db, file.blobId);
    await db
      .insertInto("verifications")
      .values({
        id: randomUUID(),
        user_id: investor.id,
        method: input.method,
        verified_on: input.verifiedOn,
        note: input.note,
        blob_id: file?.blobId ?? null,
        file_name: file?.name ?? null,
        recorded_by: actor.id,
        expires_at: Date.parse(`${input.verifiedOn}T00:00:00Z`) + verificationDays * DAY_MS,
        created_at: now(),
      })
      .execute();
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "verification.recorded",
      targetId: investor.id,
      targetEmail: investor.email,
      details: { method: input.method, verifiedOn: input.verifiedOn, file: file ? file.name : null },
      ip,
    });
    return true;
  });
  if (!recorded && file) await deleteBlob(file.blobId);
  return recorded;
}
