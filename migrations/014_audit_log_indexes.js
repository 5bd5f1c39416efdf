// @ts-check
// The audit log's indexes (docs/performance.md): the page reads one filter at a time, newest
// first, a page at a time, so each filter has an index that ends in the id and a page is a short
// walk back from the cursor. The time index gains the id, so that a date range becomes a range of
// ids with one lookup at each end. The last two serve the administrator's page of one investor: the
// investor's own events newest first (their views and downloads of the materials), and the events
// about them (the NDA's steps).
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`drop index audit_events_at`.execute(db);
  await sql`create index audit_events_by_time on audit_events (at, id)`.execute(db);
  await sql`create index audit_events_by_actor_email on audit_events (actor_email, id)`.execute(db);
  await sql`create index audit_events_by_target_email on audit_events (target_email, id)`.execute(db);
  await sql`create index audit_events_by_action on audit_events (action, id)`.execute(db);
  await sql`create index audit_events_by_actor on audit_events (actor_id, id)`.execute(db);
  await sql`create index audit_events_by_target on audit_events (target_id, id)`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const index of [
    "audit_events_by_target",
    "audit_events_by_actor",
    "audit_events_by_action",
    "audit_events_by_target_email",
    "audit_events_by_actor_email",
    "audit_events_by_time",
  ]) {
    await sql.raw(`drop index ${index}`).execute(db);
  }
  await sql`create index audit_events_at on audit_events (at)`.execute(db);
}
