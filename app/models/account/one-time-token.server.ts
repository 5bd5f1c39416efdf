import { HOUR_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { asOnlyWriter, type OnlyWriter } from "~/server/sql-dialect.server";
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from "./secret-token.server";

export type TokenPurpose = "verify" | "reset";

/** A verification link lasts 24 hours, a reset link one hour. */
export const ONE_TIME_TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  verify: 24 * HOUR_MS,
  reset: 1 * HOUR_MS,
};

/**
 * A new single-use token for `purpose`; the user's older unused tokens of the
 * same purpose stop working, so only the latest e-mail's link opens anything.
 */
export async function createOneTimeToken(userId: string, purpose: TokenPurpose): Promise<string> {
  const token = newSecretToken();
  const at = now();
  // One writer per user at a time: two requests at once must not each delete nothing and then both insert.
  await asOnlyWriter(getDb(), `one_time_tokens:${userId}`, async (trx) => {
    await trx.deleteFrom("one_time_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
    await trx
      .insertInto("one_time_tokens")
      .values({
        token_hash: hashSecretToken(token),
        user_id: userId,
        purpose,
        created_at: at,
        expires_at: at + ONE_TIME_TOKEN_TTL_MS[purpose],
        used_at: null,
      })
      .execute();
  });
  return token;
}

/** The user a still-valid token belongs to, without using it up (e.g. to show the reset form). */
export async function findOneTimeTokenUser(token: unknown, purpose: TokenPurpose): Promise<string | null> {
  if (!looksLikeSecretToken(token)) return null;
  const row = await getDb()
    .selectFrom("one_time_tokens")
    .select("user_id")
    .where("token_hash", "=", hashSecretToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">=", now())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Uses the token up and returns its user, or null when it is unknown, of
 * another purpose, expired or already used. One statement, so two requests
 * racing with the same link cannot both succeed.
 */
export async function consumeOneTimeToken(
  token: unknown,
  purpose: TokenPurpose,
  db: OnlyWriter = getDb(),
): Promise<string | null> {
  if (!looksLikeSecretToken(token)) return null;
  const at = now();
  const row = await db
    .updateTable("one_time_tokens")
    .set({ used_at: at })
    .where("token_hash", "=", hashSecretToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">=", at)
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Voids every unused token of the user for `purpose` (after a reset, the other reset links die). */
export async function deleteOneTimeTokens(userId: string, purpose: TokenPurpose) {
  await getDb().deleteFrom("one_time_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
}
