/**
 * Recovery codes: ten single-use codes made when a second factor is set up, shown once and stored
 * only as SHA-256 digests. Each has 50 random bits, so a fast digest is enough: no one can guess
 * through the second step's rate limit, and a copy of the database reveals none of them.
 */
import { createHash, randomInt } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "~/content/second-factor";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { asOnlyWriter } from "~/server/sql-dialect.server";

/** Crockford's base32 in lower case: no i, l, o or u, so a code read aloud or copied by hand survives. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${characters.slice(0, 5).join("")}-${characters.slice(5).join("")}`;
}

/** The stored form of a code as typed: case, spaces and the hyphen do not matter. */
function digestOf(code: string): string {
  return createHash("sha256").update(code.toLowerCase().replace(/[\s-]/g, "")).digest("hex");
}

/** Replaces the user's recovery codes with ten new ones and returns them, the only time they exist in clear. */
export async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const at = now();
  // One writer per user at a time: two requests at once must not each delete nothing and then both insert.
  await asOnlyWriter(getDb(), `recovery_codes:${userId}`, async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(codes.map((code) => ({ code_hash: digestOf(code), user_id: userId, created_at: at })))
      .execute();
  });
  return codes;
}

/** Spends one unused code of the user's; false for any other code, used or not. */
export async function spendRecoveryCode(userId: string, code: string): Promise<boolean> {
  const spent = await getDb()
    .updateTable("recovery_codes")
    .set({ used_at: now() })
    .where("code_hash", "=", digestOf(code))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return spent.numUpdatedRows > 0n;
}

export async function unusedRecoveryCodeCount(userId: string): Promise<number> {
  const row = await getDb()
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteRecoveryCodes(userId: string) {
  await getDb().deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
}
