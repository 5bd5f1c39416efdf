// @ts-check
// The investor indexes of 002, rebuilt to hold investors only (docs/performance.md): as
// partial indexes (`where role = 'investor'`) they drop the role column, so a page deep in
// the table walks its entries without comparing each one's role (a quarter of the time),
// and administrators' rows are not in them. The queries write `role = 'investor'` as a
// literal: with a bound role SQLite could use these indexes only by planning the
// statement again on every run.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await dropInvestorIndexes(db);
  await sql`create index users_investors_by_registration
    on users (created_at, id, is_nda_sent, is_nda_signed, full_name, email) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_name on users (full_name collate nocase, id)
    where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_email on users (email, id) where role = 'investor'`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await dropInvestorIndexes(db);
  await sql`create index users_investors_by_registration
    on users (role, created_at, id, is_nda_sent, is_nda_signed, full_name, email)`.execute(db);
  await sql`create index users_investors_by_name on users (role, full_name collate nocase, id)`.execute(db);
  await sql`create index users_investors_by_email on users (role, email, id)`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
async function dropInvestorIndexes(db) {
  await sql`drop index users_investors_by_email`.execute(db);
  await sql`drop index users_investors_by_name`.execute(db);
  await sql`drop index users_investors_by_registration`.execute(db);
}
