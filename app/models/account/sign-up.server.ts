/**
 * Sign-up and the verification of the address (docs/requirements.md, "Account and NDA states"), called
 * alike by the pages' actions and the JSON API. Each takes input its caller has already parsed with the
 * schemas of account-schemas.server.ts, and answers without revealing whether an address is registered:
 * the same result, the same e-mail count (one, to the address's owner) and, as measured in tests, the
 * same time.
 */
import { accountMessages } from "~/content/account-messages";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { throttleAccountMail, throttleAuthRequest } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { isUniqueViolation } from "~/server/sql-dialect.server";
import { ENUMERATION_SAFE_RESPONSE_MS, noSoonerThan, throttled, type FromClient } from "./account-answers.server";
import { accountMail } from "./account-mail.server";
import type { NewAccount } from "./account-schemas.server";
import { consumeOneTimeToken, createOneTimeToken } from "./one-time-token.server";
import { hashPassword } from "./password.server";
import { looksLikeSecretToken } from "./secret-token.server";
import { getUserRowByEmail, insertUser, isVerified, type UserRow } from "./user.server";

export type RegisterResult = { ok: true } | Failure<429>;
export type VerifyResult = { ok: true } | { ok: false; message: string };
export type ResendResult = { ok: true } | Failure<429>;

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
