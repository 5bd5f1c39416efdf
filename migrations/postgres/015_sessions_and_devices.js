// @ts-check
// PostgreSQL's migration 015, as SQLite's (../015_sessions_and_devices.js says what and why); times are bigint.
import { sql } from "kysely";
import { copyLiveFamilies } from "../015_sessions_and_devices.js";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .alterTable("sessions")
    .addColumn("public_id", "text")
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .execute();
  await sql`update sessions set public_id = replace(gen_random_uuid()::text, '-', '')`.execute(db);
  await db.schema.createIndex("sessions_public_id").unique().on("sessions").column("public_id").execute();

  await db.schema
    .createTable("api_token_families")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("api_token_families_user").on("api_token_families").column("user_id").execute();
  await copyLiveFamilies(db);

  await db.schema.alterTable("passkeys").addColumn("name", "text").execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("passkeys").dropColumn("name").execute();
  await db.schema.dropTable("api_token_families").execute();
  await db.schema.dropIndex("sessions_public_id").execute();
  await db.schema.alterTable("sessions").dropColumn("ip").dropColumn("user_agent").dropColumn("public_id").execute();
}
