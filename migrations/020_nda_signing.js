// @ts-check
// The NDA signed inside the portal (issue 52, docs/decisions/0034-nda-signed-in-the-portal.md).
//
// nda_templates: each upload of the firm's NDA, numbered; the newest is offered. Its file is a blob, as a
// library document's is.
// nda_consents: an investor's consent to electronic records: the disclosure's version and SHA-256 as they
// read it, when, from where; withdrawn_at once taken back (a later consent is a new row).
// nda_copies: the copy rendered for one investor (the template's pages and a signature page with their name,
// address and e-mail): what "NDA sent" now means. A newer template or a corrected name supersedes it.
// nda_signatures: one investor's signed NDA and its evidence, and the firm's countersignature; or, kind
// "outside", an NDA an administrator recorded as signed elsewhere, with its reason and an optional file.
//
// Consents, copies and signatures name the investor by id and e-mail without a foreign key: deleting the
// account keeps them for the firm's records (NDA_RETENTION_YEARS).

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {{ large: "integer" | "bigint" }} types
 */
export async function createNdaTables(db, { large }) {
  await db.schema
    .createTable("nda_templates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("size", large, (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("page_count", "integer", (c) => c.notNull())
    .addColumn("blob_id", "text", (c) => c.notNull().references("blobs.id"))
    .addColumn("uploaded_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", large, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("nda_templates_number").unique().on("nda_templates").column("number").execute();
  await db.schema
    .createTable("nda_consents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("disclosure_version", "text", (c) => c.notNull())
    .addColumn("disclosure_sha256", "text", (c) => c.notNull())
    .addColumn("given_at", large, (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("withdrawn_at", large)
    .execute();
  await db.schema.createIndex("nda_consents_user").on("nda_consents").columns(["user_id", "given_at"]).execute();
  await db.schema
    .createTable("nda_copies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("template_id", "text", (c) => c.notNull().references("nda_templates.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("blob_id", "text", (c) => c.notNull().references("blobs.id"))
    .addColumn("offered_at", large, (c) => c.notNull())
    .addColumn("superseded_at", large)
    .execute();
  await db.schema.createIndex("nda_copies_user").on("nda_copies").columns(["user_id", "offered_at"]).execute();
  await db.schema
    .createTable("nda_signatures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("copy_id", "text", (c) => c.references("nda_copies.id"))
    .addColumn("consent_id", "text", (c) => c.references("nda_consents.id"))
    .addColumn("typed_name", "text")
    .addColumn("signed_at", large, (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("auth_method", "text")
    .addColumn("signed_blob_id", "text", (c) => c.references("blobs.id"))
    .addColumn("signed_sha256", "text")
    .addColumn("countersigned_by", "text")
    .addColumn("countersigned_at", large)
    .addColumn("completed_blob_id", "text", (c) => c.references("blobs.id"))
    .addColumn("completed_sha256", "text")
    .addColumn("completed_at", large)
    .addColumn("reason", "text")
    .execute();
  // One NDA an investor: of two signatures at once, the second is refused by the database.
  await db.schema.createIndex("nda_signatures_user").unique().on("nda_signatures").column("user_id").execute();
  // "Waiting for countersignature" is a filter of the investors' table and a count on its page.
  await db.schema
    .createIndex("nda_signatures_waiting")
    .on("nda_signatures")
    .columns(["completed_at", "signed_at"])
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createNdaTables(db, { large: "integer" });
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const table of ["nda_signatures", "nda_copies", "nda_consents", "nda_templates"]) {
    await db.schema.dropTable(table).execute();
  }
}
