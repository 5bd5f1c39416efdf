/**
 * Every throttle of the account life cycle, in one place (docs/requirements.md, "Security and reliability").
 * Counters live in the database (rate_limits), so they hold across processes.
 *
 * Where each applies:
 * - 10 auth requests a minute per IP: inside each account use case of
 *   app/models/account/sign-up.server.ts (register, resend), sign-in.server.ts (login),
 *   password-reset.server.ts (forgot, reset), reauthentication.server.ts (the password asked again) and
 *   in the API's refresh route, all through `throttleAuthRequest(ip)`; page
 *   actions and API routes therefore share one counter per address and need
 *   not call it themselves.
 * - 20 failed logins an hour lock the address for 15 minutes: `recordLoginFailure`.
 *   Counted per e-mail address whether or not an account has it, so the lock
 *   itself does not reveal which addresses are registered.
 * - 3 reset (and 3 verification) e-mails per address an hour: `throttleAccountMail`.
 * - The second factor's code has limits of its own (app/models/second-factor/second-factor.server.ts): 10 codes
 *   a minute per IP (`throttleCodeRequest`), and 5 wrong codes in 15 minutes lock the account's
 *   second step for 15 minutes (`recordCodeFailure`), whichever step or client sent them.
 *
 * Each refusal is counted for the metrics under its rule's name (portal_rate_limit_refusals_total).
 */
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { countRateLimitRefusal, type RateLimitRuleName } from "~/server/metrics.server";
import { clearRateLimit, hitRateLimit, type RateLimitResult } from "~/server/rate-limit.server";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

export const AUTH_REQUESTS_PER_MINUTE = 10;
export const LOGIN_FAILURES_BEFORE_LOCK = 20;
export const LOGIN_FAILURE_WINDOW_MS = HOUR_MS;
export const LOCKOUT_MS = 15 * MINUTE_MS;
export const ACCOUNT_MAILS_PER_HOUR = 3;
export const CODE_REQUESTS_PER_MINUTE = 10;
export const CODE_FAILURES_BEFORE_LOCK = 5;
export const CODE_FAILURE_WINDOW_MS = 15 * MINUTE_MS;
export const CODE_LOCKOUT_MS = 15 * MINUTE_MS;

/** The result, with a refusal counted under `rule`. */
function counted(rule: RateLimitRuleName, result: RateLimitResult): RateLimitResult {
  if (!result.allowed) countRateLimitRefusal(rule);
  return result;
}

/** One auth request from `ip`; the limit can be raised (never lowered) by AUTH_RATE_LIMIT_PER_MINUTE. */
export async function throttleAuthRequest(ip: string): Promise<RateLimitResult> {
  const limit = Math.max(AUTH_REQUESTS_PER_MINUTE, getEnv().authRateLimitPerMinute ?? 0);
  return counted("auth-ip", await hitRateLimit(`auth-ip:${ip}`, { limit, windowMs: MINUTE_MS }));
}

/** One reset or verification e-mail to `email`; refused past three an hour, whether or not it has an account. */
export async function throttleAccountMail(kind: "reset" | "verify", email: string): Promise<RateLimitResult> {
  const result = await hitRateLimit(`${kind}-mail:${email}`, { limit: ACCOUNT_MAILS_PER_HOUR, windowMs: HOUR_MS });
  return counted(kind === "reset" ? "reset-mail" : "verify-mail", result);
}

/** The rate_limits keys of one lockout, and the rule its refusals are counted under. */
type LockoutKeys = { failures: string; lock: string; rule: RateLimitRuleName };
type LockoutRule = { failuresBeforeLock: number; windowMs: number; lockMs: number };
export type Standing = { locked: false; failures: number } | { locked: true; retryAfterSeconds: number };

const loginKeys = (email: string): LockoutKeys => ({
  failures: `login-failures:${email}`,
  lock: `login-lock:${email}`,
  rule: "login-lock",
});
const LOGIN_RULE: LockoutRule = {
  failuresBeforeLock: LOGIN_FAILURES_BEFORE_LOCK,
  windowMs: LOGIN_FAILURE_WINDOW_MS,
  lockMs: LOCKOUT_MS,
};
const codeKeys = (userId: string): LockoutKeys => ({
  failures: `code-failures:${userId}`,
  lock: `code-lock:${userId}`,
  rule: "code-lock",
});
const CODE_RULE: LockoutRule = {
  failuresBeforeLock: CODE_FAILURES_BEFORE_LOCK,
  windowMs: CODE_FAILURE_WINDOW_MS,
  lockMs: CODE_LOCKOUT_MS,
};

