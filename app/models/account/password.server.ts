import argon2 from "argon2";
import pLimit from "p-limit";
import commonPasswords from "~/data/common-passwords.json";
import { coresButOne } from "~/server/cores.server";

/** OWASP's argon2id parameters (docs/decisions/0008): 19 MiB, two passes, one lane. */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes and checks take turns for a core but one. Each takes some 25 ms of a core on libuv's thread
 * pool; with logins piling up, one running on every core left the event loop waiting for a core,
 * and every page with it (docs/performance.md, "Room for the event loop"). The rest wait in line.
 */
const hashing = pLimit(coresButOne());

/** Hashes and checks running now, and waiting for their turn. */
export function passwordWork() {
  return { running: hashing.activeCount, waiting: hashing.pendingCount };
}

/**
 * Passwords are compared as Unicode NFC, so that the same characters typed on
 * two keyboards (precomposed or combining accents) give the same hash.
 */
function normalize(password: string) {
  return password.normalize("NFC");
}

export async function hashPassword(password: string): Promise<string> {
  return hashing(() => argon2.hash(normalize(password), ARGON2_OPTIONS));
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => argon2.verify(hash, normalize(password)));
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends what verifyPassword spends, for an e-mail that has no account, so
 * that the time of a failed login does not tell whether the address is registered.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword("dummy password that no account has");
  await verifyPassword(await dummyHash, password);
  return false;
}

/** True for hashes made with other parameters (or another algorithm): upgrade them at the next login. */
export function needsRehash(hash: string): boolean {
  if (!hash.startsWith("$argon2id$")) return true;
  try {
    return argon2.needsRehash(hash, ARGON2_OPTIONS);
  } catch {
    return true;
  }
}

let common: Set<string> | undefined;

/**
 * The most common leaked passwords (app/data/README.md), compared without
 * regard to case: "Password1" is as guessable as "password1".
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(commonPasswords as string[]);
  return common.has(normalize(password).trim().toLowerCase());
}
