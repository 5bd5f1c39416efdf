// @ts-check
// PostgreSQL's migration 013, as SQLite's (../013_administrators.js says what and why); times are bigint.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .alterTable("users")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_via", "text")
    .execute();
  await sql`update users set created_via = 'create-admin' where role = 'administrator'`.execute(db);
  // Deleting any user looks here for whom they invited (on delete set null): without it, a scan of every user.
  await sql`create index users_created_by on users (created_by) where created_by is not null`.execute(db);

  await db.schema
    .createTable("admin_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("invited_by", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  // Named indexes, not column constraints: both engines then name them alike (schema-parity).
  await db.schema
    .createIndex("admin_invitations_token")
    .unique()
    .on("admin_invitations")
    .column("token_hash")
    .execute();
  // One pending invitation per address: inviting it again replaces the link.
  await db.schema.createIndex("admin_invitations_email").unique().on("admin_invitations").column("email").execute();
  await db.schema.createIndex("admin_invitations_invited_by").on("admin_invitations").column("invited_by").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.dropTable("admin_invitations").execute();
  await db.schema.dropIndex("users_created_by").execute();
  await db.schema.alterTable("users").dropColumn("created_via").dropColumn("created_by").execute();
}
