/**
 * Recovery codes: ten single-use codes made when a second factor is set up, shown once and stored
 * only as SHA-256 digests. Each has 50 random bits, so a fast digest is enough: no one can guess
 * through the second step's rate limit, and a copy of the database reveals none of them.
 */
import { createHash, randomInt } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "~/content/second-factor";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { asOnlyWriter, type OnlyWriter } from "~/server/sql-dialect.server";

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

/** Inserts ten new codes of the user's, inside the caller's lock, and returns them in clear. */
async function insertNewCodes(db: OnlyWriter, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const at = now();
  await db
    .insertInto("recovery_codes")
    .values(codes.map((code) => ({ code_hash: digestOf(code), user_id: userId, created_at: at })))
    .execute();
  return codes;
}

/** Replaces the user's recovery codes with ten new ones and returns them, the only time they exist in clear. */
export async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  // One writer per user at a time: two requests at once must not each delete nothing and then both insert.
  return asOnlyWriter(getDb(), `recovery_codes:${userId}`, async (db) => {
    await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    return insertNewCodes(db, userId);
  });
}

/**
 * Ten codes for an account that has none at all (none ever made, or all forgotten with the factor):
 * the first second factor of any kind brings them, a passkey included. Null when the account already
 * has a set, used or not, which stays as it is. The check and the insert share the writer's lock, so
 * two passkeys added at once make one set.
 */
export async function issueRecoveryCodesIfNone(userId: string): Promise<string[] | null> {
  return asOnlyWriter(getDb(), `recovery_codes:${userId}`, async (db) => {
    if (await hasRecoveryCodeSet(db, userId)) return null;
    return insertNewCodes(db, userId);
  });
}

/** Whether a set was ever made and is still kept, used or not. */
async function hasRecoveryCodeSet(db: OnlyWriter, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("recovery_codes")
    .select("user_id")
    .where("user_id", "=", userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** When the account's current set was made (milliseconds), or null when it has none. */
export async function recoveryCodesMadeAt(userId: string): Promise<number | null> {
  const row = await getDb()
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

export async function deleteRecoveryCodes(userId: string) {
  await getDb().deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
}
