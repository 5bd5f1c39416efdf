// @ts-check
// Administrators managed in the app: who made each administrator, and the pending invitations.
//
// users.created_by: the administrator who invited the account (null once that administrator is
// removed, or for accounts nobody invited). users.created_via: how the account became an
// administrator, 'invitation' or 'create-admin' (the server's command); null for an investor's
// sign-up. Until now create-admin was the only way to make an administrator, so every existing one
// is marked 'create-admin'.
//
// admin_invitations: one row per pending invitation, holding only the SHA-256 of the e-mailed
// token. Accepting or revoking an invitation deletes its row; an expired one is pruned by the
// housekeeping. An invitation dies with the administrator who sent it.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .alterTable("users")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("users").addColumn("created_via", "text").execute();
  await sql`update users set created_via = 'create-admin' where role = 'administrator'`.execute(db);
  // Deleting any user looks here for whom they invited (on delete set null): without it, a scan of every user.
  await sql`create index users_created_by on users (created_by) where created_by is not null`.execute(db);

  await db.schema
    .createTable("admin_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("invited_by", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
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
  await db.schema.alterTable("users").dropColumn("created_via").execute();
  await db.schema.alterTable("users").dropColumn("created_by").execute();
}
