// @ts-check
// The audit trail's chain is keyed, and the table is append-only (docs/decisions/0019):
// - every row is re-sealed with HMAC-SHA256 under a key derived from AUDIT_KEY (audit-chain.js), and a
//   row records the re-seal (the old head's hash, and whether the old chain held), so that editing
//   or cutting the trail and recomputing the chain needs the key as well as the database;
// - then triggers refuse every UPDATE and DELETE of audit_events, so neither a bug nor an injected
//   statement changes history. The re-seal runs first: it is the last update the table takes.
import { sql } from "kysely";
import { resealUnderKey } from "./audit-chain.js";

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {import("./migrator.js").MigrationKeys} [keys]
 */
export async function up(db, keys) {
  await resealUnderKey(db, keys?.auditKey);
  for (const change of ["update", "delete"]) {
    await sql
      .raw(
        `create trigger audit_events_no_${change} before ${change} on audit_events
  begin select raise(abort, 'audit_events is append-only'); end`,
      )
      .execute(db);
  }
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop trigger audit_events_no_update`.execute(db);
  await sql`drop trigger audit_events_no_delete`.execute(db);
}
