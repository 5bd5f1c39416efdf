// @ts-check
// Where an account is signed in, and its passkeys' names (issue 30).
//
// sessions: `public_id`, a random id the sessions page names each session by, so its forms never
// carry the id's hash that the cookie's secret hashes to; `user_agent` (cut to 512 characters) and
// `ip`, recorded when the session is opened. Sessions opened before this migration get a public id
// here and show "Unknown" for the rest.
//
// api_token_families: one row per API sign-in (the family its rotating tokens share), with the
// client's user agent and address, when it was issued and last used, and whether it was revoked.
// The families already live are copied from api_tokens, without a client.
//
// passkeys.name: the name the owner gives it; null for passkeys made before, which are named by
// their place in the list.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema.alterTable("sessions").addColumn("public_id", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
  await db.schema.alterTable("sessions").addColumn("ip", "text").execute();
  await sql`update sessions set public_id = lower(hex(randomblob(16)))`.execute(db);
  await db.schema.createIndex("sessions_public_id").unique().on("sessions").column("public_id").execute();

  await db.schema
    .createTable("api_token_families")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("last_used_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .addColumn("revoked_at", "integer")
    .execute();
  await db.schema.createIndex("api_token_families_user").on("api_token_families").column("user_id").execute();
  await copyLiveFamilies(db);

  await db.schema.alterTable("passkeys").addColumn("name", "text").execute();
}

/**
 * The families in api_tokens, one row each: issued at its first token, last used at its latest,
 * revoked when no token of it is left unrevoked. Shared with PostgreSQL's migration 015.
 * @param {import("kysely").Kysely<any>} db
 */
export async function copyLiveFamilies(db) {
  await sql`
    insert into api_token_families (id, user_id, created_at, last_used_at, expires_at, revoked_at)
    select family_id, min(user_id), min(created_at), max(coalesce(used_at, created_at)), max(expires_at),
      case when count(*) = count(revoked_at) then max(revoked_at) end
    from api_tokens group by family_id`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("passkeys").dropColumn("name").execute();
  await db.schema.dropTable("api_token_families").execute();
  await db.schema.dropIndex("sessions_public_id").execute();
  for (const column of ["ip", "user_agent", "public_id"]) {
    await db.schema.alterTable("sessions").dropColumn(column).execute();
  }
}
