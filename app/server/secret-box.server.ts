/**
 * Secrets at rest (docs/decisions/0018): encrypted with AES-256-GCM under DATA_KEY before they are
 * stored, in the format of migrations/secret-box.js. DATA_KEY may list several keys: the first
 * encrypts, each decrypts what it encrypted, so a key is rotated by putting the new one first and
 * running `npm run data:rekey`.
 */
import { openSecret, sealedKeyId, sealSecret, dataKeyId } from "../../migrations/secret-box.js";
import { getEnv } from "./env.server";

/** The stored form of `plaintext`, bound to `context` (what it belongs to, e.g. "totp:<user id>"). */
export function seal(plaintext: string, context: string): string {
  return sealSecret(getEnv().dataKeys[0], plaintext, context);
}

/** The secret a stored value holds; throws when no key of DATA_KEY opens it, or it was altered or moved. */
export function unseal(sealed: string, context: string): string {
  return openSecret(getEnv().dataKeys, sealed, context);
}

/** Whether a stored value was encrypted under another key than the first of DATA_KEY. */
export function sealedUnderOlderKey(sealed: string): boolean {
  return sealedKeyId(sealed) !== dataKeyId(getEnv().dataKeys[0]);
}
