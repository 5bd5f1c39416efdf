/**
 * The operator's way in (`npm run create-admin`, scripts/create-admin.ts): an administrator made or
 * re-passworded on the server itself, without a sign-up or an invitation.
 */
import { accountMail } from "~/models/account/account-mail.server";
import type { NewAccount } from "~/models/account/account-schemas.server";
import { revokeApiTokens } from "~/models/account/api-token.server";
import { hashPassword } from "~/models/account/password.server";
import { deleteUserSessions } from "~/models/account/session.server";
import { getUserRowByEmail, insertUser, toPublicUser, type PublicUser } from "~/models/account/user.server";
import { changeWithAudit, recordAuditEvent } from "~/models/audit/audit.server";
import { forgetSecondFactor } from "~/models/second-factor/second-factor.server";
import { clearLoginFailures } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";

/**
 * `npm run create-admin`: creates a verified administrator, or promotes (and
 * re-passwords) the account that has the address. A changed password ends the
 * account's sessions and API tokens, as a reset does, and the account is told by
 * e-mail: a reset nobody asked for means someone else has the firm's server.
 */
export async function createOrPromoteAdministrator({
  email,
  password,
}: NewAccount): Promise<{ created: boolean; user: PublicUser }> {
  const passwordHash = await hashPassword(password);
  const existing = await getUserRowByEmail(email);
  const at = now();
  if (!existing) {
    const user = await changeWithAudit(async (db, record) => {
      const user = await insertUser(
        { email, passwordHash, role: "administrator", verifiedAt: at, made: { by: null, via: "create-admin" } },
        db,
      );
      record({ actorEmail: "create-admin", action: "admin.created", targetId: user.id, targetEmail: email });
      return user;
    });
    return { created: true, user: toPublicUser(user) };
  }
  const user = await getDb()
    .updateTable("users")
    .set({
      role: "administrator",
      password_hash: passwordHash,
      email_verified_at: existing.email_verified_at ?? at,
      created_by: null,
      created_via: "create-admin",
      updated_at: at,
    })
    .where("id", "=", existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await deleteUserSessions(user.id);
  await revokeApiTokens({ userId: user.id });
  await clearLoginFailures(email, { unlock: true });
  // The operator's reset is a whole one: the second factor is set up again at the next login.
  const hadSecondFactor = await forgetSecondFactor(user.id);
  await recordAuditEvent({
    actorEmail: "create-admin",
    action: "admin.promoted",
    details: hadSecondFactor ? { secondFactor: "removed" } : null,
    targetId: user.id,
    targetEmail: email,
  });
  accountMail.resetOnServer(user.email, hadSecondFactor);
  return { created: false, user: toPublicUser(user) };
}
