/**
 * The account use cases (docs/requirements.md, "Account and NDA states"), called alike by the pages'
 * actions, the JSON API and create-admin. Each takes input its caller has already parsed
 * with the schemas of account-schemas.server.ts, and the client's address for throttling
 * and audit, and answers without revealing whether an address is registered: the same
 * result, the same e-mail count (one, to the address's owner) and, as measured in tests,
 * the same time.
 */
import { randomUUID } from "node:crypto";
import { accountMessages } from "~/content/account-messages";
import { now } from "~/server/clock.server";
import { getDb, type AuthMethod } from "~/server/db.server";
import { isUniqueViolation, type OnlyWriter } from "~/server/sql-dialect.server";
import { accountMail, settleAccountMail } from "./account-mail.server";
import type { Credentials, NewAccount } from "./account-schemas.server";
import { revokeApiTokens } from "./api-token.server";
import { changeWithAudit, ownAccountEvent, recordAuditEvent, recordOwnAccountEvent } from "./audit.server";
import type { Failure } from "./failure";
import { consumeOneTimeToken, createOneTimeToken, deleteOneTimeTokens } from "./one-time-token.server";
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from "./password.server";
import { searchTextFor } from "./search-text.server";
import { forgetSecondFactor } from "./second-factor.server";
import { looksLikeSecretToken } from "./secret-token.server";
import { deleteUserSessions } from "./session.server";
import {
  clearLoginFailures,
  LOCKOUT_MS,
  loginStanding,
  MINUTE_MS,
  recordLoginFailure,
  throttleAccountMail,
  throttleAuthRequest,
} from "./throttle.server";
import {
  getUserRowByEmail,
  getUserRowById,
  isVerified,
  toPublicUser,
  type PublicUser,
  type UserRow,
} from "./user.server";

export { settleAccountMail };

/**
 * Sign-up, forgot password and resend answer no sooner than this, so that the
 * path taken (new account or known one, mail or none) cannot be timed. It is
 * well above the work itself (one argon2 hash, a few writes).
 */
export const ENUMERATION_SAFE_RESPONSE_MS = 250;

export type RegisterResult = { ok: true } | Failure<429>;
export type VerifyResult = { ok: true } | { ok: false; message: string };
export type ResendResult = { ok: true } | Failure<429>;
export type LoginResult =
  | { ok: true; user: PublicUser }
  | (Failure<401 | 403 | 423 | 429> & { code: "invalid" | "unverified" | "locked" | "throttled" });
export type PasswordResetRequestResult = { ok: true } | Failure<429>;
export type ResetPasswordResult = { ok: true } | Failure<400 | 429>;

type FromClient = { ip: string };

/** Creates an unverified investor and mails the link; an address already registered gets a notice instead. */
export async function registerAccount({ email, password, ip }: NewAccount & FromClient): Promise<RegisterResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);

  return noSoonerThan(ENUMERATION_SAFE_RESPONSE_MS, async () => {
    // Hashed on both paths, so a known address costs what a new one does.
    const passwordHash = await hashPassword(password);
    const existing = await getUserRowByEmail(email);
    const created = existing ? null : await insertInvestor(email, passwordHash, ip);
    const user = created ?? existing ?? (await getUserRowByEmail(email));
    if (!user) throw new Error("The account vanished while it was being registered.");

    const mailAllowed = (await throttleAccountMail("verify", email)).allowed;
    if (!mailAllowed) return { ok: true };
    if (created || !isVerified(user)) {
      // A repeated sign-up of an unverified address is most likely a lost e-mail: send a fresh link to its owner.
      accountMail.verify(email, await createOneTimeToken(user.id, "verify"));
    } else {
      accountMail.alreadyRegistered(email);
    }
    return { ok: true };
  });
}

