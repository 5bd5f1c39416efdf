import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes, base64url: what a verify link, a reset link, a session cookie or an API token carries. */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored, so a copy of the database opens no account. */
export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 32 bytes in base64url are exactly 43 characters of its alphabet; anything else is not ours. */
export function looksLikeSecretToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}
