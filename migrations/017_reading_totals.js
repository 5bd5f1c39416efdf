// @ts-check
// Who read what, kept as the openings are written (docs/performance.md, "The reading report"): the report
// and a document's readers were counted from document_opens on every view, which at 200,000 openings
// cost 40-90 ms a page. Triggers keep the totals right whoever writes or deletes an opening: the app,
// the cascade when an investor is deleted, db:copy.
//
// document_readers: per document and person, how many openings, the first and the last. No foreign keys:
// its rows come and go with the openings they count.
// document_reading: per document, how many people, how many openings, the first and the last.
//
// An opening that is deleted takes its count back; a first or last it held is found again through an index.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createReadingTables(db, "integer");
  await sql`create trigger document_opens_counted after insert on document_opens begin
    insert into document_readers (document_id, user_id, opens, first_opened_at, last_opened_at)
      values (new.document_id, new.user_id, 1, new.opened_at, new.opened_at)
      on conflict (document_id, user_id) do update set opens = opens + 1,
        first_opened_at = min(first_opened_at, excluded.first_opened_at),
        last_opened_at = max(last_opened_at, excluded.last_opened_at);
    insert into document_reading (document_id, readers, opens, first_opened_at, last_opened_at)
      values (new.document_id, 1, 1, new.opened_at, new.opened_at)
      on conflict (document_id) do update set
        readers = readers + (select opens = 1 from document_readers
          where document_id = new.document_id and user_id = new.user_id),
        opens = opens + 1,
        first_opened_at = min(first_opened_at, excluded.first_opened_at),
        last_opened_at = max(last_opened_at, excluded.last_opened_at);
  end`.execute(db);
  await sql`create trigger document_opens_uncounted after delete on document_opens begin
    update document_readers set opens = opens - 1,
      first_opened_at = coalesce((select min(opened_at) from document_opens
        where document_id = old.document_id and user_id = old.user_id), first_opened_at),
      last_opened_at = coalesce((select max(opened_at) from document_opens
        where document_id = old.document_id and user_id = old.user_id), last_opened_at)
      where document_id = old.document_id and user_id = old.user_id;
    delete from document_readers where document_id = old.document_id and user_id = old.user_id and opens <= 0;
    update document_reading set opens = opens - 1,
      readers = readers - not exists (select 1 from document_readers
        where document_id = old.document_id and user_id = old.user_id),
      first_opened_at = case when first_opened_at = old.opened_at then (select min(first_opened_at)
        from document_readers where document_id = old.document_id) else first_opened_at end,
      last_opened_at = case when last_opened_at = old.opened_at then (select max(last_opened_at)
        from document_readers where document_id = old.document_id) else last_opened_at end
      where document_id = old.document_id;
    delete from document_reading where document_id = old.document_id and opens <= 0;
  end`.execute(db);
}

/**
 * The two tables, their indexes, and their rows counted from the openings already written.
 * @param {import("kysely").Kysely<any>} db
 * @param {"integer" | "bigint"} large
 */
export async function createReadingTables(db, large) {
  await db.schema
    .createTable("document_readers")
    .addColumn("document_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("opens", "integer", (c) => c.notNull())
    .addColumn("first_opened_at", large, (c) => c.notNull())
    .addColumn("last_opened_at", large, (c) => c.notNull())
    .addPrimaryKeyConstraint("document_readers_pkey", ["document_id", "user_id"])
    .execute();
  // A document's readers, the latest first, a page at a time; and its first and last reader, when the
  // opening that held either is deleted.
  await db.schema
    .createIndex("document_readers_latest")
    .on("document_readers")
    .columns(["document_id", "last_opened_at", "user_id"])
    .execute();
  await db.schema
    .createIndex("document_readers_earliest")
    .on("document_readers")
    .columns(["document_id", "first_opened_at"])
    .execute();
  // What one person read (the investor's page).
  await db.schema.createIndex("document_readers_user").on("document_readers").column("user_id").execute();
  await db.schema
    .createTable("document_reading")
    .addColumn("document_id", "text", (c) => c.primaryKey())
    .addColumn("readers", "integer", (c) => c.notNull())
    .addColumn("opens", "integer", (c) => c.notNull())
    .addColumn("first_opened_at", large)
    .addColumn("last_opened_at", large)
    .execute();
  await sql`insert into document_readers (document_id, user_id, opens, first_opened_at, last_opened_at)
    select document_id, user_id, count(*), min(opened_at), max(opened_at) from document_opens
    group by document_id, user_id`.execute(db);
  await sql`insert into document_reading (document_id, readers, opens, first_opened_at, last_opened_at)
    select document_id, count(*), sum(opens), min(first_opened_at), max(last_opened_at) from document_readers
    group by document_id`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop trigger if exists document_opens_uncounted`.execute(db);
  await sql`drop trigger if exists document_opens_counted`.execute(db);
  await db.schema.dropTable("document_reading").execute();
  await db.schema.dropTable("document_readers").execute();
}
