// @ts-check
// Totals of the time per page, kept as page_times is written (docs/performance.md, "Reading time"): a
// document's report and the engagement ranking summed page_times when asked, and their cost grew with the
// rows (3.9× and 8.7× from 10,000 rows to 1,000,000). Triggers keep them right whoever writes or deletes
// a row: a batch, the cascade when an investor, a document or a copy is deleted, db:copy.
//
// document_page_reading: per document and page, the time on it and the readers who reached it.
// document_reader_reading: per document and reader, the time on its pages and the pages seen.
// reader_day_reading: per reader, day the copy was delivered (UTC, ms / 86,400,000) and document, the time
//   and how many page_times rows it sums; the ranking sums a period's days.
// No foreign keys: their rows come and go with the rows they sum.
//
// The same statements serve both engines. Readers and pages are counted before a row is inserted or
// deleted (a BEFORE trigger sees the rows its statement has already written, not the one at hand), so a
// statement touching one reader's two copies counts them right. An insert that meets its row (the batch's
// upsert) adds nothing here: the update's trigger adds the difference.
import { sql } from "kysely";

const DAY = "86400000";

/** The row's time, unless it meets its copy's row for the page (the update's trigger adds that). */
const newTime = `case when exists (select 1 from page_times where download_id = new.download_id and page = new.page)
  then 0 else new.ms end`;
/** 1 when the reader had no time on the page yet, in any copy. */
const newReader = `case when exists (select 1 from page_times where document_id = new.document_id and page = new.page
  and user_id = new.user_id) then 0 else 1 end`;

/** The statements run before a page_times row is inserted. */
export const counted = [
  `insert into document_page_reading (document_id, page, ms, readers)
    values (new.document_id, new.page, ${newTime}, ${newReader})
    on conflict (document_id, page) do update set ms = document_page_reading.ms + excluded.ms,
      readers = document_page_reading.readers + excluded.readers`,
  `insert into document_reader_reading (document_id, user_id, ms, pages)
    values (new.document_id, new.user_id, ${newTime}, ${newReader})
    on conflict (document_id, user_id) do update set ms = document_reader_reading.ms + excluded.ms,
      pages = document_reader_reading.pages + excluded.pages`,
  `insert into reader_day_reading (user_id, day, document_id, ms, entries)
    select new.user_id, new.delivered_at / ${DAY}, new.document_id, new.ms, 1
    where not exists (select 1 from page_times where download_id = new.download_id and page = new.page)
    on conflict (user_id, day, document_id) do update set ms = reader_day_reading.ms + excluded.ms,
      entries = reader_day_reading.entries + excluded.entries`,
];

/** The statements run after a page_times row's time changed (only its ms and updated_at ever do). */
export const recounted = [
  `update document_page_reading set ms = ms + new.ms - old.ms where document_id = new.document_id and page = new.page`,
  `update document_reader_reading set ms = ms + new.ms - old.ms where document_id = new.document_id and user_id = new.user_id`,
  `update reader_day_reading set ms = ms + new.ms - old.ms
    where user_id = new.user_id and day = new.delivered_at / ${DAY} and document_id = new.document_id`,
];

const lastOfReader = `case when exists (select 1 from page_times where document_id = old.document_id and page = old.page
  and user_id = old.user_id and download_id <> old.download_id) then 0 else 1 end`;

/** The statements run before a page_times row is deleted. */
export const uncounted = [
  `update document_page_reading set ms = ms - old.ms, readers = readers - ${lastOfReader}
    where document_id = old.document_id and page = old.page`,
  `delete from document_page_reading where document_id = old.document_id and page = old.page and readers <= 0`,
  `update document_reader_reading set ms = ms - old.ms, pages = pages - ${lastOfReader}
    where document_id = old.document_id and user_id = old.user_id`,
  `delete from document_reader_reading where document_id = old.document_id and user_id = old.user_id and pages <= 0`,
  `update reader_day_reading set ms = ms - old.ms, entries = entries - 1
    where user_id = old.user_id and day = old.delivered_at / ${DAY} and document_id = old.document_id`,
  `delete from reader_day_reading
    where user_id = old.user_id and day = old.delivered_at / ${DAY} and document_id = old.document_id and entries <= 0`,
];

/**
 * The three tables, their index, and their rows summed from the page_times already written.
 * @param {import("kysely").Kysely<any>} db
 * @param {"integer" | "bigint"} large
 */
export async function createPageTimeTotals(db, large) {
  await db.schema
    .createTable("document_page_reading")
    .addColumn("document_id", "text", (c) => c.notNull())
    .addColumn("page", "integer", (c) => c.notNull())
    .addColumn("ms", large, (c) => c.notNull())
    .addColumn("readers", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("document_page_reading_pkey", ["document_id", "page"])
    .execute();
  await db.schema
    .createTable("document_reader_reading")
    .addColumn("document_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("ms", large, (c) => c.notNull())
    .addColumn("pages", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("document_reader_reading_pkey", ["document_id", "user_id"])
    .execute();
  await db.schema
    .createTable("reader_day_reading")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("day", "integer", (c) => c.notNull())
    .addColumn("document_id", "text", (c) => c.notNull())
    .addColumn("ms", large, (c) => c.notNull())
    .addColumn("entries", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("reader_day_reading_pkey", ["user_id", "day", "document_id"])
    .execute();
  // The ranking reads a period's days, every reader in them.
  await db.schema
    .createIndex("reader_day_reading_period")
    .on("reader_day_reading")
    .columns(["day", "user_id", "document_id", "ms"])
    .execute();
  await sql`insert into document_page_reading (document_id, page, ms, readers)
    select document_id, page, sum(ms), count(distinct user_id) from page_times group by document_id, page`.execute(db);
  await sql`insert into document_reader_reading (document_id, user_id, ms, pages)
    select document_id, user_id, sum(ms), count(distinct page) from page_times group by document_id, user_id`.execute(
    db,
  );
  await sql`insert into reader_day_reading (user_id, day, document_id, ms, entries)
    select user_id, delivered_at / ${sql.raw(DAY)}, document_id, sum(ms), count(*) from page_times
    group by user_id, delivered_at / ${sql.raw(DAY)}, document_id`.execute(db);
}

/** @param {string[]} statements */
const body = (statements) => statements.map((statement) => `${statement};`).join("\n");

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createPageTimeTotals(db, "integer");
  await sql.raw(`create trigger page_times_counted before insert on page_times begin ${body(counted)} end`).execute(db);
  await sql
    .raw(`create trigger page_times_recounted after update of ms on page_times begin ${body(recounted)} end`)
    .execute(db);
  await sql
    .raw(`create trigger page_times_uncounted before delete on page_times begin ${body(uncounted)} end`)
    .execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const name of ["page_times_counted", "page_times_recounted", "page_times_uncounted"])
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await db.schema.dropTable("reader_day_reading").execute();
  await db.schema.dropTable("document_reader_reading").execute();
  await db.schema.dropTable("document_page_reading").execute();
}
