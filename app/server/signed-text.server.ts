/**
 * Text the server hands a client to send back unchanged (a list's cursor), signed so that only
 * what the server issued comes back: HMAC-SHA256 under SESSION_SECRET (the first signs, each
 * verifies, as for cookies), bound to its purpose, cut to 128 bits.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "./env.server";

const MAC_BYTES = 16;

function macOf(secret: string, purpose: string, text: string): Buffer {
  return createHmac("sha256", secret).update(`${purpose}\n${text}`).digest().subarray(0, MAC_BYTES);
}

/** `text` (base64url, so it has no dots) with its signature: "<text>.<mac>". */
export function signText(purpose: string, text: string): string {
  return `${text}.${macOf(getEnv().sessionSecrets[0], purpose, text).toString("base64url")}`;
}

/**
 * The text of a signed value this server issued for `purpose`, or null for anything else. The
 * signature is compared as the text it was issued as: base64url's last character carries spare
 * bits, and a changed spare bit is a changed cursor too.
 */
export function verifiedText(purpose: string, signed: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 0) return null;
  const text = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const issued = (secret: string) => Buffer.from(macOf(secret, purpose, text).toString("base64url"));
  return getEnv().sessionSecrets.some((secret) => {
    const expected = issued(secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  })
    ? text
    : null;
}
