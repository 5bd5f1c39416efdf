/**
 * The second factor's use cases (docs/requirements.md, "Second factor"): what an account has, the
 * code step of a login (page or API), setting up and replacing the authenticator app, recovery
 * codes, and turning the factor off. Every change ends the account's other sessions and API tokens,
 * is recorded in the audit trail and e-mailed to the account (factor-change.server.ts); every wrong
 * code is recorded and counted towards the second step's lock.
 */
import type { ExpressionBuilder } from "kysely";
import { secondFactorChanges } from "~/content/emails";
import { codeMessages } from "~/content/second-factor";
import { accountMail } from "~/models/account/account-mail.server";
import type { PublicUser } from "~/models/account/user.server";
import { recordOwnAccountEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import {
  clearCodeFailures,
  CODE_LOCKOUT_MS,
  codeStanding,
  lockCodeStep,
  MINUTE_MS,
  reserveCodeAttempt,
  throttleCodeRequest,
} from "~/models/throttle.server";
import { getDb, type Database } from "~/server/db.server";
import { afterFactorChange } from "./factor-change.server";
import {
  deleteRecoveryCodes,
  issueRecoveryCodesIfNone,
  replaceRecoveryCodes,
  spendRecoveryCode,
  unusedRecoveryCodeCount,
} from "./recovery-code.server";
import { acceptTotpCode, confirmPendingTotp, deleteTotp, hasTotp, pendingTotpSecret, totpUri } from "./totp.server";

/** A code as the edge parsed it: six digits from the app, or a recovery code. */
export type SecondFactorCode = { kind: "totp" | "recovery"; value: string };

export type SecondFactorStatus = { totp: boolean; passkeys: number; recoveryCodesLeft: number };

type FromClient = { ip: string };
type Account = Pick<PublicUser, "id" | "email">;
/** A change made in a session: the account, and the session that stays open after it. */
type InSession = { user: Account; sessionIdHash: string } & FromClient;

/** Expressions over a row of `users`: what a statement about accounts can read of each one's second factor. */
type OverUsers = ExpressionBuilder<Database, "users">;

/** Whether the row's account has an authenticator app (a confirmed one: a set-up in progress has no secret yet). */
export const hasAppOf = (eb: OverUsers) =>
  eb.exists(
    eb
      .selectFrom("totp_credentials")
      .select("totp_credentials.user_id")
      .whereRef("totp_credentials.user_id", "=", "users.id")
      .where("totp_credentials.secret", "is not", null),
  );

/** How many passkeys the row's account has. */
export const passkeyCountOf = (eb: OverUsers) =>
  eb
    .selectFrom("passkeys")
    .select((inner) => inner.fn.countAll<number>().as("n"))
    .whereRef("passkeys.user_id", "=", "users.id");

/** How many of the row's account's recovery codes are still unused. */
const unusedRecoveryCodeCountOf = (eb: OverUsers) =>
  eb
    .selectFrom("recovery_codes")
    .select((inner) => inner.fn.countAll<number>().as("n"))
    .whereRef("recovery_codes.user_id", "=", "users.id")
    .where("recovery_codes.used_at", "is", null);

/**
 * The columns of a statement over `users` that make each account's SecondFactorStatus (read with
 * secondFactorStatusOf): a page that reads the account anyway reads its factor in the same statement.
 */
export const secondFactorColumnsOf = (eb: OverUsers) =>
  [
    hasAppOf(eb).as("totp"),
    passkeyCountOf(eb).as("passkeys"),
    unusedRecoveryCodeCountOf(eb).as("recoveryCodesLeft"),
  ] as const;

type SecondFactorColumns = { totp: unknown; passkeys: unknown; recoveryCodesLeft: unknown };

/** The status out of secondFactorColumnsOf's columns (the engines give a boolean or 0/1, a number or a string). */
export function secondFactorStatusOf(row: SecondFactorColumns): SecondFactorStatus {
  return { totp: Boolean(row.totp), passkeys: Number(row.passkeys), recoveryCodesLeft: Number(row.recoveryCodesLeft) };
}

/**
 * An account's app, its passkeys and its unused recovery codes, read in one statement. It was three, run
 * at once: on PostgreSQL, three connections and three trips to the database. The login's code step, the
 * security and confirmation pages ask for it; the investor page reads the same columns in its own statement.
 */
export async function secondFactorStatus(userId: string): Promise<SecondFactorStatus> {
  const row = await getDb()
    .selectFrom("users")
    .select((eb) => secondFactorColumnsOf(eb))
    .where("users.id", "=", userId)
    .executeTakeFirst();
  // An account deleted meanwhile has none.
  return row ? secondFactorStatusOf(row) : { totp: false, passkeys: 0, recoveryCodesLeft: 0 };
}

export function hasSecondFactor(status: SecondFactorStatus) {
  return status.totp || status.passkeys > 0;
}

/** Whether the account has an app or a passkey: one indexed look, for every login. */
async function hasAnySecondFactor(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("users")
    .select((eb) => [
      hasAppOf(eb).as("app"),
      eb
        .exists(eb.selectFrom("passkeys").select("passkeys.id").whereRef("passkeys.user_id", "=", "users.id"))
        .as("passkey"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  return Boolean(row?.app) || Boolean(row?.passkey);
}

/**
 * Whether the account has a passkey but no recovery codes at all (a passkey added before codes came
 * with every factor; an app's set-up always made them): its next sign-in asks it to save a set.
 */
export async function needsRecoveryCodes(userId: string): Promise<boolean> {
  const row = await getDb()
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom("passkeys").select("id").where("user_id", "=", userId)).as("passkey"),
      eb.exists(eb.selectFrom("recovery_codes").select("user_id").where("user_id", "=", userId)).as("codes"),
    ])
    .executeTakeFirstOrThrow();
  return Boolean(row.passkey) && !row.codes;
}

/** What follows the right password: the code step, the administrator's enrolment, or nothing. */
export async function stepAfterPassword(user: PublicUser): Promise<"code" | "enrol" | "none"> {
  if (await hasAnySecondFactor(user.id)) return "code";
  return user.role.name === "administrator" ? "enrol" : "none";
}

export type CodeResult = { ok: true; method: "totp" | "recovery_code" } | Failure<401 | 423 | 429>;

/**
 * Checks a code of the account's: a current code of its authenticator app (once per 30-second step)
 * or an unused recovery code (once). Throttled per IP; five wrong codes lock the code step, and the
 * account is told, since only someone who knew its password got that far. Used by the login's second
 * step and by the re-authentication before a security change.
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
    accountMail.recoveryCodeUsed(user.email, left);
    return { ok: true, method: "recovery_code" };
  }
  return { ok: true, method: "totp" };
}

/** The authenticator app's set-up: the secret this session is shown (as a QR code and as text) until a code confirms it. */
export async function beginTotpEnrolment({
  user,
  sessionIdHash,
}: Omit<InSession, "ip">): Promise<{ secret: string; uri: string }> {
  const secret = await pendingTotpSecret(user.id, sessionIdHash);
  return { secret, uri: totpUri(secret, user.email) };
}

export type EnrolmentResult = { ok: true; recoveryCodes: string[] } | Failure<400 | 401 | 429>;

/**
 * Confirms this session's set-up with the app's first code. The new secret replaces any earlier one,
 * and ten new recovery codes replace any earlier ones; they are returned to be shown once.
 */
export async function confirmTotpEnrolment({
  user,
  sessionIdHash,
  code,
  ip,
}: InSession & { code: string }): Promise<EnrolmentResult> {
  const throttle = await throttleCodeRequest(ip);
  if (!throttle.allowed) return codeThrottled(throttle.retryAfterSeconds);
  const replacing = await hasTotp(user.id);
  const outcome = await confirmPendingTotp(user.id, sessionIdHash, code);
  if (outcome === "expired") return { ok: false, status: 400, message: codeMessages.enrolmentExpired };
  if (outcome === "wrong") {
    await recordOwnAccountEvent(user, "mfa.failed", { ip, details: { step: "enrolment" } });
    return { ok: false, status: 401, message: codeMessages.enrolmentCodeWrong };
  }
  const recoveryCodes = await replaceRecoveryCodes(user.id);
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: replacing ? "mfa.totp_replaced" : "mfa.totp_enrolled",
    change: replacing ? secondFactorChanges.totpReplaced : secondFactorChanges.totpEnrolled,
    ip,
  });
  return { ok: true, recoveryCodes };
}