/**
 * Where an address stands before its password is checked: locked (even the right password is
 * refused until the lock ends, or a reset clears it), or open with its failures in the current window.
 */
export function loginStanding(email: string): Promise<Standing> {
  return standingOf(loginKeys(email));
}

/** Counts a failed login; the twentieth within the hour locks the address (`lockedUntil` is then set). */
export function recordLoginFailure(email: string): Promise<{ lockedUntil: number | null }> {
  return recordFailure(loginKeys(email), LOGIN_RULE);
}

/** One second-factor code from `ip`, whether the login page, the API or a settings form sent it. */
export async function throttleCodeRequest(ip: string): Promise<RateLimitResult> {
  return counted(
    "code-ip",
    await hitRateLimit(`code-ip:${ip}`, { limit: CODE_REQUESTS_PER_MINUTE, windowMs: MINUTE_MS }),
  );
}

/** Where an account's second step stands: locked after too many wrong codes, or open. */
export function codeStanding(userId: string): Promise<Standing> {
  return standingOf(codeKeys(userId));
}

/**
 * Counts a code attempt before it is checked, so that attempts made at once (on several instances, say)
 * are all counted before any is judged, and no more than five are ever checked in the window: `allowed`
 * false for the sixth while five are pending; `last` for the fifth, whose failure locks the step.
 */
export async function reserveCodeAttempt(userId: string): Promise<{ allowed: boolean; last: boolean }> {
  const keys = codeKeys(userId);
  const result = await hitRateLimit(keys.failures, {
    limit: CODE_RULE.failuresBeforeLock,
    windowMs: CODE_RULE.windowMs,
  });
  if (!result.allowed) countRateLimitRefusal(keys.rule);
  return result.allowed ? { allowed: true, last: result.remaining === 0 } : { allowed: false, last: false };
}

/**
 * Locks the account's second step (the last attempt of the window failed); returns until when. The
 * attempts stay counted: their window ends before the lock does, and attempts still in flight must find
 * the window full rather than a fresh one.
 */
export function lockCodeStep(userId: string): Promise<number | null> {
  return lock(codeKeys(userId), CODE_RULE);
}

/** A right code forgets the attempts before it. */
export async function clearCodeFailures(userId: string) {
  await clearRateLimit(codeKeys(userId).failures);
}

async function standingOf(keys: LockoutKeys): Promise<Standing> {
  const at = now();
  const rows = await getDb()
    .selectFrom("rate_limits")
    .select(["key", "count", "reset_at"])
    .where("key", "in", [keys.lock, keys.failures])
    .where("reset_at", ">", at)
    .execute();
  const lock = rows.find((row) => row.key === keys.lock);
  if (lock) {
    // Every caller refuses what it was asked while the lock is on.
    countRateLimitRefusal(keys.rule);
    return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil((lock.reset_at - at) / 1000)) };
  }
  return { locked: false, failures: rows.find((row) => row.key === keys.failures)?.count ?? 0 };
}

async function recordFailure(keys: LockoutKeys, rule: LockoutRule): Promise<{ lockedUntil: number | null }> {
  const result = await hitRateLimit(keys.failures, { limit: rule.failuresBeforeLock - 1, windowMs: rule.windowMs });
  if (result.allowed) return { lockedUntil: null };
  const until = await lock(keys, rule);
  // After the lock the counting starts again from zero failures.
  await clearRateLimit(keys.failures);
  return { lockedUntil: until };
}

/**
 * Sets the lock unless one is already on, and returns its end; null if another request's lock is on
 * (two failures at once that both crossed the line: one locks, and only that one says so).
 */
async function lock(keys: LockoutKeys, rule: LockoutRule): Promise<number | null> {
  const at = now();
  const until = at + rule.lockMs;
  const set = await getDb()
    .insertInto("rate_limits")
    .values({ key: keys.lock, count: 1, reset_at: until })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({ count: 1, reset_at: until }).where("rate_limits.reset_at", "<=", at),
    )
    .returning("reset_at")
    .executeTakeFirst();
  return set ? until : null;
}

/** A successful login forgets the failures; a password reset also lifts the lock. */
export async function clearLoginFailures(email: string, { unlock }: { unlock: boolean }) {
  const keys = loginKeys(email);
  await clearRateLimit(keys.failures);
  if (unlock) await clearRateLimit(keys.lock);
}
