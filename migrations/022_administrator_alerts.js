// @ts-check
// Alerts to the administrators (issue 53, item 5; docs/decisions/0036).
//
// alert_preferences: what each administrator chose: "openings" (an e-mail when an investor first opens a
// document), "digest" (one e-mail a day, at digest_hour UTC) or "off". No row is "off".
// alert_mails: every alert e-mail, keyed by what it is about (an opening: administrator, document and
// investor; a digest: administrator and day). The key is unique, so however many instances race to make
// the same e-mail, one row wins and one e-mail goes; claimed_at is a lease an instance takes while it sends
// (attempts counts them),
// sent_at is set once the mail server took it, and a row left unsent (a refusal, a stopped instance) is
// sent again by whichever instance looks next.
// document_opens_by_time: the digest reads a day's openings, by document and reader, from the index alone.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await createAlertTables(db, { large: "integer" });
}

/**
 * The tables, alike on both engines but for the type of a time.
 * @param {import("kysely").Kysely<any>} db
 * @param {{ large: "integer" | "bigint" }} types
 */
export async function createAlertTables(db, { large }) {
  await db.schema
    .createTable("alert_preferences")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("digest_hour", "integer", (c) => c.notNull())
    .addColumn("updated_at", large, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("alert_mails")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", large, (c) => c.notNull())
    .addColumn("claimed_at", large)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent_at", large)
    .execute();
  // The mails still to send, oldest first: what each tick reads.
  await sql`create index alert_mails_unsent on alert_mails (created_at) where sent_at is null`.execute(db);
  await db.schema.createIndex("alert_mails_by_user").on("alert_mails").column("user_id").execute();
  await db.schema
    .createIndex("document_opens_by_time")
    .on("document_opens")
    .columns(["opened_at", "document_id", "user_id"])
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.dropIndex("document_opens_by_time").execute();
  await db.schema.dropTable("alert_mails").execute();
  await db.schema.dropTable("alert_preferences").execute();
}
