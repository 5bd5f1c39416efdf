/**
 * A deleted investor's NDA (consents, copies, signatures and their files) is kept for the firm's records for
 * NDA_RETENTION_YEARS after the account's deletion (docs/decisions/0034-nda-signed-in-the-portal.md), then
 * deleted by housekeeping. The deletion's time is its audit row's: the NDA rows name the investor by id only.
 */
import { sql } from "kysely";
import { deleteBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** The ids of investors deleted more than the retention ago whose NDA rows are still here. */
async function expiredInvestors(before: number): Promise<string[]> {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select("target_id")
    .distinct()
    .where("action", "=", "investor.deleted")
    .where("at", "<", before)
    .where("target_id", "is not", null)
    .where((eb) =>
      eb.and([
        eb.not(eb.exists(eb.selectFrom("users").select(sql.lit(1).as("one")).whereRef("users.id", "=", "target_id"))),
        eb.or(
          (["nda_consents", "nda_copies", "nda_signatures"] as const).map((table) =>
            eb.exists(eb.selectFrom(table).select(sql.lit(1).as("one")).whereRef(`${table}.user_id`, "=", "target_id")),
          ),
        ),
      ]),
    )
    .execute();
  return rows.flatMap((row) => (row.target_id ? [row.target_id] : []));
}

/** Deletes the NDAs of investors deleted more than NDA_RETENTION_YEARS ago; returns how many investors' NDAs went. */
export async function pruneExpiredNdas(): Promise<number> {
  const ids = await expiredInvestors(now() - getEnv().nda.retentionYears * YEAR_MS);
  const db = getDb();
  for (const userId of ids) {
    const signatures = await db
      .selectFrom("nda_signatures")
      .select(["signed_blob_id", "completed_blob_id"])
      .where("user_id", "=", userId)
      .execute();
    const copies = await db.selectFrom("nda_copies").select("blob_id").where("user_id", "=", userId).execute();
    // Rows first (they reference the files), then the files.
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("nda_signatures").where("user_id", "=", userId).execute();
      await trx.deleteFrom("nda_copies").where("user_id", "=", userId).execute();
      await trx.deleteFrom("nda_consents").where("user_id", "=", userId).execute();
    });
    const blobs = [
      ...signatures.flatMap((row) => [row.signed_blob_id, row.completed_blob_id]),
      ...copies.map((row) => row.blob_id),
    ];
    for (const blob of blobs) if (blob) await deleteBlob(blob);
  }
  return ids.length;
}
