// @ts-check
// PostgreSQL's migration 012, as SQLite's (../012_investor_search_text.js says what and why), plus a
// trigram index (pg_trgm) that finds the investors whose search_text holds a word without reading
// every one: a search's total, and a search's page whose matches are few, read it. Where pg_trgm
// cannot be created (not installed, or not allowed), the same index name holds a plain b-tree of
// search_text instead, which a search scans whole but narrower than the table (docs/deployment.md).
import { sql } from "kysely";
import { backfillSearchText } from "../search-text.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`alter table users add column search_text text not null default ''`.execute(db);
  await backfillSearchText(db);
  await dropInvestorIndexes(db);
  await sql`create index users_investors_by_registration
    on users (created_at, id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_name
    on users (lower(full_name), id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_email
    on users (email, id, is_nda_sent, is_nda_signed, search_text) where role = 'investor'`.execute(db);
  // An error inside the block is caught there (a subtransaction), so the migration's transaction goes on.
  await sql`do $$ begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm is not available (%): the investor search index is a plain b-tree', sqlerrm;
  end $$`.execute(db);
  const trigrams = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  await (
    trigrams.rows.length > 0
      ? sql`create index users_investors_search on users using gin (search_text gin_trgm_ops) where role = 'investor'`
      : sql`create index users_investors_search on users (search_text) where role = 'investor'`
  ).execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop index users_investors_search`.execute(db);
  await dropInvestorIndexes(db);
  await sql`create index users_investors_by_registration
    on users (created_at, id, is_nda_sent, is_nda_signed, full_name, email) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_name on users (lower(full_name), id) where role = 'investor'`.execute(db);
  await sql`create index users_investors_by_email on users (email, id) where role = 'investor'`.execute(db);
  await sql`alter table users drop column search_text`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
async function dropInvestorIndexes(db) {
  await sql`drop index users_investors_by_email`.execute(db);
  await sql`drop index users_investors_by_name`.execute(db);
  await sql`drop index users_investors_by_registration`.execute(db);
}
