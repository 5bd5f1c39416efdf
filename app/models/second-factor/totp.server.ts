/**
 * The authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps). One row per user holds
 * the confirmed secret (encrypted under DATA_KEY) and the newest step a code was accepted for; a
 * set-up in progress is a row of its session's (totp_enrolments).
 */
import { Secret, TOTP } from "otpauth";
import { firm } from "~/content/firm";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "~/content/second-factor";
import { MINUTE_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { seal, sealedUnderOlderKey, unseal } from "~/server/secret-box.server";
import { totpSecretContext } from "../../../migrations/second-factor-at-rest.js";

/** An enrolment left unconfirmed this long starts again with a new secret. */
export const TOTP_ENROLMENT_MS = 15 * MINUTE_MS;
const PERIOD_MS = TOTP_PERIOD_SECONDS * 1000;

function totpOf(base32: string, email = "") {
  return new TOTP({
    issuer: firm.shortName,
    label: email,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function totpUri(base32: string, email: string): string {
  return totpOf(base32, email).toString();
}

/**
 * The 30-second step whose code `code` is, allowing one step either side for a clock that drifts,
 * or null. The step, not the code, is what replay protection remembers.
 */
export function matchingStep(base32: string, code: string, at: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? null : Math.floor(at / PERIOD_MS) + delta;
}

/** The context a TOTP secret is sealed under: its account, so a secret copied to another row does not open. */
const contextOf = totpSecretContext;

/** Whether the account has a confirmed authenticator app. */
export async function hasTotp(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("totp_credentials")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("secret", "is not", null)
    .executeTakeFirst();
  return !!row;
}

/**
 * The secret of the set-up in progress in this session: the one already shown to it if still fresh,
 * or a new one. Bound to the session, so no other session of the account (a second browser, or
 * someone who has the password) ever sees it or can confirm it.
 */
export async function pendingTotpSecret(userId: string, sessionIdHash: string): Promise<string> {
  const at = now();
  const sealed = seal(new Secret({ size: 20 }).base32, contextOf(userId));
  // Replaced only if stale: of two set-up pages opened at once in one session, both show the one secret stored.
  await getDb()
    .insertInto("totp_enrolments")
    .values({ session_id_hash: sessionIdHash, user_id: userId, secret: sealed, created_at: at })
    .onConflict((oc) =>
      oc
        .column("session_id_hash")
        .doUpdateSet({ secret: sealed, created_at: at })
        .where("totp_enrolments.created_at", "<=", at - TOTP_ENROLMENT_MS),
    )
    .execute();
  const stored = await freshEnrolment(userId, sessionIdHash, at);
  if (!stored) throw new Error("The set-up's secret was not stored.");
  return unseal(stored.secret, contextOf(userId));
}

/**
 * Confirms this session's set-up with its first code: its secret becomes the account's, replacing
 * any earlier one. 'expired' when the session has no fresh set-up, 'wrong' for a code that is not its secret's.
 */
export async function confirmPendingTotp(
  userId: string,
  sessionIdHash: string,
  code: string,
): Promise<"confirmed" | "wrong" | "expired"> {
  const at = now();
  const enrolment = await freshEnrolment(userId, sessionIdHash, at);
  if (!enrolment) return "expired";
  const step = matchingStep(unseal(enrolment.secret, contextOf(userId)), code, at);
  if (step === null) return "wrong";
  // Taken once: of two confirmations racing in one session, one wins.
  const taken = await getDb()
    .deleteFrom("totp_enrolments")
    .where("session_id_hash", "=", sessionIdHash)
    .where("secret", "=", enrolment.secret)
    .executeTakeFirst();
  if (!taken.numDeletedRows) return "expired";
  const confirmed = { secret: enrolment.secret, confirmed_at: at, last_step: step };
  await getDb()
    .insertInto("totp_credentials")
    .values({ user_id: userId, ...confirmed })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(confirmed))
    .execute();
  return "confirmed";
}

async function freshEnrolment(userId: string, sessionIdHash: string, at: number) {
  return getDb()
    .selectFrom("totp_enrolments")
    .select("secret")
    .where("session_id_hash", "=", sessionIdHash)
    .where("user_id", "=", userId)
    .where("created_at", ">", at - TOTP_ENROLMENT_MS)
    .executeTakeFirst();
}

/**
 * Accepts a code of the confirmed secret once: the step is claimed in one conditional update, so a
 * code replayed within its step (or two requests racing with it) is refused.
 */
export async function acceptTotpCode(userId: string, code: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("totp_credentials")
    .select("secret")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row?.secret) return false;
  const step = matchingStep(unseal(row.secret, contextOf(userId)), code, now());
  if (step === null) return false;
  const claimed = await getDb()
    .updateTable("totp_credentials")
    .set({ last_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/** Forgets the account's authenticator app, and any set-up in progress. */
export async function deleteTotp(userId: string) {
  await getDb().deleteFrom("totp_credentials").where("user_id", "=", userId).execute();
  await getDb().deleteFrom("totp_enrolments").where("user_id", "=", userId).execute();
}

/**
 * Re-encrypts every stored secret (confirmed, and of set-ups in progress) that an older key of
 * DATA_KEY encrypted, under its first key. A row is rewritten only where it still holds what was
 * read, so a set-up confirmed meanwhile keeps its own secret.
 */
export async function rekeyStoredSecrets(): Promise<{ rekeyed: number; current: number }> {
  const tally = { rekeyed: 0, current: 0 };
  /** The secret sealed under the first key, or null when it already is. */
  const renewed = (sealed: string, userId: string) => {
    if (sealedUnderOlderKey(sealed)) return seal(unseal(sealed, contextOf(userId)), contextOf(userId));
    tally.current += 1;
    return null;
  };
  const db = getDb();
  for (const row of await db.selectFrom("totp_credentials").select(["user_id", "secret"]).execute()) {
    const secret = row.secret && renewed(row.secret, row.user_id);
    if (!secret) continue;
    const written = await db
      .updateTable("totp_credentials")
      .set({ secret })
      .where("user_id", "=", row.user_id)
      .where("secret", "=", row.secret)
      .executeTakeFirst();
    tally.rekeyed += Number(written.numUpdatedRows);
  }
  for (const row of await db.selectFrom("totp_enrolments").select(["session_id_hash", "user_id", "secret"]).execute()) {
    const secret = renewed(row.secret, row.user_id);
    if (!secret) continue;
    const written = await db
      .updateTable("totp_enrolments")
      .set({ secret })
      .where("session_id_hash", "=", row.session_id_hash)
      .where("secret", "=", row.secret)
      .executeTakeFirst();
    tally.rekeyed += Number(written.numUpdatedRows);
  }
  return tally;
}
