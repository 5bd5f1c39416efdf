// @ts-check
// The investor table's search ignores accents, case and punctuation (docs/decisions/0022): each user
// gets `search_text`, the name and address folded (search-text.js), written here for the users already
// stored and by the app on every write of either. The three investor indexes of 005 are rebuilt to
// carry it, so a search reads its page in the sort's own order from an index alone, whatever the sort,
// and stops at the page's last row; the registration index drops full_name and email, which only the
// search read. A search's total scans the registration index (SQLite cannot seek a LIKE '%word%').
import { sql } from "kysely";
import { backfillSearchText } from "./search-text.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  // One transaction (kysely runs SQLite's migrations without one): one commit for the whole backfill, and a
  // failure part way leaves the database as it was, so the migration can simply run again.
  await db.transaction().execute(async (trx) => {
    await sql`alter table users add column search_text text not null default ''`.execute(trx);
    await backfillSearchText(trx);
    await dropInvestorIndexes(trx);
    await sql`create index users_investors_by_registration
      on users (created_at, id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(trx);
    await sql`create index users_investors_by_name
      on users (full_name collate nocase, id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(
      trx,
    );
    await sql`create index users_investors_by_email
      on users (email, id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(trx);
  });
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await dropInvestorIndexes(db);
  await sql`create index users_investors_by_registration
    on users (created_at, id, is_nda_sent, is_nda_signed, full_name, email) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_name on users (full_name collate nocase, id)
    where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_email on users (email, id) where role = 'investor'`.execute(db);
  await sql`alter table users drop column search_text`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
async function dropInvestorIndexes(db) {
  await sql`drop index users_investors_by_email`.execute(db);
  await sql`drop index users_investors_by_name`.execute(db);
  await sql`drop index users_investors_by_registration`.execute(db);
}
