/** A chosen audience given by e-mail addresses: each must be an investor's, else the first that is not is named. */
import { libraryContent } from "~/content/library";
import { getDb } from "~/server/db.server";

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
