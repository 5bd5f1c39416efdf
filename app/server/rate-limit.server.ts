import { sql, type Kysely } from "kysely";
import { now } from "./clock.server";
import { getDb, type Database } from "./db.server";

export type RateLimitRule = { limit: number; windowMs: number };

/** Allowed, with how many more hits the window allows; or refused, with when to try again. */
export type RateLimitResult = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one hit for `key` in a fixed window kept in the database, so that the
 * limit holds across processes and restarts. The upsert is one statement, so
 * concurrent hits cannot both slip under the limit. `db` may be a transaction, so a hit counts only with
 * what it was counted for.
 */
export async function hitRateLimit(
  key: string,
  rule: RateLimitRule,
  db: Kysely<Database> = getDb(),
): Promise<RateLimitResult> {
  const at = now();
  const row = await db
    .insertInto("rate_limits")
    .values({ key, count: 1, reset_at: at + rule.windowMs })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        // Qualified: PostgreSQL reads a bare name here as either the stored row's or the proposed one.
        count: sql`case when rate_limits.reset_at <= ${at} then 1 else rate_limits.count + 1 end`,
        reset_at: sql`case when rate_limits.reset_at <= ${at} then ${at + rule.windowMs} else rate_limits.reset_at end`,
      }),
    )
    .returning(["count", "reset_at"])
    .executeTakeFirstOrThrow();
  if (row.count <= rule.limit) return { allowed: true, remaining: rule.limit - row.count };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - at) / 1000)) };
}

/** Forgets a key (a successful password reset unlocks the account's counters). */
export async function clearRateLimit(key: string) {
  await getDb().deleteFrom("rate_limits").where("key", "=", key).execute();
}
