// @ts-check
// PostgreSQL's migration 024, the same tables and statements as SQLite's (../024_page_time_totals.js says
// what and why), run by row-level triggers: BEFORE insert and delete (so a statement's earlier rows are
// seen, its current one not), AFTER an update of the time.
import { sql } from "kysely";
import { counted, createPageTimeTotals, recounted, uncounted } from "../024_page_time_totals.js";

/**
 * @param {string} name
 * @param {string[]} statements
 * @param {"new" | "old"} returned
 */
const fn = (name, statements, returned) =>
  sql.raw(`create function ${name}() returns trigger language plpgsql as $$
begin
${statements.map((statement) => `  ${statement};`).join("\n")}
  return ${returned};
end $$`);

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createPageTimeTotals(db, "bigint");
  await fn("page_times_counted", counted, "new").execute(db);
  await fn("page_times_recounted", recounted, "new").execute(db);
  await fn("page_times_uncounted", uncounted, "old").execute(db);
  await sql`create trigger page_times_counted before insert on page_times
    for each row execute function page_times_counted()`.execute(db);
  await sql`create trigger page_times_recounted after update of ms on page_times
    for each row execute function page_times_recounted()`.execute(db);
  await sql`create trigger page_times_uncounted before delete on page_times
    for each row execute function page_times_uncounted()`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const name of ["page_times_counted", "page_times_recounted", "page_times_uncounted"]) {
    await sql.raw(`drop trigger if exists ${name} on page_times`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable("reader_day_reading").execute();
  await db.schema.dropTable("document_reader_reading").execute();
  await db.schema.dropTable("document_page_reading").execute();
}