/** Marks the address verified; the link works once, within 24 hours. */
export async function verifyEmail(token: unknown): Promise<VerifyResult> {
  if (!looksLikeSecretToken(token)) return { ok: false, message: accountMessages.verifyLinkInvalid };
  // The link is used up in the transaction that marks the address: if that fails, the link still works.
  const known = await changeWithAudit(async (db, record) => {
    const userId = await consumeOneTimeToken(token, "verify", db);
    if (!userId) return false;
    const at = now();
    const user = await db
      .updateTable("users")
      .set({ email_verified_at: at, updated_at: at })
      .where("id", "=", userId)
      .where("email_verified_at", "is", null)
      .returning(["id", "email"])
      .executeTakeFirst();
    if (user) {
      record({
        actorId: user.id,
        actorEmail: user.email,
        action: "account.verified",
        targetId: user.id,
        targetEmail: user.email,
      });
    }
    return true;
  });
  return known ? { ok: true } : { ok: false, message: accountMessages.verifyLinkInvalid };
}

/** Sends a new verification link when the address has an unverified account; answers the same either way. */
export async function resendVerificationEmail({ email, ip }: { email: string } & FromClient): Promise<ResendResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);

  return noSoonerThan(ENUMERATION_SAFE_RESPONSE_MS, async () => {
    const user = await getUserRowByEmail(email);
    if (user && !isVerified(user) && (await throttleAccountMail("verify", email)).allowed) {
      accountMail.verify(email, await createOneTimeToken(user.id, "verify"));
    }
    return { ok: true };
  });
}

/**
 * Checks the credentials. 'unverified' is answered only after the right
 * password, and an unknown address costs a dummy hash check, so neither the
 * answer nor its time tells a stranger whether the address is registered.
 * The sign-in is recorded by whoever then issues the session or tokens (recordSignIn).
 */
export async function logIn({ email, password, ip }: Credentials & FromClient): Promise<LoginResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return { ...throttled(throttle.retryAfterSeconds), code: "throttled" };

  const standing = await loginStanding(email);
  if (standing.locked) {
    await verifyDummyPassword(password);
    return lockedOut(standing.retryAfterSeconds);
  }

  const user = await getUserRowByEmail(email);
  const passwordMatches = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyDummyPassword(password);
  if (!user || !passwordMatches) return failLogin(email, user, ip);
  // The hash took a while: wrong guesses sent at once with this one may have locked the address meanwhile,
  // and a lock set before the right guess is judged keeps it from counting.
  const after = await loginStanding(email);
  if (after.locked) return lockedOut(after.retryAfterSeconds);

  if (!isVerified(user)) {
    return { ok: false, status: 403, code: "unverified", message: accountMessages.unverified };
  }

  // Most logins change nothing below; skipping the writes keeps a login close to the cost of its hash.
  if (standing.failures > 0) await clearLoginFailures(email, { unlock: false });
  const rehash = needsRehash(user.password_hash);
  if (rehash) {
    await getDb()
      .updateTable("users")
      .set({ password_hash: await hashPassword(password), updated_at: now() })
      .where("id", "=", user.id)
      // Only over the hash it replaces: a reset that landed while this one was made keeps its password.
      .where("password_hash", "=", user.password_hash)
      .execute();
  }
  return { ok: true, user: toPublicUser(user) };
}

type Account = Pick<PublicUser, "id" | "email">;

/**
 * A sign-in succeeded: a web session or API tokens were just issued, by `method` (the password
 * alone, the password and a code or passkey, or a passkey alone). Only here is `login.succeeded`
 * written: a right password whose code step then fails or locks is no success.
 */
export async function recordSignIn({
  user,
  method,
  via,
  ip,
}: { user: Account; method: AuthMethod; via: "web" | "api" } & FromClient) {
  await changeWithAudit(async (db, record) => {
    await db.updateTable("users").set({ last_login_at: now() }).where("id", "=", user.id).execute();
    record(ownAccountEvent(user, "login.succeeded", { ip, details: { method, via } }));
  });
}

/** The password was right and the second factor's code step follows: not yet a sign-in. */
export async function recordPasswordVerified({ user, via, ip }: { user: Account; via: "web" | "api" } & FromClient) {
  await recordOwnAccountEvent(user, "login.password_verified", { ip, details: { next: "second factor", via } });
}

