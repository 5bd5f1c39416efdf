/**
 * An investor's non-binding indication of interest (docs/decisions/0037): an amount in whole U.S. dollars,
 * a range optional, a note; each change, and a withdrawal, is a row of its own, and the latest stands.
 */
import { randomUUID } from "node:crypto";
import type { PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import type { InterestInput } from "./interest-schemas.server";

export type Indication = {
  amount: number | null;
  low: number | null;
  high: number | null;
  note: string;
  withdrawn: boolean;
  at: string;
};

/** The investor's indications, newest first (the first is the one that stands): theirs only. */
export async function indicationsOf(userId: string): Promise<Indication[]> {
  const rows = await getDb()
    .selectFrom("interest_indications")
    .select(["amount", "low", "high", "note", "withdrawn", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    amount: row.amount,
    low: row.low,
    high: row.high,
    note: row.note,
    withdrawn: row.withdrawn === 1,
    at: new Date(row.created_at).toISOString(),
  }));
}

/** Stores an indication, or (`input` null) its withdrawal. */
export async function indicateInterest({
  user,
  input,
  ip,
}: {
  user: PublicUser;
  input: InterestInput | null;
  ip?: string | null;
}): Promise<void> {
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("interest_indications")
      .values({
        id: randomUUID(),
        user_id: user.id,
        amount: input?.amount ?? null,
        low: input?.low ?? null,
        high: input?.high ?? null,
        note: input?.note ?? "",
        withdrawn: input ? 0 : 1,
        created_at: now(),
      })
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: input ? "interest.indicated" : "interest.withdrawn",
      targetId: user.id,
      targetEmail: user.email,
      details: input ? { amount: input.amount, low: input.low ?? null, high: input.high ?? null } : {},
      ip,
    });
  });
}
