/**
 * The audit trail as a person reads it: filtered by who acted, what kind of event, whom it concerned
 * and when; newest first, a page at a time by row id (the row's place in the chain); each event in
 * words with its details labelled. A date range becomes a range of ids (rows are appended in time
 * order), so every single filter is read through an index, newest first, and stops after one page.
 */
import { type Selectable, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import {
  auditDetailLabels,
  auditDetailValues,
  auditEvents,
  auditLogContent,
  type AuditEventFacts,
} from "~/content/audit-log";
import { AUDIT_PAGE_SIZE } from "~/lib/investor-table";
import { getDb, type AuditEventsTable, type Database } from "~/server/db.server";
import { exportLines } from "./audit-export.server";
import { recordAuditEvent } from "./audit.server";

const errors = auditLogContent.errors;
const DAY_MS = 86_400_000;

/** The instant a day (UTC, YYYY-MM-DD) begins, and the one it ends (the next day's beginning). */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const dayEnd = (day: string) => dayStart(day) + DAY_MS;

/**
 * A filter's field: empty (as a GET form sends an unused field) counts as not given. `given` is the pattern
 * a given value meets, spaces around it allowed: it is what the OpenAPI document says of the field, with
 * its description and an example, and `schema` then holds the rules no pattern can (a day that exists).
 */
function optionalField<Schema extends z.ZodType<unknown, string>>(
  { given, error, schema }: { given: RegExp; error: string; schema: Schema },
  description: string,
  example: string,
) {
  return z
    .string()
    .regex(new RegExp(`^\\s*(?:${given.source})?\\s*$`), { error })
    .trim()
    .transform((text) => (text === "" ? undefined : text))
    .pipe(schema.optional())
    .optional()
    .meta({ description, examples: [example] });
}

const EMAIL_MAX_LENGTH = 254;
/** An address with an @ and no space, at most 254 characters. */
const emailShape = new RegExp(`(?=\\S{1,${EMAIL_MAX_LENGTH}}\\s*$)[^\\s@]+@[^\\s@]+`);
const emailFilter = {
  given: emailShape,
  error: errors.email,
  schema: z
    .string()
    .max(EMAIL_MAX_LENGTH, { error: errors.email })
    .regex(/^[^\s@]+@[^\s@]+$/, { error: errors.email })
    .transform((email) => email.toLowerCase()),
};

/** A calendar date in UTC, YYYY-MM-DD, that exists (no 2026-02-30). */
const dateShape = /\d{4}-\d{2}-\d{2}/;
const dateFilter = {
  given: dateShape,
  error: errors.date,
  schema: z.string().refine(
    (text) => {
      const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? dayStart(text) : NaN;
      return !Number.isNaN(at) && new Date(at).toISOString().startsWith(text);
    },
    { error: errors.date },
  ),
};

/** One of the known kinds of event, by its name. */
const kindShape = new RegExp(
  Object.keys(auditEvents)
    .map((kind) => kind.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
);
const kindFilter = {
  given: kindShape,
  error: errors.kind,
  schema: z.string().refine((kind) => Object.hasOwn(auditEvents, kind), { error: errors.kind }),
};

/** A row id: up to 15 digits, not zero. */
const cursorShape = /(?=\d*[1-9])\d{1,15}/;
const cursorFilter = {
  given: cursorShape,
  error: errors.cursor,
  schema: z
    .string()
    .regex(/^\d{1,15}$/, { error: errors.cursor })
    .transform(Number)
    .refine((id) => id >= 1, { error: errors.cursor }),
};

/** The page's and the API's filters and cursor, each optional; a malformed one, or a reversed range, is refused. */
export const auditLogQuerySchema = z
  .object({
    person: optionalField(emailFilter, "Only events this e-mail address caused.", "admin@example.com"),
    kind: optionalField(kindFilter, "Only events of this kind (an action, e.g. `login.succeeded`).", "login.succeeded"),
    investor: optionalField(emailFilter, "Only events that concern this e-mail address.", "investor@example.com"),
    from: optionalField(dateFilter, "Only events on or after this day (UTC), YYYY-MM-DD.", "2026-01-01"),
    to: optionalField(dateFilter, "Only events on or before this day (UTC), YYYY-MM-DD.", "2026-01-31"),
    cursor: optionalField(cursorFilter, "The `nextCursor` of the page before: the events older than it.", "1041"),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ["to"], error: errors.range });

export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;
export type AuditLogFilters = Omit<AuditLogQuery, "cursor">;

/** The filters that are set, as given (for links, the export's URL and its audit record). */
export function filtersInUse({ person, kind, investor, from, to }: AuditLogFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries({ person, kind, investor, from, to }).filter((entry): entry is [string, string] => !!entry[1]),
  );
}

/** The known kinds of event in words, for the filter's list, in the order of their words. */
export function auditEventKinds(): { value: string; label: string }[] {
  return Object.entries(auditEvents)
    .map(([value, words]) => ({ value, label: words.kind }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
}

/* Each event in words. */

export type LabelledDetail = { label: string; value: string };

/** The stored details as an object: a JSON object as it is, any other text under `text`, nothing as {}. */
export function detailsObject(stored: string | null): Record<string, unknown> {
  if (stored === null) return {};
  try {
    const value: unknown = JSON.parse(stored);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON: shown as the text it is.
  }
  return { text: stored };
}

function detailValue(key: string, value: unknown): string {
  if (value === true) return auditLogContent.yes;
  if (value === false) return auditLogContent.no;
  if (value === null || value === undefined || value === "") return auditLogContent.none;
  if (typeof value === "string") return auditDetailValues[key]?.[value] ?? value;
  if (Array.isArray(value)) return value.length ? value.map((item) => detailValue(key, item)).join(", ") : "none";
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([inner, innerValue]) => `${auditDetailLabels[inner] ?? inner}: ${detailValue(inner, innerValue)}`)
      .join("; ");
  }
  return String(value);
}

/** The details as labelled values, in the order they were recorded. */
export function labelledDetails(details: Record<string, unknown>): LabelledDetail[] {
  return Object.entries(details).map(([key, value]) => ({
    label: auditDetailLabels[key] ?? key,
    value: detailValue(key, value),
  }));
}

/** The event as a sentence; an action without words is shown as its code. */
export function eventInWords(action: string, facts: AuditEventFacts): string {
  return Object.hasOwn(auditEvents, action) ? auditEvents[action].says(facts) : action;
}

export type AuditLogRow = {
  /** The row's place in the hash chain. */
  id: number;
  at: string;
  actorEmail: string | null;
  action: string;
  event: string;
  targetEmail: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  labelledDetails: LabelledDetail[];
  ip: string | null;
};

export function toAuditLogRow(row: Selectable<AuditEventsTable>): AuditLogRow {
  const details = detailsObject(row.details);
  const target = row.target_email ?? row.target_id;
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    actorEmail: row.actor_email,
    action: row.action,
    event: eventInWords(row.action, { target, details }),
    targetEmail: row.target_email,
    targetId: row.target_id,
    details,
    labelledDetails: labelledDetails(details),
    ip: row.ip,
  };
}

