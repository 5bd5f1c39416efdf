// @ts-check
// The audit trail becomes a hash chain: each row keeps the previous row's hash and its own, a
// SHA-256 over that and its content (audit-chain.js). The rows already there are sealed here, in
// id order, as they stand: the chain vouches for them from this migration on.
import { GENESIS_HASH, sha256RowHash } from "./audit-chain.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("audit_events").addColumn("prev_hash", "text").execute();
  await db.schema.alterTable("audit_events").addColumn("hash", "text").execute();

  // Read whole before the first update: better-sqlite3 runs no statement while another's rows are open.
  const rows = await db.selectFrom("audit_events").selectAll().orderBy("id").execute();
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    const hash = sha256RowHash(prevHash, /** @type {import("./audit-chain.js").ChainedContent} */ (row));
    await db.updateTable("audit_events").set({ prev_hash: prevHash, hash }).where("id", "=", row.id).execute();
    prevHash = hash;
  }
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("audit_events").dropColumn("hash").execute();
  await db.schema.alterTable("audit_events").dropColumn("prev_hash").execute();
}
