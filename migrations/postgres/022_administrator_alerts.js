// @ts-check
// PostgreSQL's migration 022, the same tables as SQLite's (../022_administrator_alerts.js says why).
import { createAlertTables, down } from "../022_administrator_alerts.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createAlertTables(db, { large: "bigint" });
}

export { down };