export type PasswordCheckResult = { ok: true } | Failure<401 | 423 | 429>;

/**
 * The password asked again before a change to how the account signs in. A wrong one counts towards
 * the address's login lock, as at the login, so a stolen session cannot guess it either.
 */
export async function confirmPassword({
  user,
  password,
  ip,
}: { user: Pick<PublicUser, "id" | "email">; password: string } & FromClient): Promise<PasswordCheckResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);
  const standing = await loginStanding(user.email);
  if (standing.locked) return lockedOut(standing.retryAfterSeconds);
  const row = await getUserRowById(user.id);
  if (row && (await verifyPassword(row.password_hash, password))) return { ok: true };
  await recordLoginFailure(user.email);
  await recordOwnAccountEvent(user, "password.confirm_failed", { ip });
  return { ok: false, status: 401, message: accountMessages.passwordWrong };
}

/** Mails a reset link when the address has an account; answers 'Reset Email Sent' either way. */
export async function requestPasswordReset({
  email,
  ip,
}: { email: string } & FromClient): Promise<PasswordResetRequestResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);
  // Counted per address whether or not it is registered, so this 429 reveals nothing either.
  const perAddress = await throttleAccountMail("reset", email);
  if (!perAddress.allowed) {
    return {
      ok: false,
      status: 429,
      message: accountMessages.resetMailsThrottled,
      retryAfterSeconds: perAddress.retryAfterSeconds,
    };
  }

  return noSoonerThan(ENUMERATION_SAFE_RESPONSE_MS, async () => {
    const user = await getUserRowByEmail(email);
    if (user) {
      accountMail.resetPassword(email, await createOneTimeToken(user.id, "reset"));
      await recordAuditEvent({
        actorEmail: email,
        action: "password.reset_requested",
        targetId: user.id,
        targetEmail: email,
        ip,
      });
    }
    return { ok: true };
  });
}

/**
 * Sets a new password with a reset link. Ends every session and API token of
 * the user, lifts a lockout, marks the address verified (the link proved it)
 * and tells the owner by e-mail.
 */
export async function resetPassword({
  token,
  password,
  ip,
}: { token: string; password: string } & FromClient): Promise<ResetPasswordResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);

  const passwordHash = await hashPassword(password);
  const userId = await consumeOneTimeToken(token, "reset");
  const user = userId ? await getUserRowById(userId) : undefined;
  if (!user) return { ok: false, status: 400, message: accountMessages.resetLinkInvalid };

  const at = now();
  await getDb()
    .updateTable("users")
    .set({
      password_hash: passwordHash,
      email_verified_at: user.email_verified_at ?? at,
      updated_at: at,
    })
    .where("id", "=", user.id)
    .execute();
  await deleteOneTimeTokens(user.id, "reset");
  await deleteUserSessions(user.id);
  await revokeApiTokens({ userId: user.id });
  await clearLoginFailures(user.email, { unlock: true });
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "password.reset",
    targetId: user.id,
    targetEmail: user.email,
    ip,
  });
  accountMail.passwordChanged(user.email);
  return { ok: true };
}

/**
 * `npm run create-admin`: creates a verified administrator, or promotes (and
 * re-passwords) the account that has the address. A changed password ends the
 * account's sessions and API tokens, as a reset does, and the account is told by
 * e-mail: a reset nobody asked for means someone else has the firm's server.
 */
