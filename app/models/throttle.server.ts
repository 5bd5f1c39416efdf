/**
 * Every throttle of the account life cycle, in one place (docs/requirements.md, "Security and reliability").
 * Counters live in the database (rate_limits), so they hold across processes.
 *
 * Where each applies:
 * - 10 auth requests a minute per IP: inside each account use case of
 *   app/models/account.server.ts (register, resend, login, forgot, reset) and
 *   in the API's refresh route, all through `throttleAuthRequest(ip)`; page
 *   actions and API routes therefore share one counter per address and need
 *   not call it themselves.
 * - 20 failed logins an hour lock the address for 15 minutes: `recordLoginFailure`.
 *   Counted per e-mail address whether or not an account has it, so the lock
 *   itself does not reveal which addresses are registered.
 * - 3 reset (and 3 verification) e-mails per address an hour: `throttleAccountMail`.
 */
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { clearRateLimit, hitRateLimit, type RateLimitResult } from "~/server/rate-limit.server";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

export const AUTH_REQUESTS_PER_MINUTE = 10;
export const LOGIN_FAILURES_BEFORE_LOCK = 20;
export const LOGIN_FAILURE_WINDOW_MS = HOUR_MS;
export const LOCKOUT_MS = 15 * MINUTE_MS;
export const ACCOUNT_MAILS_PER_HOUR = 3;

/** One auth request from `ip`; the limit can be raised (never lowered) by AUTH_RATE_LIMIT_PER_MINUTE. */
export function throttleAuthRequest(ip: string): Promise<RateLimitResult> {
  const limit = Math.max(AUTH_REQUESTS_PER_MINUTE, getEnv().authRateLimitPerMinute ?? 0);
  return hitRateLimit(`auth-ip:${ip}`, { limit, windowMs: MINUTE_MS });
}

/** One reset or verification e-mail to `email`; refused past three an hour, whether or not it has an account. */
export function throttleAccountMail(kind: "reset" | "verify", email: string): Promise<RateLimitResult> {
  return hitRateLimit(`${kind}-mail:${email}`, { limit: ACCOUNT_MAILS_PER_HOUR, windowMs: HOUR_MS });
}

const failuresKey = (email: string) => `login-failures:${email}`;
const lockKey = (email: string) => `login-lock:${email}`;

/**
 * Where an address stands before its password is checked: locked (even the right password is
 * refused until the lock ends, or a reset clears it), or open with its failures in the current window.
 */
export async function loginStanding(
  email: string,
): Promise<{ locked: false; failures: number } | { locked: true; retryAfterSeconds: number }> {
  const at = now();
  const keys = { lock: lockKey(email), failures: failuresKey(email) };
  const rows = await getDb()
    .selectFrom("rate_limits")
    .select(["key", "count", "reset_at"])
    .where("key", "in", [keys.lock, keys.failures])
    .where("reset_at", ">", at)
    .execute();
  const lock = rows.find((row) => row.key === keys.lock);
  if (lock) return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil((lock.reset_at - at) / 1000)) };
  return { locked: false, failures: rows.find((row) => row.key === keys.failures)?.count ?? 0 };
}

/** Counts a failed login; the twentieth within the hour locks the address (`lockedUntil` is then set). */
export async function recordLoginFailure(email: string): Promise<{ lockedUntil: number | null }> {
  const result = await hitRateLimit(failuresKey(email), {
    limit: LOGIN_FAILURES_BEFORE_LOCK - 1,
    windowMs: LOGIN_FAILURE_WINDOW_MS,
  });
  if (result.allowed) return { lockedUntil: null };
  const until = now() + LOCKOUT_MS;
  await getDb()
    .insertInto("rate_limits")
    .values({ key: lockKey(email), count: 1, reset_at: until })
    .onConflict((oc) => oc.column("key").doUpdateSet({ count: 1, reset_at: until }))
    .execute();
  // After the lock the address starts again from zero failures.
  await clearRateLimit(failuresKey(email));
  return { lockedUntil: until };
}

/** A successful login forgets the failures; a password reset also lifts the lock. */
export async function clearLoginFailures(email: string, { unlock }: { unlock: boolean }) {
  await clearRateLimit(failuresKey(email));
  if (unlock) await clearRateLimit(lockKey(email));
}
