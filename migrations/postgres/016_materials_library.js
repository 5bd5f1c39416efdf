// @ts-check
// PostgreSQL's migration 016, as SQLite's (../016_materials_library.js says what and why); times and sizes
// are bigint, and a chunk's bytes bytea.
import { createLibraryTables, down as dropLibrary } from "../016_materials_library.js";
import { seedFirstLibrary } from "../library.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .createTable("blobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text")
    .addColumn("chunk_count", "integer", (c) => c.notNull())
    .addColumn("complete", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("blob_chunks")
    .addColumn("blob_id", "text", (c) => c.notNull().references("blobs.id").onDelete("cascade"))
    .addColumn("chunk_index", "integer", (c) => c.notNull())
    .addColumn("data", "bytea", (c) => c.notNull())
    .addPrimaryKeyConstraint("blob_chunks_pkey", ["blob_id", "chunk_index"])
    .execute();
  await createLibraryTables(db, { large: "bigint" });
  await seedFirstLibrary(db);
}

export const down = dropLibrary;
