// @ts-check
// The second factor, hardened (docs/decisions/0018):
// - an authenticator app's set-up in progress belongs to the one session that asked for it
//   (totp_enrolments, deleted with its session), no longer to the account;
// - TOTP secrets are stored encrypted under DATA_KEY (secret-box.js);
// - a session records when its user last proved who they are (password, and the second factor where
//   the account has one), which opens the security changes for a few minutes ("sudo");
// - an administrator's session opened with the password alone, which can only set up the factor,
//   lasts 15 minutes from its start.
import { sealStoredTotpSecrets, shortenPasswordOnlyAdminSessions } from "./second-factor-at-rest.js";

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {import("./migrator.js").MigrationKeys} [keys]
 */
export async function up(db, keys) {
  await db.schema.alterTable("sessions").addColumn("reauthenticated_at", "integer").execute();
  await db.schema
    .createTable("totp_enrolments")
    .addColumn("session_id_hash", "text", (c) => c.primaryKey().references("sessions.id_hash").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("totp_enrolments_user").on("totp_enrolments").column("user_id").execute();

  // Set-ups in progress belonged to no session: they start again.
  await db.deleteFrom("totp_credentials").where("secret", "is", null).execute();
  await db.schema.alterTable("totp_credentials").dropColumn("pending_secret").execute();
  await db.schema.alterTable("totp_credentials").dropColumn("pending_created_at").execute();

  await sealStoredTotpSecrets(db, keys?.dataKey);
  await shortenPasswordOnlyAdminSessions(db);
}

/**
 * @param {import("kysely").Kysely<any>} db
 */
export async function down(db) {
  await db.schema.dropTable("totp_enrolments").execute();
  await db.schema.alterTable("sessions").dropColumn("reauthenticated_at").execute();
  await db.schema.alterTable("totp_credentials").addColumn("pending_secret", "text").execute();
  await db.schema.alterTable("totp_credentials").addColumn("pending_created_at", "integer").execute();
}
