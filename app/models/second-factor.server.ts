/**
 * The second factor's use cases (docs/requirements.md, "Second factor"): what an account has, the
 * code step of a login (page or API), setting up and replacing the authenticator app, recovery
 * codes, and turning the factor off. Every change is recorded in the audit trail and e-mailed to
 * the account; every wrong code is recorded and counted towards the second step's lock.
 */
import { codeMessages } from "~/content/second-factor";
import { getDb } from "~/server/db.server";
import { accountMail } from "./account-mail.server";
import { recordOwnAccountEvent } from "./audit.server";
import type { Failure } from "./failure";
import {
  replaceRecoveryCodes,
  spendRecoveryCode,
  unusedRecoveryCodeCount,
  deleteRecoveryCodes,
} from "./recovery-code.server";
import {
  clearCodeFailures,
  CODE_LOCKOUT_MS,
  codeStanding,
  lockCodeStep,
  reserveCodeAttempt,
  throttleCodeRequest,
} from "./throttle.server";
import {
  acceptTotpCode,
  confirmPendingTotp,
  deleteTotp,
  getTotpCredential,
  pendingTotpSecret,
  totpUri,
} from "./totp.server";
import type { PublicUser } from "./user.server";

/** A code as the edge parsed it: six digits from the app, or a recovery code. */
export type SecondFactorCode = { kind: "totp" | "recovery"; value: string };

export type SecondFactorStatus = { totp: boolean; passkeys: number; recoveryCodesLeft: number };

type FromClient = { ip: string };
type Account = Pick<PublicUser, "id" | "email">;

export async function secondFactorStatus(userId: string): Promise<SecondFactorStatus> {
  const [totp, passkeys, recoveryCodesLeft] = await Promise.all([
    getTotpCredential(userId),
    getDb()
      .selectFrom("passkeys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
    unusedRecoveryCodeCount(userId),
  ]);
  return { totp: !!totp?.secret, passkeys: Number(passkeys.n), recoveryCodesLeft };
}

export function hasSecondFactor(status: SecondFactorStatus) {
  return status.totp || status.passkeys > 0;
}

/** Whether the account has an app or a passkey: one indexed look, for every login. */
async function hasAnySecondFactor(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom("totp_credentials")
            .select("user_id")
            .where("user_id", "=", userId)
            .where("secret", "is not", null),
        )
        .as("app"),
      eb.exists(eb.selectFrom("passkeys").select("id").where("user_id", "=", userId)).as("passkey"),
    ])
    .executeTakeFirstOrThrow();
  return Boolean(row.app) || Boolean(row.passkey);
}

/** What follows the right password: the code step, the administrator's enrolment, or nothing. */
export async function stepAfterPassword(user: PublicUser): Promise<"code" | "enrol" | "none"> {
  if (await hasAnySecondFactor(user.id)) return "code";
  return user.role.name === "administrator" ? "enrol" : "none";
}

export type CodeResult = { ok: true; method: "totp" | "recovery_code" } | Failure<401 | 423 | 429>;

/**
 * The second step: accepts a current code of the account's authenticator app (once per 30-second
 * step) or an unused recovery code (once). Throttled per IP; five wrong codes lock the step.
 */
export async function checkSecondFactorCode({
  user,
  code,
  ip,
}: { user: Account; code: SecondFactorCode } & FromClient): Promise<CodeResult> {
  const throttle = await throttleCodeRequest(ip);
  if (!throttle.allowed) return codeThrottled(throttle.retryAfterSeconds);
  const standing = await codeStanding(user.id);
  if (standing.locked) return codeLocked(standing.retryAfterSeconds);
  const attempt = await reserveCodeAttempt(user.id);
  // More codes at once than the lock allows: the fifth decides whether the step locks; this one waits it out.
  if (!attempt.allowed) return codeLocked(Math.ceil(CODE_LOCKOUT_MS / 1000));

  const accepted =
    code.kind === "totp" ? await acceptTotpCode(user.id, code.value) : await spendRecoveryCode(user.id, code.value);
  if (!accepted) return failCode(user, code, ip, attempt.last);

  await clearCodeFailures(user.id);
  if (code.kind === "recovery") {
    const left = await unusedRecoveryCodeCount(user.id);
    await recordOwnAccountEvent(user, "mfa.recovery_code_used", { ip, details: { left } });
    accountMail.secondFactorChanged(
      user.email,
      `A recovery code was used to sign in. ${left} recovery codes are left.`,
    );
    return { ok: true, method: "recovery_code" };
  }
  return { ok: true, method: "totp" };
}

