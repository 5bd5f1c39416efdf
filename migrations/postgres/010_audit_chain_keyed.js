// @ts-check
// PostgreSQL's migration 010, as SQLite's (../010_audit_chain_keyed.js says what and why). TRUNCATE,
// which PostgreSQL has and SQLite does not, is refused too.
import { sql } from "kysely";
import { resealUnderKey } from "../audit-chain.js";

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {import("../migrator.js").MigrationKeys} [keys]
 */
export async function up(db, keys) {
  await resealUnderKey(db, keys?.auditKey);
  await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_events is append-only';
end $$`.execute(db);
  await sql`create trigger audit_events_no_change before update or delete on audit_events
  for each row execute function audit_events_append_only()`.execute(db);
  await sql`create trigger audit_events_no_truncate before truncate on audit_events
  for each statement execute function audit_events_append_only()`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop trigger audit_events_no_truncate on audit_events`.execute(db);
  await sql`drop trigger audit_events_no_change on audit_events`.execute(db);
  await sql`drop function audit_events_append_only`.execute(db);
}
