/**
 * A document's audience: a chosen audience given by e-mail addresses (each must be an investor's, else the first
 * that is not is named) or by ids, and an administrator's change of it.
 */
import { libraryContent } from "~/content/library";
import { materialsMessages } from "~/content/materials";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb, type DocumentAudienceKind } from "~/server/db.server";
import { byActor, type Actor, type MaterialsResult } from "./library-documents.server";

export type ChosenByEmail = { ok: true; userIds: string[] } | { ok: false; message: string };

/** The investors' ids for the addresses (already lowercased, as addresses are stored), in their order. */
export async function investorsByEmail(emails: readonly string[]): Promise<ChosenByEmail> {
  if (emails.length === 0) return { ok: true, userIds: [] };
  const rows = await getDb()
    .selectFrom("users")
    .select(["id", "email", "role"])
    .where("email", "in", [...emails])
    .execute();
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  const userIds: string[] = [];
  for (const email of emails) {
    const row = byEmail.get(email);
    if (!row) return { ok: false, message: libraryContent.errors.unknownInvestor(email) };
    if (row.role !== "investor") return { ok: false, message: libraryContent.errors.notAnInvestor(email) };
    userIds.push(row.id);
  }
  return { ok: true, userIds };
}

/** How many investors each document with a chosen audience lists, by document id. */
export async function chosenCounts(): Promise<Map<string, number>> {
  const rows = await getDb()
    .selectFrom("document_audience")
    .select((eb) => ["document_id", eb.fn.countAll<number>().as("n")])
    .groupBy("document_id")
    .execute();
  return new Map(rows.map((row) => [row.document_id, Number(row.n)]));
}

/** Investors (never administrators) among the ids, to check a chosen audience; returns the ids that are not. */
export async function nonInvestors(userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await getDb()
    .selectFrom("users")
    .select("id")
    .where("id", "in", [...userIds])
    .where("role", "=", "investor")
    .execute();
  const investors = new Set(found.map((row) => row.id));
  return userIds.filter((id) => !investors.has(id));
}

/** Every investor whose NDA is signed, or only the investors chosen (by id; each must be an investor). */
export async function setAudience(
  documentId: string,
  audience: DocumentAudienceKind,
  chosenUserIds: readonly string[],
  actor: Actor,
): Promise<MaterialsResult> {
  const strangers = await nonInvestors(chosenUserIds);
  if (strangers.length > 0) return { ok: false, status: 400, message: materialsMessages.audienceNotInvestors };
  const found = await changeWithAudit(async (trx, record) => {
    const result = await trx
      .updateTable("documents")
      .set({ audience, updated_at: now() })
      .where("id", "=", documentId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.deleteFrom("document_audience").where("document_id", "=", documentId).execute();
    if (audience === "chosen" && chosenUserIds.length > 0)
      await trx
        .insertInto("document_audience")
        .values(chosenUserIds.map((userId) => ({ document_id: documentId, user_id: userId })))
        .execute();
    record(
      byActor(actor, "material.audience_changed", {
        documentId,
        audience,
        chosen: audience === "chosen" ? [...chosenUserIds] : [],
      }),
    );
    return true;
  });
  if (!found) return { ok: false, status: 404, message: materialsMessages.notFound };
  return { ok: true };
}
