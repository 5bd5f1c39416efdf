// @ts-check
// When each account last signed in: the administrator's investor page and the administrators' list
// show it. Written where a sign-in is recorded (a web session or API tokens issued), never on a
// failed attempt. Accounts that signed in before this migration show "not since records began"
// until their next sign-in: the audit trail holds the history, and reading a million rows back at
// migration time would buy a column that fills itself at the next login anyway.

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("users").addColumn("last_login_at", "integer").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("users").dropColumn("last_login_at").execute();
}
