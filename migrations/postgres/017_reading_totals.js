// @ts-check
// PostgreSQL's migration 017, as SQLite's (../017_reading_totals.js says what and why): one trigger
// function keeps both tables, and concurrent openings of one document queue on its totals row.
import { sql } from "kysely";
import { createReadingTables } from "../017_reading_totals.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createReadingTables(db, "bigint");
  await sql`create function document_opens_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into document_readers (document_id, user_id, opens, first_opened_at, last_opened_at)
      values (new.document_id, new.user_id, 1, new.opened_at, new.opened_at)
      on conflict (document_id, user_id) do update set opens = document_readers.opens + 1,
        first_opened_at = least(document_readers.first_opened_at, excluded.first_opened_at),
        last_opened_at = greatest(document_readers.last_opened_at, excluded.last_opened_at);
    insert into document_reading (document_id, readers, opens, first_opened_at, last_opened_at)
      values (new.document_id, 1, 1, new.opened_at, new.opened_at)
      on conflict (document_id) do update set
        readers = document_reading.readers + (select case when r.opens = 1 then 1 else 0 end from document_readers r
          where r.document_id = new.document_id and r.user_id = new.user_id),
        opens = document_reading.opens + 1,
        first_opened_at = least(document_reading.first_opened_at, excluded.first_opened_at),
        last_opened_at = greatest(document_reading.last_opened_at, excluded.last_opened_at);
    return null;
  end if;
  update document_readers set opens = opens - 1,
    first_opened_at = coalesce((select min(o.opened_at) from document_opens o
      where o.document_id = old.document_id and o.user_id = old.user_id), first_opened_at),
    last_opened_at = coalesce((select max(o.opened_at) from document_opens o
      where o.document_id = old.document_id and o.user_id = old.user_id), last_opened_at)
    where document_id = old.document_id and user_id = old.user_id;
  delete from document_readers where document_id = old.document_id and user_id = old.user_id and opens <= 0;
  update document_reading set opens = opens - 1,
    readers = readers - case when exists (select 1 from document_readers r
      where r.document_id = old.document_id and r.user_id = old.user_id) then 0 else 1 end,
    first_opened_at = case when first_opened_at = old.opened_at then (select min(r.first_opened_at)
      from document_readers r where r.document_id = old.document_id) else first_opened_at end,
    last_opened_at = case when last_opened_at = old.opened_at then (select max(r.last_opened_at)
      from document_readers r where r.document_id = old.document_id) else last_opened_at end
    where document_id = old.document_id;
  delete from document_reading where document_id = old.document_id and opens <= 0;
  return null;
end $$`.execute(db);
  await sql`create trigger document_opens_counted after insert on document_opens
    for each row execute function document_opens_follow()`.execute(db);
  await sql`create trigger document_opens_uncounted after delete on document_opens
    for each row execute function document_opens_follow()`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop trigger if exists document_opens_uncounted on document_opens`.execute(db);
  await sql`drop trigger if exists document_opens_counted on document_opens`.execute(db);
  await sql`drop function if exists document_opens_follow()`.execute(db);
  await db.schema.dropTable("document_reading").execute();
  await db.schema.dropTable("document_readers").execute();
}
