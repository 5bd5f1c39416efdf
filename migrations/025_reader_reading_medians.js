// @ts-check
// A document's report gives its readers' median reading time and median share of pages seen. It read every
// reader's total row into the app to take them (7,500 rows for the bench's busiest document at a million
// page-time rows); with the totals in order of time and of pages per document, the database walks to the
// middle of an index and returns one or two rows (docs/performance.md, "Reading time").

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .createIndex("document_reader_reading_by_time")
    .on("document_reader_reading")
    .columns(["document_id", "ms"])
    .execute();
  await db.schema
    .createIndex("document_reader_reading_by_pages")
    .on("document_reader_reading")
    .columns(["document_id", "pages"])
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.dropIndex("document_reader_reading_by_pages").execute();
  await db.schema.dropIndex("document_reader_reading_by_time").execute();
}
