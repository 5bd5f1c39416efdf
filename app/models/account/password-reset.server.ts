/**
 * The forgotten password (docs/requirements.md, "Account and NDA states"), called alike by the pages'
 * actions and the JSON API: the request for a reset link, answered the same whether or not the address
 * is registered, and the new password set with that link.
 */
import { accountMessages } from "~/content/account-messages";
import { recordAuditEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { clearLoginFailures, throttleAccountMail, throttleAuthRequest } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { ENUMERATION_SAFE_RESPONSE_MS, noSoonerThan, throttled, type FromClient } from "./account-answers.server";
import { accountMail } from "./account-mail.server";
import { revokeApiTokens } from "./api-token.server";
import { consumeOneTimeToken, createOneTimeToken, deleteOneTimeTokens } from "./one-time-token.server";
import { hashPassword } from "./password.server";
import { deleteUserSessions } from "./session.server";
import { getUserRowByEmail, getUserRowById } from "./user.server";

export type PasswordResetRequestResult = { ok: true } | Failure<429>;
export type ResetPasswordResult = { ok: true } | Failure<400 | 429>;

/** Mails a reset link when the address has an account; answers 'Reset Email Sent' either way. */
export async function requestPasswordReset({
  email,
  ip,
}: { email: string } & FromClient): Promise<PasswordResetRequestResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);
  // Counted per address whether or not it is registered, so this 429 reveals nothing either.
  const perAddress = await throttleAccountMail("reset", email);
  if (!perAddress.allowed) {
    return {
      ok: false,
      status: 429,
      message: accountMessages.resetMailsThrottled,
      retryAfterSeconds: perAddress.retryAfterSeconds,
    };
  }

  return noSoonerThan(ENUMERATION_SAFE_RESPONSE_MS, async () => {
    const user = await getUserRowByEmail(email);
    if (user) {
      accountMail.resetPassword(email, await createOneTimeToken(user.id, "reset"));
      await recordAuditEvent({
        actorEmail: email,
        action: "password.reset_requested",
        targetId: user.id,
        targetEmail: email,
        ip,
      });
    }
    return { ok: true };
  });
}

/**
 * Sets a new password with a reset link. Ends every session and API token of
 * the user, lifts a lockout, marks the address verified (the link proved it)
 * and tells the owner by e-mail.
 */
export async function resetPassword({
  token,
  password,
  ip,
}: { token: string; password: string } & FromClient): Promise<ResetPasswordResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);

  const passwordHash = await hashPassword(password);
  const userId = await consumeOneTimeToken(token, "reset");
  const user = userId ? await getUserRowById(userId) : undefined;
  if (!user) return { ok: false, status: 400, message: accountMessages.resetLinkInvalid };

  const at = now();
  await getDb()
    .updateTable("users")
    .set({
      password_hash: passwordHash,
      email_verified_at: user.email_verified_at ?? at,
      updated_at: at,
    })
    .where("id", "=", user.id)
    .execute();
  await deleteOneTimeTokens(user.id, "reset");
  await deleteUserSessions(user.id);
  await revokeApiTokens({ userId: user.id });
  await clearLoginFailures(user.email, { unlock: true });
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "password.reset",
    targetId: user.id,
    targetEmail: user.email,
    ip,
  });
  accountMail.passwordChanged(user.email);
  return { ok: true };
}
