// @ts-check
// PostgreSQL's migration 009, as SQLite's (../009_second_factor_at_rest.js says what and why).
import { sql } from "kysely";
import { sealStoredTotpSecrets, shortenPasswordOnlyAdminSessions } from "../second-factor-at-rest.js";

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {import("../migrator.js").MigrationKeys} [keys]
 */
export async function up(db, keys) {
  await sql`alter table sessions add column reauthenticated_at bigint`.execute(db);
  await sql`create table totp_enrolments (
  session_id_hash text primary key references sessions (id_hash) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  secret text not null,
  created_at bigint not null
)`.execute(db);
  await sql`create index totp_enrolments_user on totp_enrolments (user_id)`.execute(db);
  await sql`delete from totp_credentials where secret is null`.execute(db);
  await sql`alter table totp_credentials drop column pending_secret, drop column pending_created_at`.execute(db);
  await sealStoredTotpSecrets(db, keys?.dataKey);
  await shortenPasswordOnlyAdminSessions(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop table totp_enrolments`.execute(db);
  await sql`alter table sessions drop column reauthenticated_at`.execute(db);
  await sql`alter table totp_credentials add column pending_secret text, add column pending_created_at bigint`.execute(
    db,
  );
}
