/**
 * The authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps). One row per user holds
 * the confirmed secret, the newest step a code was accepted for, and an enrolment in progress.
 */
import { Secret, TOTP } from "otpauth";
import { firm } from "~/content/firm";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "~/content/second-factor";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { MINUTE_MS } from "./throttle.server";

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

export async function getTotpCredential(userId: string) {
  return getDb().selectFrom("totp_credentials").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** The secret of the enrolment in progress: the one already pending if still fresh, or a new one. */
export async function pendingTotpSecret(userId: string): Promise<string> {
  const at = now();
  const row = await getTotpCredential(userId);
  if (row?.pending_secret && row.pending_created_at !== null && at - row.pending_created_at < TOTP_ENROLMENT_MS) {
    return row.pending_secret;
  }
  const secret = new Secret({ size: 20 }).base32;
  // Replaced only if still stale: of two set-up pages opened at once, both show the one secret stored.
  const stored = await getDb()
    .insertInto("totp_credentials")
    .values({ user_id: userId, pending_secret: secret, pending_created_at: at })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({ pending_secret: secret, pending_created_at: at })
        .where((eb) =>
          eb.or([
            eb("totp_credentials.pending_created_at", "is", null),
            eb("totp_credentials.pending_created_at", "<=", at - TOTP_ENROLMENT_MS),
          ]),
        ),
    )
    .returning("pending_secret")
    .executeTakeFirst();
  return stored?.pending_secret ?? (await getTotpCredential(userId))?.pending_secret ?? secret;
}

/**
 * Confirms the enrolment in progress with its first code: the pending secret becomes the secret.
 * 'expired' when no fresh enrolment is pending, 'wrong' for a code that is not the secret's.
 */
export async function confirmPendingTotp(userId: string, code: string): Promise<"confirmed" | "wrong" | "expired"> {
  const at = now();
  const row = await getTotpCredential(userId);
  if (!row?.pending_secret || row.pending_created_at === null || at - row.pending_created_at >= TOTP_ENROLMENT_MS) {
    return "expired";
  }
  const step = matchingStep(row.pending_secret, code, at);
  if (step === null) return "wrong";
  const updated = await getDb()
    .updateTable("totp_credentials")
    .set({
      secret: row.pending_secret,
      confirmed_at: at,
      last_step: step,
      pending_secret: null,
      pending_created_at: null,
    })
    .where("user_id", "=", userId)
    .where("pending_secret", "=", row.pending_secret)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n ? "confirmed" : "expired";
}

/**
 * Accepts a code of the confirmed secret once: the step is claimed in one conditional update, so a
 * code replayed within its step (or two requests racing with it) is refused.
 */
export async function acceptTotpCode(userId: string, code: string): Promise<boolean> {
  const row = await getTotpCredential(userId);
  if (!row?.secret) return false;
  const step = matchingStep(row.secret, code, now());
  if (step === null) return false;
  const claimed = await getDb()
    .updateTable("totp_credentials")
    .set({ last_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

export async function deleteTotp(userId: string) {
  await getDb().deleteFrom("totp_credentials").where("user_id", "=", userId).execute();
}
