// @ts-check
// After the materials (docs/decisions/0037): the firm's switches for questions and answers, qualification
// and indications of interest; the questions with their answers and the earlier texts of an edited answer;
// the investor's statements of how they qualify and the firm's verifications; the indications of interest.
// Every statement, verification and indication is a row of its own, never updated: the latest is the one
// that stands, the others are its history.

/**
 * The tables, alike on both engines but for the type of a time or an amount.
 * @param {import("kysely").Kysely<any>} db
 * @param {{ large: "integer" | "bigint" }} types
 */
export async function createAfterMaterialsTables(db, { large }) {
  await db.schema
    .createTable("portal_features")
    .addColumn("only_row", "integer", (c) => c.primaryKey())
    .addColumn("questions", "integer", (c) => c.notNull())
    .addColumn("qualification", "integer", (c) => c.notNull())
    .addColumn("interest", "integer", (c) => c.notNull())
    .addColumn("interest_notice", "text", (c) => c.notNull())
    .addColumn("verification_days", "integer", (c) => c.notNull())
    .addColumn("updated_at", large, (c) => c.notNull())
    .execute();
  await db
    .insertInto("portal_features")
    .values({
      only_row: 1,
      questions: 0,
      qualification: 0,
      interest: 0,
      interest_notice: "",
      verification_days: 90,
      updated_at: 0,
    })
    .execute();

  await db.schema
    .createTable("questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("document_id", "text", (c) => c.references("documents.id").onDelete("set null"))
    .addColumn("page", "integer")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("private_answer", "text")
    .addColumn("published_answer", "text")
    .addColumn("answered_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("answered_at", large)
    .addColumn("published_at", large)
    .addColumn("created_at", large, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("questions_user").on("questions").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("questions_status").on("questions").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("questions_published").on("questions").columns(["published_at"]).execute();
  await db.schema
    .createTable("answer_edits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("question_id", "text", (c) => c.notNull().references("questions.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("replaced_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("replaced_at", large, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("answer_edits_question").on("answer_edits").columns(["question_id"]).execute();

  await db.schema
    .createTable("qualification_statements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("stated_on", "text", (c) => c.notNull())
    .addColumn("created_at", large, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("qualification_statements_user")
    .on("qualification_statements")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("verified_on", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("blob_id", "text", (c) => c.references("blobs.id"))
    .addColumn("file_name", "text")
    .addColumn("recorded_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("expires_at", large, (c) => c.notNull())
    .addColumn("created_at", large, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verifications_user").on("verifications").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("verifications_created").on("verifications").columns(["created_at"]).execute();

  await db.schema
    .createTable("interest_indications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // Whole dollars; null with `withdrawn` 1.
    .addColumn("amount", large)
    .addColumn("low", large)
    .addColumn("high", large)
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("withdrawn", "integer", (c) => c.notNull())
    .addColumn("created_at", large, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("interest_indications_user")
    .on("interest_indications")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("interest_indications_created")
    .on("interest_indications")
    .columns(["created_at"])
    .execute();
  // The pipeline is kept until something it counts changes (app/models/pipeline/pipeline.server.ts): the
  // latest change to any user is one look along this index.
  await db.schema.createIndex("users_updated_at").on("users").columns(["updated_at"]).execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createAfterMaterialsTables(db, { large: "integer" });
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.dropIndex("users_updated_at").execute();
  for (const table of [
    "interest_indications",
    "verifications",
    "qualification_statements",
    "answer_edits",
    "questions",
    "portal_features",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
