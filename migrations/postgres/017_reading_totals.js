// @ts-check
// PostgreSQL's migration 017, as SQLite's (../017_reading_totals.js says what and why), with triggers for
// each statement rather than each row: a statement's openings are counted together from its transition
// table. Row by row, a bulk insert (db:copy, the bench's seeding) updated each document's totals row once per
// opening inside one transaction, and each update had to step over every earlier version of that row.
//
// Concurrent openings of one pair or one document queue on its row. A pair counts as a new reader where its
// openings are exactly the ones this statement added: one that existed before, or that another transaction
// wrote first, has more.
import { sql } from "kysely";
import { createReadingTables } from "../017_reading_totals.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createReadingTables(db, "bigint");
  await sql`create function document_opens_counted() returns trigger language plpgsql as $$
begin
  insert into document_readers (document_id, user_id, opens, first_opened_at, last_opened_at)
    select document_id, user_id, count(*), min(opened_at), max(opened_at) from added group by document_id, user_id
    on conflict (document_id, user_id) do update set opens = document_readers.opens + excluded.opens,
      first_opened_at = least(document_readers.first_opened_at, excluded.first_opened_at),
      last_opened_at = greatest(document_readers.last_opened_at, excluded.last_opened_at);
  insert into document_reading (document_id, readers, opens, first_opened_at, last_opened_at)
    select a.document_id, count(*) filter (where r.opens = a.opens), sum(a.opens), min(a.first_opened_at),
      max(a.last_opened_at)
    from (select document_id, user_id, count(*) as opens, min(opened_at) as first_opened_at,
        max(opened_at) as last_opened_at from added group by document_id, user_id) a
      join document_readers r on r.document_id = a.document_id and r.user_id = a.user_id
    group by a.document_id
    on conflict (document_id) do update set readers = document_reading.readers + excluded.readers,
      opens = document_reading.opens + excluded.opens,
      first_opened_at = least(document_reading.first_opened_at, excluded.first_opened_at),
      last_opened_at = greatest(document_reading.last_opened_at, excluded.last_opened_at);
  return null;
end $$`.execute(db);
  // Openings are deleted only with their investor or document: the pairs and documents they touched are
  // counted again from what is left.
  await sql`create function document_opens_uncounted() returns trigger language plpgsql as $$
begin
  delete from document_readers r using (select distinct document_id, user_id from removed) x
    where r.document_id = x.document_id and r.user_id = x.user_id;
  insert into document_readers (document_id, user_id, opens, first_opened_at, last_opened_at)
    select o.document_id, o.user_id, count(*), min(o.opened_at), max(o.opened_at)
    from document_opens o join (select distinct document_id, user_id from removed) x
      on o.document_id = x.document_id and o.user_id = x.user_id
    group by o.document_id, o.user_id;
  delete from document_reading where document_id in (select document_id from removed);
  insert into document_reading (document_id, readers, opens, first_opened_at, last_opened_at)
    select document_id, count(*), sum(opens), min(first_opened_at), max(last_opened_at) from document_readers
    where document_id in (select document_id from removed)
    group by document_id;
  return null;
end $$`.execute(db);
  await sql`create trigger document_opens_counted after insert on document_opens
    referencing new table as added for each statement execute function document_opens_counted()`.execute(db);
  await sql`create trigger document_opens_uncounted after delete on document_opens
    referencing old table as removed for each statement execute function document_opens_uncounted()`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop trigger if exists document_opens_uncounted on document_opens`.execute(db);
  await sql`drop trigger if exists document_opens_counted on document_opens`.execute(db);
  await sql`drop function if exists document_opens_uncounted()`.execute(db);
  await sql`drop function if exists document_opens_counted()`.execute(db);
  await db.schema.dropTable("document_reading").execute();
  await db.schema.dropTable("document_readers").execute();
}