/** Ten new recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes({ user, sessionIdHash, ip }: InSession): Promise<string[]> {
  const codes = await replaceRecoveryCodes(user.id);
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: "mfa.recovery_codes_regenerated",
    change: secondFactorChanges.codesRegenerated,
    ip,
  });
  return codes;
}

/**
 * The first set of recovery codes of an account that has a passkey and never had codes, asked for
 * right after a sign-in (the caller checks that the sign-in is fresh). Null when it has a set already:
 * a set is shown once, and a new one replaces it only from the security settings, after "Confirm it's you".
 */
export async function issueMissingRecoveryCodes({ user, sessionIdHash, ip }: InSession): Promise<string[] | null> {
  if (!(await needsRecoveryCodes(user.id))) return null;
  const codes = await issueRecoveryCodesIfNone(user.id);
  if (!codes) return null;
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: "mfa.recovery_codes_issued",
    change: secondFactorChanges.codesIssued,
    ip,
  });
  return codes;
}

/** After a passkey's removal: with no factor left, its recovery codes go too, as when the factor is turned off. */
export async function forgetRecoveryCodesWithoutFactor(userId: string): Promise<void> {
  if (!(await hasAnySecondFactor(userId))) await deleteRecoveryCodes(userId);
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
export async function removeSecondFactor({ user, sessionIdHash, ip }: InSession): Promise<void> {
  await forgetSecondFactor(user.id);
  await afterFactorChange({
    account: user,
    keepSessionIdHash: sessionIdHash,
    action: "mfa.removed",
    change: secondFactorChanges.removed,
    ip,
  });
}

/** A wrong code, already counted (reserveCodeAttempt): the last of the window locks the step and tells the account. */
async function failCode(user: Account, code: SecondFactorCode, ip: string, last: boolean): Promise<CodeResult> {
  await recordOwnAccountEvent(user, "mfa.failed", { ip, details: { kind: code.kind } });
  if (!last) return { ok: false, status: 401, message: codeMessages.wrong };
  const lockedUntil = await lockCodeStep(user.id);
  // Only the request that set the lock records and reports it: a burst locks (and mails) once.
  if (lockedUntil !== null) {
    await recordOwnAccountEvent(user, "mfa.locked", { ip, details: { until: new Date(lockedUntil).toISOString() } });
    accountMail.codeStepLocked(user.email, CODE_LOCKOUT_MS / MINUTE_MS);
  }
  return codeLocked(Math.ceil(CODE_LOCKOUT_MS / 1000));
}

function codeThrottled(retryAfterSeconds: number): Failure<429> {
  return { ok: false, status: 429, message: codeMessages.throttled, retryAfterSeconds };
}

function codeLocked(retryAfterSeconds: number): Failure<423> {
  return { ok: false, status: 423, message: codeMessages.locked, retryAfterSeconds };
}
