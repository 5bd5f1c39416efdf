/**
 * What the account use cases (sign-up.server.ts, sign-in.server.ts, password-reset.server.ts, and the
 * password asked again in reauthentication.server.ts) answer alike: the throttled and locked refusals,
 * the client's address they take for throttling and audit, and the floor on the time of the answers that
 * must not reveal whether an address is registered.
 */
import { accountMessages } from "~/content/account-messages";
import type { Failure } from "~/models/failure";

/**
 * Sign-up, forgot password and resend answer no sooner than this, so that the
 * path taken (new account or known one, mail or none) cannot be timed. It is
 * well above the work itself (one argon2 hash, a few writes).
 */
export const ENUMERATION_SAFE_RESPONSE_MS = 250;

export type FromClient = { ip: string };

export function throttled(retryAfterSeconds: number): Failure<429> {
  return { ok: false, status: 429, message: accountMessages.throttled, retryAfterSeconds };
}

export function lockedOut(retryAfterSeconds: number): Failure<423> & { code: "locked" } {
  return { ok: false, status: 423, code: "locked", message: accountMessages.locked, retryAfterSeconds };
}

/** Runs `work` and answers no sooner than `ms` after the start (real time, not the test clock). */
export async function noSoonerThan<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const left = ms - (performance.now() - started);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return result;
}
