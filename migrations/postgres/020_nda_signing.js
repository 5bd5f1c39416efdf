// @ts-check
// PostgreSQL's migration 020, as SQLite's (../020_nda_signing.js says what and why); times and sizes are bigint.
import { createNdaTables, down as dropNdaTables } from "../020_nda_signing.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createNdaTables(db, { large: "bigint" });
}

export const down = dropNdaTables;