/** The authenticator app's set-up: the secret to show (as a QR code and as text) until a code confirms it. */
export async function beginTotpEnrolment(user: Account): Promise<{ secret: string; uri: string }> {
  const secret = await pendingTotpSecret(user.id);
  return { secret, uri: totpUri(secret, user.email) };
}

export type EnrolmentResult = { ok: true; recoveryCodes: string[] } | Failure<400 | 401 | 429>;

/**
 * Confirms the set-up with the app's first code. The new secret replaces any earlier one, and ten
 * new recovery codes replace any earlier ones; they are returned to be shown once.
 */
export async function confirmTotpEnrolment({
  user,
  code,
  ip,
}: { user: Account; code: string } & FromClient): Promise<EnrolmentResult> {
  const throttle = await throttleCodeRequest(ip);
  if (!throttle.allowed) return codeThrottled(throttle.retryAfterSeconds);
  const replacing = (await getTotpCredential(user.id))?.secret != null;
  const outcome = await confirmPendingTotp(user.id, code);
  if (outcome === "expired") return { ok: false, status: 400, message: codeMessages.enrolmentExpired };
  if (outcome === "wrong") {
    await recordOwnAccountEvent(user, "mfa.failed", { ip, details: { step: "enrolment" } });
    return { ok: false, status: 401, message: codeMessages.enrolmentCodeWrong };
  }
  const recoveryCodes = await replaceRecoveryCodes(user.id);
  await recordOwnAccountEvent(user, replacing ? "mfa.totp_replaced" : "mfa.totp_enrolled", { ip });
  accountMail.secondFactorChanged(
    user.email,
    replacing
      ? "Your authenticator app was replaced, and new recovery codes were made."
      : "An authenticator app was set up as your second factor.",
  );
  return { ok: true, recoveryCodes };
}

/** Ten new recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes({ user, ip }: { user: Account } & FromClient): Promise<string[]> {
  const codes = await replaceRecoveryCodes(user.id);
  await recordOwnAccountEvent(user, "mfa.recovery_codes_regenerated", { ip });
  accountMail.secondFactorChanged(user.email, "New recovery codes were made; the earlier ones no longer work.");
  return codes;
}

/** Forgets the account's app, recovery codes and passkeys; true if it had any. */
export async function forgetSecondFactor(userId: string): Promise<boolean> {
  const had = await hasAnySecondFactor(userId);
  await deleteTotp(userId);
  await deleteRecoveryCodes(userId);
  await getDb().deleteFrom("passkeys").where("user_id", "=", userId).execute();
  return had;
}

/** Turns the second factor off: the app, the recovery codes and the passkeys. Investors only (the caller checks). */
export async function removeSecondFactor({ user, ip }: { user: Account } & FromClient): Promise<void> {
  await forgetSecondFactor(user.id);
  await recordOwnAccountEvent(user, "mfa.removed", { ip });
  accountMail.secondFactorChanged(
    user.email,
    "The second factor was turned off: sign-in now asks for your password only.",
  );
}

/** A wrong code, already counted (reserveCodeAttempt): the last of the window locks the step. */
async function failCode(user: Account, code: SecondFactorCode, ip: string, last: boolean): Promise<CodeResult> {
  await recordOwnAccountEvent(user, "mfa.failed", { ip, details: { kind: code.kind } });
  if (!last) return { ok: false, status: 401, message: codeMessages.wrong };
  const lockedUntil = await lockCodeStep(user.id);
  if (lockedUntil !== null) {
    await recordOwnAccountEvent(user, "mfa.locked", { ip, details: { until: new Date(lockedUntil).toISOString() } });
  }
  return codeLocked(Math.ceil(CODE_LOCKOUT_MS / 1000));
}

function codeThrottled(retryAfterSeconds: number): Failure<429> {
  return { ok: false, status: 429, message: codeMessages.throttled, retryAfterSeconds };
}

function codeLocked(retryAfterSeconds: number): Failure<423> {
  return { ok: false, status: 423, message: codeMessages.locked, retryAfterSeconds };
}
