/**
 * Sign-in with the password (docs/requirements.md, "Account and NDA states"), called alike by the
 * login page's action and the JSON API: the check of the credentials, with the login lock and the
 * rehash of an old hash, and the audit rows of a sign-in once its session or tokens are issued.
 */
import { accountMessages } from "~/content/account-messages";
import { changeWithAudit, ownAccountEvent, recordAuditEvent, recordOwnAccountEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import {
  clearLoginFailures,
  LOCKOUT_MS,
  loginStanding,
  MINUTE_MS,
  recordLoginFailure,
  throttleAuthRequest,
} from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb, type AuthMethod } from "~/server/db.server";
import { lockedOut, throttled, type FromClient } from "./account-answers.server";
import { accountMail } from "./account-mail.server";
import type { Credentials } from "./account-schemas.server";
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from "./password.server";
import { getUserRowByEmail, isVerified, toPublicUser, type PublicUser, type UserRow } from "./user.server";

export type LoginResult =
  | { ok: true; user: PublicUser }
  | (Failure<401 | 403 | 423 | 429> & { code: "invalid" | "unverified" | "locked" | "throttled" });

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
