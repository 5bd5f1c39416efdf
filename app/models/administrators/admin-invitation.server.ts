/**
 * Invitations to become an administrator (docs/requirements.md, "Administrators"): an administrator
 * invites an address, the invitee gets a one-time link valid for INVITATION_TTL_MS, and following
 * it they choose a password and become a verified administrator, made by the inviter. Only the
 * token's SHA-256 is stored; an accepted or revoked invitation's row is deleted, so the link opens
 * nothing afterwards. The caller has checked "sudo mode" (app/http/sudo.server.ts).
 */
import { randomUUID } from "node:crypto";
import { accountMessages } from "~/content/account-messages";
import { administratorErrors, INVITATION_HOURS, invitationPage } from "~/content/administrators";
import { accountMail } from "~/models/account/account-mail.server";
import { hashPassword } from "~/models/account/password.server";
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from "~/models/account/secret-token.server";
import { getUserRowByEmail, insertUser, toPublicUser, type PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { HOUR_MS, throttleAuthRequest } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { alsoOnlyWriterOf, isUniqueViolation } from "~/server/sql-dialect.server";

export const INVITATION_TTL_MS = INVITATION_HOURS * HOUR_MS;

type Account = Pick<PublicUser, "id" | "email">;
type FromClient = { ip: string };

export type PendingInvitation = { id: string; email: string; invitedBy: string; expiresAt: string };

/** The pending (unexpired) invitations, oldest first, with the inviter's address. */
export async function listPendingInvitations(): Promise<PendingInvitation[]> {
  const rows = await getDb()
    .selectFrom("admin_invitations")
    // The inviter by a lookup per invitation, not a join: once ANALYZE has counted 100,000 investors and no
    // invitations, SQLite's planner walked every user to probe the empty table (0.3 ms became 45-95 ms).
    .select((eb) => [
      "admin_invitations.id",
      "admin_invitations.email",
      "admin_invitations.expires_at",
      eb
        .selectFrom("users")
        .select("users.email")
        .whereRef("users.id", "=", "admin_invitations.invited_by")
        .$asScalar()
        .$notNull()
        .as("invited_by_email"),
    ])
    .where("admin_invitations.expires_at", ">=", now())
    .orderBy("admin_invitations.created_at")
    .orderBy("admin_invitations.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    invitedBy: row.invited_by_email,
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
  }));
}

export type InviteResult = { ok: true; email: string } | Failure<409>;

/**
 * Invites `email` (already normalized by the schema): refused with 409 when an account has the
 * address, administrator or investor (an investor is never promoted behind their back: an
 * administrator needs an account of their own). Inviting an address again replaces its link.
 */
export async function inviteAdministrator({
  actor,
  email,
  ip,
}: { actor: Account; email: string } & FromClient): Promise<InviteResult> {
  const existing = await getUserRowByEmail(email);
  if (existing) {
    const message =
      existing.role === "administrator"
        ? administratorErrors.alreadyAdministrator
        : administratorErrors.investorAddress;
    return { ok: false, status: 409, message };
  }
  const token = newSecretToken();
  const at = now();
  const expiresAt = at + INVITATION_TTL_MS;
  // One writer per address: two invitations at once must not each delete nothing and then both insert.
  await changeWithAudit(async (db, record) => {
    await alsoOnlyWriterOf(db, `admin_invitations:${email}`);
    const earlier = await db.deleteFrom("admin_invitations").where("email", "=", email).executeTakeFirst();
    await db
      .insertInto("admin_invitations")
      .values({
        id: randomUUID(),
        token_hash: hashSecretToken(token),
        email,
        invited_by: actor.id,
        created_at: at,
        expires_at: expiresAt,
      })
      .execute();
    const replaced = earlier.numDeletedRows > 0n;
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "admin.invited",
      targetEmail: email,
      details: { expiresAt: new Date(expiresAt).toISOString(), ...(replaced ? { replacedEarlierLink: true } : {}) },
      ip,
    });
  });
  accountMail.administratorInvitation(email, actor.email, token);
  return { ok: true, email };
}

export type RevokeResult = { ok: true; email: string } | Failure<404>;

/** Withdraws a pending invitation: its link stops working, and the invitee is told. */
export async function revokeInvitation({
  actor,
  id,
  ip,
}: { actor: Account; id: string } & FromClient): Promise<RevokeResult> {
  const revoked = await changeWithAudit(async (db, record) => {
    const revoked = await db
      .deleteFrom("admin_invitations")
      .where("id", "=", id)
      .where("expires_at", ">=", now())
      .returning("email")
      .executeTakeFirst();
    if (revoked) {
      record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: "admin.invitation_revoked",
        targetEmail: revoked.email,
        ip,
      });
    }
    return revoked;
  });
  if (!revoked) return { ok: false, status: 404, message: administratorErrors.unknownInvitation };
  accountMail.administratorInvitationRevoked(revoked.email, actor.email);
  return { ok: true, email: revoked.email };
}

/** The address a still-valid invitation link was sent to, without using it up (to show the form), or null. */
export async function findInvitationEmail(token: unknown): Promise<string | null> {
  if (!looksLikeSecretToken(token)) return null;
  const row = await getDb()
    .selectFrom("admin_invitations")
    .select("email")
    .where("token_hash", "=", hashSecretToken(token))
    .where("expires_at", ">=", now())
    .executeTakeFirst();
  return row?.email ?? null;
}

export type AcceptResult = { ok: true; user: PublicUser } | Failure<409 | 410 | 429>;

/**
 * Follows an invitation link with the new password: the invitation is used up and the account made
 * (verified, an administrator, made by the inviter) in one transaction, so a link works once. The
 * new administrator has no second factor yet: the caller opens an enrolment-only session.
 */
export async function acceptInvitation({
  token,
  password,
  ip,
}: { token: string; password: string } & FromClient): Promise<AcceptResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) {
    return {
      ok: false,
      status: 429,
      message: accountMessages.throttled,
      retryAfterSeconds: throttle.retryAfterSeconds,
    };
  }
  const refused: Failure<410> = { ok: false, status: 410, message: invitationPage.refused };
  if (!looksLikeSecretToken(token)) return refused;
  const passwordHash = await hashPassword(password);
  let made;
  try {
    made = await changeWithAudit(async (db, record) => {
      await alsoOnlyWriterOf(db, `admin_invitation:${hashSecretToken(token)}`);
      const at = now();
      const invitation = await db
        .deleteFrom("admin_invitations")
        .where("token_hash", "=", hashSecretToken(token))
        .where("expires_at", ">=", at)
        .returning(["email", "invited_by"])
        .executeTakeFirst();
      if (!invitation) return null;
      const user = await insertUser(
        {
          email: invitation.email,
          passwordHash,
          role: "administrator",
          verifiedAt: at,
          made: { by: invitation.invited_by, via: "invitation" },
        },
        db,
      );
      const inviter = await db
        .selectFrom("users")
        .select("email")
        .where("id", "=", invitation.invited_by)
        .executeTakeFirst();
      record({
        actorId: user.id,
        actorEmail: user.email,
        action: "admin.invitation_accepted",
        targetId: user.id,
        targetEmail: user.email,
        details: { invitedBy: inviter?.email ?? invitation.invited_by },
        ip,
      });
      return user;
    });
  } catch (error) {
    // An account took the address after the invitation was sent; the invitation stays, and refuses again.
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: invitationPage.addressTaken };
    throw error;
  }
  if (!made) return refused;
  return { ok: true, user: toPublicUser(made) };
}
