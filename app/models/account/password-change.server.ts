/**
 * A signed-in user changes their password (docs/requirements.md, 7c). The current password is the
 * proof: a wrong one counts towards the login's lock as at the login, and changes nothing. The new
 * password is stored, the session it was changed in stays, every other session and API token family
 * ends, pending reset links die, and the account is told by e-mail.
 */
import { recordOwnAccountEvent } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { accountMail } from "./account-mail.server";
import { revokeApiTokens } from "./api-token.server";
import { deleteOneTimeTokens } from "./one-time-token.server";
import { hashPassword } from "./password.server";
import { confirmPassword, type PasswordCheckResult } from "./reauthentication.server";
import { deleteUserSessions } from "./session.server";
import type { PublicUser } from "./user.server";

export async function changePassword({
  user,
  sessionIdHash,
  currentPassword,
  newPassword,
  ip,
}: {
  user: Pick<PublicUser, "id" | "email">;
  /** The session the change is made in: it stays signed in. */
  sessionIdHash: string;
  currentPassword: string;
  /** Already held to the sign-up's rules by passwordSchema. */
  newPassword: string;
  ip: string;
}): Promise<PasswordCheckResult> {
  const confirmed = await confirmPassword({ user, password: currentPassword, ip });
  if (!confirmed.ok) return confirmed;

  const at = now();
  await getDb()
    .updateTable("users")
    .set({ password_hash: await hashPassword(newPassword), updated_at: at })
    .where("id", "=", user.id)
    .execute();
  await deleteOneTimeTokens(user.id, "reset");
  await deleteUserSessions(user.id, { keepIdHash: sessionIdHash });
  await revokeApiTokens({ userId: user.id });
  await recordOwnAccountEvent(user, "password.changed", { ip, details: { otherSessionsEnded: true } });
  accountMail.passwordChangedSignedIn(user.email);
  return { ok: true };
}
