import { now } from "~/utils/clock.server";
import { getDb } from "~/utils/db.server";

export type AuditEvent = {
  actorId?: string | null;
  actorEmail?: string | null;
  /** e.g. account.registered, login.succeeded, login.failed, account.locked, password.reset, admin.created */
  action: string;
  targetId?: string | null;
  targetEmail?: string | null;
  /** Safe facts only: never a password, token, hash or session id. */
  details?: Record<string, unknown> | string | null;
  ip?: string | null;
};

/** Appends one line to the audit history (audit_events has no foreign keys: it outlives accounts). */
export async function recordAuditEvent(event: AuditEvent) {
  const details =
    event.details === undefined || event.details === null
      ? null
      : typeof event.details === "string"
      ? event.details
      : JSON.stringify(event.details);
  await getDb()
    .insertInto("audit_events")
    .values({
      actor_id: event.actorId ?? null,
      actor_email: event.actorEmail ?? null,
      action: event.action,
      target_id: event.targetId ?? null,
      target_email: event.targetEmail ?? null,
      details,
      ip: event.ip ?? null,
      at: now(),
    })
    .execute();
}
