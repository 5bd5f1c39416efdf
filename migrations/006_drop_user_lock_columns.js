// @ts-check
// users.failed_logins and users.locked_until were written on every failed login and never read:
// the lockout lives in the per-address counter of login_failures (models/throttle.server.ts), which
// also covers addresses with no account. Dropped so the table holds only what the app reads.

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("users").dropColumn("failed_logins").execute();
  await db.schema.alterTable("users").dropColumn("locked_until").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema
    .alterTable("users")
    .addColumn("failed_logins", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("users").addColumn("locked_until", "integer").execute();
}
