// @ts-check
// Indexes for the administrator's investor table and the investor list of the API
// (docs/performance.md): each sort order reads its index in order instead of
// sorting the whole table, and the registration index also holds the columns the
// NDA filter, the search and the counts test, so they never touch the table rows.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`drop index users_created_at`.execute(db);
  await sql`create index users_investors_by_registration
    on users (role, created_at, id, is_nda_sent, is_nda_signed, full_name, email)`.execute(db);
  await sql`create index users_investors_by_name on users (role, full_name collate nocase, id)`.execute(db);
  await sql`create index users_investors_by_email on users (role, email, id)`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop index users_investors_by_email`.execute(db);
  await sql`drop index users_investors_by_name`.execute(db);
  await sql`drop index users_investors_by_registration`.execute(db);
  await sql`create index users_created_at on users (created_at)`.execute(db);
}
