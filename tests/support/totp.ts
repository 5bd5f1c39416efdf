/**
 * The tests' authenticator app: RFC 6238 codes (SHA-1, 6 digits, 30 seconds) made with otpauth
 * apart from the app's own module, so a test checks the server against the standard's parameters.
 */
import { Secret, TOTP } from "otpauth";

const PERIOD_MS = 30_000;

/** A new random secret in base32, as an authenticator app would be given. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The code of `secret` at `at` (milliseconds). */
export function totpCode(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: at,
  });
}

const lastStep = new Map<string, number>();

/**
 * A code the server has not yet seen for `secret`, on the real clock. The server takes each
 * 30-second step once and allows one step of drift, so this gives the current step's code, then
 * the next step's, and waits for the clock when both are spent.
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  const current = Math.floor(Date.now() / PERIOD_MS);
  const step = Math.max(current, (lastStep.get(secret) ?? current - 1) + 1);
  if (step > current + 1)
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * PERIOD_MS - Date.now() + 100));
  lastStep.set(secret, step);
  return totpCode(secret, step * PERIOD_MS);
}
