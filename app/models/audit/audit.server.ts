import { countAccountEvent } from "~/models/account/account-event-metrics.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { countAuditRow } from "~/server/metrics.server";
import { asOnlyWriter, type OnlyWriter } from "~/server/sql-dialect.server";
import type { ChainedContent } from "../../../migrations/audit-chain.js";
import { CHAIN_WRITER, appendChainedRowAsWriter } from "./audit-chain.server";

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

/**
 * Appends one line to the audit history, sealed into its hash chain (audit_events has no foreign
 * keys: it outlives accounts), and counts it for the metrics: the account events (sign-ins, their
 * failures, sign-ups) are counted here, from what is recorded, and nowhere else.
 */
export async function recordAuditEvent(event: AuditEvent) {
  await changeWithAudit(async (_db, record) => record(event));
}

/**
 * Runs `change` and appends the audit rows it records in the same transaction, so a change is stored with
 * its record or not at all: the trail (and the NDA's steps, read from it) never lacks a change that was
 * made, nor holds one that was not. The transaction is the chain's only writer from its start. `change` must
 * use the handle it is given and no other: on SQLite that handle holds the one connection, and a query
 * through any other would wait for it forever. Mail and other effects outside the database come after.
 */
export async function changeWithAudit<T>(
  change: (db: OnlyWriter, record: (event: AuditEvent) => void) => Promise<T>,
): Promise<T> {
  const events: AuditEvent[] = [];
  const result = await asOnlyWriter(getDb(), CHAIN_WRITER, async (db) => {
    const changed = await change(db, (event) => events.push(event));
    for (const event of events) await appendChainedRowAsWriter(db, chainedContentOf(event));
    return changed;
  });
  for (const event of events) counted(event);
  return result;
}

function chainedContentOf(event: AuditEvent): ChainedContent {
  const details =
    event.details === undefined || event.details === null
      ? null
      : typeof event.details === "string"
        ? event.details
        : JSON.stringify(event.details);
  return {
    actor_id: event.actorId ?? null,
    actor_email: event.actorEmail ?? null,
    action: event.action,
    target_id: event.targetId ?? null,
    target_email: event.targetEmail ?? null,
    details,
    ip: event.ip ?? null,
    at: now(),
  };
}

/** Counts a recorded event for the metrics, once it is stored. */
function counted(event: AuditEvent) {
  countAuditRow();
  countAccountEvent(event.action, event.details);
}

/** An event an account caused on itself (a second factor set up, a code refused): it is both actor and target. */
export function ownAccountEvent(
  account: { id: string; email: string },
  action: string,
  { ip, details }: { ip: string; details?: Record<string, unknown> },
): AuditEvent {
  return {
    actorId: account.id,
    actorEmail: account.email,
    action,
    targetId: account.id,
    targetEmail: account.email,
    details,
    ip,
  };
}

/** Records an event an account caused on itself (`ownAccountEvent`). */
export function recordOwnAccountEvent(...event: Parameters<typeof ownAccountEvent>) {
  return recordAuditEvent(ownAccountEvent(...event));
}

export type AuditEntry = {
  id: number;
  actorEmail: string | null;
  action: string;
  targetEmail: string | null;
  targetId: string | null;
  details: string | null;
  ip: string | null;
  at: string;
};

/** The audit history, newest first, one page at a time. */
export async function listAuditEvents({ limit, offset = 0 }: { limit: number; offset?: number }) {
  const db = getDb();
  const [rows, count] = await Promise.all([
    db
      .selectFrom("audit_events")
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  const events: AuditEntry[] = rows.map((row) => ({
    id: row.id,
    actorEmail: row.actor_email,
    action: row.action,
    targetEmail: row.target_email,
    targetId: row.target_id,
    details: row.details,
    ip: row.ip,
    at: new Date(row.at).toISOString(),
  }));
  return { events, total: Number(count.count) };
}
