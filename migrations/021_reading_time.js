// @ts-check
// How the library is read (issue 53): time per page of each stamped copy, and whether a document's copy
// may be downloaded.
//
// documents.downloadable: 1 when an investor may download their stamped copy (as before); 0 when the
// copy is shown in the page's viewer only (the file's address opens the viewer).
// document_versions.page_count: a PDF's pages, counted the first time a reader's time is reported, so a
// report naming a page beyond the document is refused. Null until then, and for a video.
// reading_streams: the one stream of reading events a copy (a document_opens row, its download id)
//   takes: the viewer's random stream id and the time reported so far, which never passes the time since
//   the copy was delivered.
// reading_batches: the numbers of the batches a copy's stream has reported, so each is taken once,
//   in whatever order the browser's beacons arrive.
// page_times: per copy and page, the milliseconds it was on screen while the tab was visible and the
//   reader active, and when the copy was delivered. The document and the reader are kept beside them, so a document's report and the
//   ranking read one index, not the openings.
// video_watches: per viewer and video, the parts of it played (the union of the player's played
//   ranges, as JSON [[from, to], ...] in ms), their length, the video's length, and where the viewer
//   last stopped.

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {{ large: "integer" | "bigint" }} types
 */
export async function createReadingTables(db, { large }) {
  await db.schema
    .alterTable("documents")
    .addColumn("downloadable", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("document_versions").addColumn("page_count", "integer").execute();
  await db.schema
    .createTable("reading_streams")
    .addColumn("download_id", "text", (c) => c.primaryKey().references("document_opens.id").onDelete("cascade"))
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("total_ms", large, (c) => c.notNull())
    .addColumn("updated_at", large, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("reading_batches")
    .addColumn("download_id", "text", (c) => c.notNull().references("reading_streams.download_id").onDelete("cascade"))
    .addColumn("batch", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("reading_batches_pkey", ["download_id", "batch"])
    .execute();
  await db.schema
    .createTable("page_times")
    .addColumn("download_id", "text", (c) => c.notNull().references("reading_streams.download_id").onDelete("cascade"))
    .addColumn("page", "integer", (c) => c.notNull())
    .addColumn("document_id", "text", (c) => c.notNull().references("documents.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("ms", large, (c) => c.notNull())
    .addColumn("delivered_at", large, (c) => c.notNull())
    .addColumn("updated_at", large, (c) => c.notNull())
    .addPrimaryKeyConstraint("page_times_pkey", ["download_id", "page"])
    .execute();
  await db.schema
    .createTable("video_watches")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("document_id", "text", (c) => c.notNull().references("documents.id").onDelete("cascade"))
    .addColumn("duration_ms", large, (c) => c.notNull())
    .addColumn("ranges", "text", (c) => c.notNull())
    .addColumn("watched_ms", large, (c) => c.notNull())
    .addColumn("stopped_at_ms", large, (c) => c.notNull())
    .addColumn("updated_at", large, (c) => c.notNull())
    .addPrimaryKeyConstraint("video_watches_pkey", ["document_id", "user_id"])
    .execute();
  // A document's report groups its rows by page and by reader, an investor's page by document, and the
  // ranking by reader over the period the copies were delivered in: each reads its own index, not the rows.
  await db.schema
    .createIndex("page_times_document")
    .on("page_times")
    .columns(["document_id", "page", "user_id", "ms"])
    .execute();
  await db.schema
    .createIndex("page_times_reader")
    .on("page_times")
    .columns(["user_id", "document_id", "page", "ms"])
    .execute();
  await db.schema
    .createIndex("page_times_period")
    .on("page_times")
    .columns(["delivered_at", "user_id", "document_id", "ms"])
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createReadingTables(db, { large: "integer" });
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.dropTable("video_watches").execute();
  await db.schema.dropTable("page_times").execute();
  await db.schema.dropTable("reading_batches").execute();
  await db.schema.dropTable("reading_streams").execute();
  await db.schema.alterTable("document_versions").dropColumn("page_count").execute();
  await db.schema.alterTable("documents").dropColumn("downloadable").execute();
}
