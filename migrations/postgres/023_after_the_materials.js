// @ts-check
// PostgreSQL's migration 023, as SQLite's (../023_after_the_materials.js says what and why); times and
// amounts are bigint.
import { createAfterMaterialsTables, down } from "../023_after_the_materials.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createAfterMaterialsTables(db, { large: "bigint" });
}

export { down };
