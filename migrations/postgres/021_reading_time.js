// @ts-check
// PostgreSQL's migration 021, the same tables as SQLite's (../021_reading_time.js says why), times and
// sums as bigint.
import { createReadingTables } from "../021_reading_time.js";

export { down } from "../021_reading_time.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createReadingTables(db, { large: "bigint" });
}
