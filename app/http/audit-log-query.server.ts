import { auditLogQuerySchema, type AuditLogQuery } from "~/models/audit/audit-log.server";
import { fieldErrorsOf } from "./form-submission.server";

/** The audit log's filters as the page's GET form sent them, or every message about those refused. */
export type AuditLogQueryReading =
  | { ok: true; query: AuditLogQuery; given: Record<string, string> }
  | { ok: false; messages: string[]; given: Record<string, string> };

/** The filters of the page's address (a name given twice counts once: its first value). */
export function readAuditLogQuery(request: Request): AuditLogQueryReading {
  const given: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) given[name] ??= value;
  const parsed = auditLogQuerySchema.safeParse(given);
  if (parsed.success) return { ok: true, query: parsed.data, given };
  return { ok: false, messages: [...new Set(Object.values(fieldErrorsOf(parsed.error)).flat())], given };
}
