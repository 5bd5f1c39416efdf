// @ts-check
// The second factor: an authenticator app (TOTP), single-use recovery codes and passkeys, the
// pending steps between a login's password and its code, and how each web session was opened.
// Administrators' existing sessions and API tokens end here: each was opened with a password
// alone, and an administrator now needs a second factor to hold either.

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await db.schema
    .createTable("totp_credentials")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    // The confirmed secret (base32), or null while only an enrolment is pending.
    .addColumn("secret", "text")
    .addColumn("confirmed_at", "integer")
    // The newest 30-second step a code was accepted for: a code is never accepted twice.
    .addColumn("last_step", "integer")
    // An enrolment in progress (a new or replacing secret), until its first code confirms it.
    .addColumn("pending_secret", "text")
    .addColumn("pending_created_at", "integer")
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("used_at", "integer")
    .execute();
  await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute();

  await db.schema
    .createTable("passkeys")
    // The credential id, base64url, as the authenticator gave it.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("public_key", "blob", (c) => c.notNull())
    .addColumn("counter", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("last_used_at", "integer")
    .execute();
  await db.schema.createIndex("passkeys_user").on("passkeys").column("user_id").execute();

  await db.schema
    .createTable("login_challenges")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    // 'second_step': a password was right and a code is awaited; 'passkey_register', 'passkey_login':
    // a WebAuthn ceremony in progress, with its challenge.
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("challenge", "text")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("expires_at", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable("sessions")
    .addColumn("auth_method", "text", (c) => c.notNull().defaultTo("password"))
    .execute();

  await db
    .deleteFrom("sessions")
    .where("user_id", "in", db.selectFrom("users").select("id").where("role", "=", "administrator"))
    .execute();
  await db
    .deleteFrom("api_tokens")
    .where("user_id", "in", db.selectFrom("users").select("id").where("role", "=", "administrator"))
    .execute();
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await db.schema.alterTable("sessions").dropColumn("auth_method").execute();
  await db.schema.dropTable("login_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema.dropTable("totp_credentials").execute();
}
