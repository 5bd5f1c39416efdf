/**
 * Deleting an investor: the one investor the confirmation page shows, the API call's payload, and the
 * deletion itself, audited (administrators are refused).
 */
import { z } from "zod";
import { adminContent } from "~/content/admin";
import { apiMessages } from "~/content/api-messages";
import type { InvestorRow } from "~/lib/investor-table";
import { PUBLIC_USER_COLUMNS } from "~/models/account/user.server";
import { notFound, type Actor, type AdminResult } from "~/models/administrators/admin-result.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { getDb } from "~/server/db.server";
import { toInvestorRow } from "./investor-table.server";

/**
 * Deletes an investor; their sessions, API tokens and pending one-time links
 * go with them (ON DELETE CASCADE). Administrators are refused.
 */
export async function deleteInvestor({
  actor,
  id,
  ip,
}: {
  actor: Actor;
  id: string;
  ip?: string | null;
}): Promise<AdminResult<{ email: string }>> {
  const target = await getDb().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!target) return notFound;
  if (target.role !== "investor") return { ok: false, status: 403, message: adminContent.errors.administrator };
  const deleted = await changeWithAudit(async (db, record) => {
    // Deleted only if still an investor: promoted meanwhile, or deleted by another administrator, it is not.
    const { numDeletedRows } = await db
      .deleteFrom("users")
      .where("id", "=", target.id)
      .where("role", "=", "investor")
      .executeTakeFirst();
    if (numDeletedRows === 0n) return false;
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "investor.deleted",
      targetId: target.id,
      targetEmail: target.email,
      ip,
    });
    return true;
  });
  if (!deleted) return notFound;
  return { ok: true, email: target.email };
}

/** One investor by id, for the confirmation page. */
export async function getInvestorById(id: string): Promise<InvestorRow | null> {
  const row = await getDb()
    .selectFrom("users")
    .select(PUBLIC_USER_COLUMNS)
    .where("id", "=", id)
    .where("role", "=", "investor")
    .executeTakeFirst();
  return row ? toInvestorRow(row) : null;
}

export const deleteInvestorSchema = z.object({
  id: z
    .string({ error: apiMessages.idNotText })
    .regex(/\S/, { error: apiMessages.idEmpty })
    .trim()
    .min(1, { error: apiMessages.idEmpty })
    .max(64, { error: apiMessages.idTooLong }),
});
