/**
 * Administrators managed by administrators (docs/requirements.md, "Administrators"): the list, the
 * removal of one, and the reset of one's second factor. Removing an administrator deletes their
 * account (their sessions, API tokens, second factor and pending invitations go with it, ON DELETE
 * CASCADE); the last administrator is never removed. The caller has checked "sudo mode".
 */
import { sql } from "kysely";
import { administratorErrors } from "~/content/administrators";
import { accountMail } from "~/models/account/account-mail.server";
import type { PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { afterFactorChange } from "~/models/second-factor/factor-change.server";
import {
  forgetSecondFactor,
  hasAppOf,
  passkeyCountOf,
  type SecondFactorStatus,
} from "~/models/second-factor/second-factor.server";
import { getDb, type Role } from "~/server/db.server";
import { alsoOnlyWriterOf } from "~/server/sql-dialect.server";

type Account = Pick<PublicUser, "id" | "email">;
type FromClient = { ip: string };

export type AdministratorEntry = {
  id: string;
  email: string;
  secondFactor: Pick<SecondFactorStatus, "totp" | "passkeys">;
  /** ISO 8601, or null: not since migration 011 began recording it. */
  lastSignIn: string | null;
  /** Who made them an administrator. */
  createdBy: { via: "create-admin" } | { via: "invitation"; email: string | null } | { via: null };
};

/** Written into the SQL, so that the administrators' own index serves (migrations/018). */
const administratorRole = sql.lit<Role>("administrator");

/** Every administrator, oldest first, with their second factor, last sign-in and who made them one. */
export async function listAdministrators(): Promise<AdministratorEntry[]> {
  const rows = await getDb()
    .selectFrom("users")
    .leftJoin("users as creator", "creator.id", "users.created_by")
    .select((eb) => [
      "users.id",
      "users.email",
      "users.last_login_at",
      "users.created_via",
      "creator.email as creator_email",
      // Each administrator's second factor in the same statement, not one more statement an administrator.
      hasAppOf(eb).as("totp"),
      passkeyCountOf(eb).as("passkeys"),
    ])
    .where("users.role", "=", administratorRole)
    .orderBy("users.created_at")
    .orderBy("users.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    secondFactor: { totp: Boolean(row.totp), passkeys: Number(row.passkeys) },
    lastSignIn: row.last_login_at === null ? null : new Date(Number(row.last_login_at)).toISOString(),
    createdBy:
      row.created_via === "invitation"
        ? { via: "invitation" as const, email: row.creator_email }
        : { via: row.created_via },
  }));
}

const unknownAdministrator: Failure<404> = {
  ok: false,
  status: 404,
  message: administratorErrors.unknownAdministrator,
};

export type RemoveResult = { ok: true; email: string; removedSelf: boolean } | Failure<404 | 409>;

/**
 * Removes an administrator by deleting their account, unless they are the last one. The count and
 * the delete run as the only writer of administrators, so two administrators removing each other
 * at once leave one (docs/decisions/0017): the second finds one administrator left and is refused. The
 * delete is stored with its audit row (decision 0026).
 */
export async function removeAdministrator({
  actor,
  id,
  ip,
}: { actor: Account; id: string } & FromClient): Promise<RemoveResult> {
  const outcome = await changeWithAudit(async (db, record) => {
    await alsoOnlyWriterOf(db, "administrators");
    const target = await db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", id)
      .where("role", "=", "administrator")
      .executeTakeFirst();
    if (!target) return unknownAdministrator;
    const { n } = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("role", "=", administratorRole)
      .executeTakeFirstOrThrow();
    if (Number(n) <= 1) {
      return { ok: false, status: 409, message: administratorErrors.lastAdministrator } satisfies Failure<409>;
    }
    await db.deleteFrom("users").where("id", "=", target.id).where("role", "=", "administrator").execute();
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "admin.removed",
      targetId: target.id,
      targetEmail: target.email,
      details: { accountDeleted: true },
      ip,
    });
    return { ok: true, target } as const;
  });
  if (!outcome.ok) return outcome;
  const { target } = outcome;
  accountMail.administratorRemoved(target.email, actor.email);
  return { ok: true, email: target.email, removedSelf: target.id === actor.id };
}

export type ResetResult = { ok: true; email: string; resetSelf: boolean } | Failure<404>;

/**
 * Resets an administrator's second factor: the app, passkeys and recovery codes are deleted, every
 * session and API token of theirs ends, and they are told; at their next sign-in the enforced
 * set-up asks them for a new one.
 */
export async function resetAdministratorFactor({
  actor,
  id,
  ip,
}: { actor: Account; id: string } & FromClient): Promise<ResetResult> {
  const target = await getDb()
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "=", id)
    .where("role", "=", "administrator")
    .executeTakeFirst();
  if (!target) return unknownAdministrator;
  await forgetSecondFactor(target.id);
  await afterFactorChange({ account: target, keepSessionIdHash: null, action: "admin.factor_reset", by: actor, ip });
  return { ok: true, email: target.email, resetSelf: target.id === actor.id };
}