/* Reading the rows. */

type AuditQuery = SelectQueryBuilder<Database, "audit_events", Selectable<AuditEventsTable>>;

/** The id of the first row recorded at `at` or later (`after`), or of the last before it; null when there is none. */
async function edgeId(side: "after" | "before", at: number): Promise<number | null> {
  const order = side === "after" ? "asc" : "desc";
  const row = await getDb()
    .selectFrom("audit_events")
    .select("id")
    .where("at", side === "after" ? ">=" : "<", at)
    .orderBy("at", order)
    .orderBy("id", order)
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Ids [first, last] of the rows recorded in the date range, or null when none are. */
async function idRangeOf({ from, to }: AuditLogFilters): Promise<{ first: number; last: number } | null> {
  const first = from ? await edgeId("after", dayStart(from)) : 1;
  if (first === null) return null;
  const last = to ? await edgeId("before", dayEnd(to)) : Number.MAX_SAFE_INTEGER;
  if (last === null) return null;
  return first <= last ? { first, last } : null;
}

/** The rows the filters select, in no order yet; null when the date range holds none. */
async function filteredRows(filters: AuditLogFilters): Promise<AuditQuery | null> {
  let query: AuditQuery = getDb().selectFrom("audit_events").selectAll();
  if (filters.person) query = query.where("actor_email", "=", filters.person);
  if (filters.kind) query = query.where("action", "=", filters.kind);
  if (filters.investor) query = query.where("target_email", "=", filters.investor);
  if (filters.from || filters.to) {
    const ids = await idRangeOf(filters);
    if (!ids) return null;
    query = query.where("id", ">=", ids.first).where("id", "<=", ids.last);
    // The ids bound the walk; the times keep it exact should a clock have stepped back between two rows.
    if (filters.from) query = query.where("at", ">=", dayStart(filters.from));
    if (filters.to) query = query.where("at", "<", dayEnd(filters.to));
  }
  return query;
}

/** One page of the filtered log, newest first, older than `cursor` when given; `nextCursor` while more remain. */
export async function auditLogPage(
  { cursor, ...filters }: AuditLogQuery,
  limit = AUDIT_PAGE_SIZE,
): Promise<{ rows: AuditLogRow[]; nextCursor: number | null }> {
  const query = await filteredRows(filters);
  if (!query) return { rows: [], nextCursor: null };
  const rows = await (cursor === undefined ? query : query.where("id", "<", cursor))
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit).map(toAuditLogRow);
  return { rows: page, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}

const EXPORT_BATCH = 1000;
const EXPORT_CHUNK_CHARS = 64 * 1024;

/** Every row the filters select, oldest first, a batch at a time: an export of any length is never held whole. */
export async function* filteredRowsInOrder(filters: AuditLogFilters): AsyncGenerator<Selectable<AuditEventsTable>> {
  const query = await filteredRows(filters);
  if (!query) return;
  let lastId = 0;
  for (;;) {
    const rows = await query.where("id", ">", lastId).orderBy("id").limit(EXPORT_BATCH).execute();
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    lastId = Number(rows[rows.length - 1].id);
  }
}

/**
 * The filtered rows as a signed export (the format of `npm run audit:export`), as a stream of bytes.
 * The export is recorded first, with its filters: a copy that is not in the trail never leaves.
 */
export async function exportAuditLog({
  filters,
  actor,
  ip,
}: {
  filters: AuditLogFilters;
  actor: { id: string; email: string };
  ip: string | null;
}): Promise<ReadableStream<Uint8Array>> {
  await recordAuditEvent({
    actorId: actor.id,
    actorEmail: actor.email,
    action: "audit.exported",
    details: filtersInUse(filters),
    ip,
  });
  const lines = exportLines(filteredRowsInOrder(filters));
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      let chunk = "";
      for (;;) {
        const next = await lines.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
        if (chunk.length >= EXPORT_CHUNK_CHARS) break;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