export async function createOrPromoteAdministrator({
  email,
  password,
}: NewAccount): Promise<{ created: boolean; user: PublicUser }> {
  const passwordHash = await hashPassword(password);
  const existing = await getUserRowByEmail(email);
  const at = now();
  if (!existing) {
    const user = await changeWithAudit(async (db, record) => {
      const user = await insertUser(
        { email, passwordHash, role: "administrator", verifiedAt: at, made: { by: null, via: "create-admin" } },
        db,
      );
      record({ actorEmail: "create-admin", action: "admin.created", targetId: user.id, targetEmail: email });
      return user;
    });
    return { created: true, user: toPublicUser(user) };
  }
  const user = await getDb()
    .updateTable("users")
    .set({
      role: "administrator",
      password_hash: passwordHash,
      email_verified_at: existing.email_verified_at ?? at,
      created_by: null,
      created_via: "create-admin",
      updated_at: at,
    })
    .where("id", "=", existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await deleteUserSessions(user.id);
  await revokeApiTokens({ userId: user.id });
  await clearLoginFailures(email, { unlock: true });
  // The operator's reset is a whole one: the second factor is set up again at the next login.
  const hadSecondFactor = await forgetSecondFactor(user.id);
  await recordAuditEvent({
    actorEmail: "create-admin",
    action: "admin.promoted",
    details: hadSecondFactor ? { secondFactor: "removed" } : null,
    targetId: user.id,
    targetEmail: email,
  });
  accountMail.resetOnServer(user.email, hadSecondFactor);
  return { created: false, user: toPublicUser(user) };
}

async function failLogin(email: string, user: UserRow | undefined, ip: string): Promise<LoginResult> {
  const { lockedUntil } = await recordLoginFailure(email);
  await recordAuditEvent({
    actorEmail: email,
    action: "login.failed",
    targetId: user?.id ?? null,
    targetEmail: email,
    details: { reason: user ? "wrong_password" : "unknown_email" },
    ip,
  });
  if (!lockedUntil) return { ok: false, status: 401, code: "invalid", message: accountMessages.invalidCredentials };

  await recordAuditEvent({
    actorEmail: email,
    action: "account.locked",
    targetId: user?.id ?? null,
    targetEmail: email,
    details: { until: new Date(lockedUntil).toISOString() },
    ip,
  });
  if (user) accountMail.accountLocked(user.email, LOCKOUT_MS / MINUTE_MS);
  return lockedOut(Math.ceil(LOCKOUT_MS / 1000));
}

/** A new unverified investor, stored with its `account.registered` row; null if the address was just taken. */
async function insertInvestor(email: string, passwordHash: string, ip: string): Promise<UserRow | null> {
  try {
    return await changeWithAudit(async (db, record) => {
      const user = await insertUser({ email, passwordHash, role: "investor", verifiedAt: null }, db);
      record({
        actorId: user.id,
        actorEmail: email,
        action: "account.registered",
        targetId: user.id,
        targetEmail: email,
        ip,
      });
      return user;
    });
  } catch (error) {
    // Two sign-ups of the same new address at once: the second is treated as "already registered".
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Who made an administrator: the inviter through an invitation, or nobody through create-admin. */
export type AdministratorOrigin = { by: string | null; via: "invitation" | "create-admin" };

export async function insertUser(
  input: {
    email: string;
    passwordHash: string;
    role: "investor" | "administrator";
    verifiedAt: number | null;
    made?: AdministratorOrigin;
  },
  db: OnlyWriter = getDb(),
): Promise<UserRow> {
  const at = now();
  return db
    .insertInto("users")
    .values({
      id: randomUUID(),
      email: input.email,
      password_hash: input.passwordHash,
      full_name: "",
      address: "",
      search_text: searchTextFor({ fullName: "", email: input.email }),
      is_nda_sent: 0,
      is_nda_signed: 0,
      role: input.role,
      email_verified_at: input.verifiedAt,
      created_by: input.made?.by ?? null,
      created_via: input.made?.via ?? null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

function throttled(retryAfterSeconds: number): Failure<429> {
  return { ok: false, status: 429, message: accountMessages.throttled, retryAfterSeconds };
}

function lockedOut(retryAfterSeconds: number): Failure<423> & { code: "locked" } {
  return { ok: false, status: 423, code: "locked", message: accountMessages.locked, retryAfterSeconds };
}

/** Runs `work` and answers no sooner than `ms` after the start (real time, not the test clock). */
async function noSoonerThan<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const left = ms - (performance.now() - started);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return result;
}
