// @ts-check
// Plain JavaScript so that the server build and `npm run db:migrate` can both load it.
import { sql } from "kysely";

/** Timestamps are integer milliseconds since the epoch (UTC). */
/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) =>
      c
        .notNull()
        .unique()
        .modifyEnd(sql`collate nocase`),
    )
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("address", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_nda_sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_nda_signed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("role", "text", (c) => c.notNull().defaultTo("investor"))
    .addColumn("email_verified_at", "integer")
    .addColumn("failed_logins", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", "integer")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .addCheckConstraint("users_role", sql`role in ('administrator', 'investor')`)
    // NDA signed implies NDA sent (docs/requirements.md, "Data").
    .addCheckConstraint("users_nda_signed_implies_sent", sql`is_nda_signed = 0 or is_nda_sent = 1`)
    .execute();
  await db.schema.createIndex("users_created_at").on("users").column("created_at").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("last_seen_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("family_id", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .addColumn("used_at", "integer")
    .addColumn("revoked_at", "integer")
    .addCheckConstraint("api_tokens_kind", sql`kind in ('access', 'refresh')`)
    .execute();
  await db.schema.createIndex("api_tokens_user_id").on("api_tokens").column("user_id").execute();
  await db.schema.createIndex("api_tokens_family_id").on("api_tokens").column("family_id").execute();

  await db.schema
    .createTable("one_time_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .addColumn("used_at", "integer")
    .addCheckConstraint("one_time_tokens_purpose", sql`purpose in ('verify', 'reset')`)
    .execute();
  await db.schema
    .createIndex("one_time_tokens_user_purpose")
    .on("one_time_tokens")
    .columns(["user_id", "purpose"])
    .execute();

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // No foreign keys: the history outlives the accounts it mentions.
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_id", "text")
    .addColumn("target_email", "text")
    .addColumn("details", "text")
    .addColumn("ip", "text")
    .addColumn("at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_events_at").on("audit_events").column("at").execute();

  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("mailed_at", "integer")
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("reset_at", "integer", (c) => c.notNull())
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const table of [
    "rate_limits",
    "contact_messages",
    "audit_events",
    "one_time_tokens",
    "api_tokens",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
