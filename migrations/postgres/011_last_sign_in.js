// @ts-check
// PostgreSQL's migration 011, as SQLite's (../011_last_sign_in.js says what and why); times are bigint.

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("users").addColumn("last_login_at", "bigint").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("users").dropColumn("last_login_at").execute();
}
