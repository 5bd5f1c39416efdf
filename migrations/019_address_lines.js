// @ts-check
// An address's lines as they were given, joined by line feeds: the /financing form's three lines, the
// API's line-feed-separated address, or the one line a correction types. `address` stays the one string
// the lines make joined by single spaces (what the API, the CSV and the audit rows carry); this column
// only lets the pages show the lines apart. Null for addresses given before it, which are shown as
// `address` is: their line breaks were never kept.

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("users").addColumn("address_lines", "text").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("users").dropColumn("address_lines").execute();
}
