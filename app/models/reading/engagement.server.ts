/**
 * The investors ranked by how much they read over a period: their copies delivered in it, scored by
 * minutes on pages plus POINTS_PER_DOCUMENT per document read (app/content/reading-insights.ts says so), highest first.
 */
import { sql } from "kysely";
import { POINTS_PER_DOCUMENT } from "~/content/reading-insights";
import { getDb } from "~/server/db.server";

const DAY_MS = 86_400_000;

export interface EngagedInvestor {
  userId: string;
  email: string;
  fullName: string;
  minutes: number;
  documents: number;
  score: number;
}

/** The ranking of the copies delivered in [fromMs, toMs), whole UTC days; at most `limit` investors. */
export async function engagementRanking(fromMs: number, toMs: number, limit: number): Promise<EngagedInvestor[]> {
  const db = getDb();
  // Summed per reader from the days' totals (migration 024; a period is whole UTC days), so only the
  // readers are joined to their names.
  const totals = db
    .selectFrom("reader_day_reading")
    .select(["user_id", sql<number>`sum(ms)`.as("ms"), sql<number>`count(distinct document_id)`.as("documents")])
    .where("day", ">=", Math.floor(fromMs / DAY_MS))
    .where("day", "<", Math.ceil(toMs / DAY_MS))
    .groupBy("user_id")
    .as("r");
  const score = sql<number>`r.ms / 60000.0 + ${sql.lit(POINTS_PER_DOCUMENT)} * r.documents`;
  const rows = await db
    .selectFrom(totals)
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["u.id", "u.email", "u.full_name", "r.ms", "r.documents", score.as("score")])
    .orderBy(score, "desc")
    .orderBy("u.email")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    userId: row.id,
    email: row.email,
    fullName: row.full_name,
    minutes: Math.round(Number(row.ms) / 6_000) / 10,
    documents: Number(row.documents),
    score: Math.round(Number(row.score) * 10) / 10,
  }));
}
