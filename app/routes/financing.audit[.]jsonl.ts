import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditLogContent } from "~/content/audit-log";
import { readAuditLogQuery } from "~/http/audit-log-query.server";
import { requireAdmin } from "~/http/auth.server";
import { exportAuditLog } from "~/models/audit/audit-log.server";

/** The audit log's rows that the page's filters select, oldest first, as a signed export (recorded in the log). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request);
  const reading = readAuditLogQuery(request);
  if (!reading.ok) {
    return new Response(`${reading.messages.join("\n")}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const headers = {
    "Content-Type": "application/jsonl; charset=utf-8",
    "Content-Disposition": `attachment; filename="${auditLogContent.exportFileName}"`,
    "Cache-Control": "private, no-store",
  };
  // A HEAD request carries no copy away: nothing to record.
  if (request.method === "HEAD") return new Response(null, { headers });
  const { cursor: _cursor, ...filters } = reading.query;
  return new Response(await exportAuditLog({ filters, actor, ip: context.clientIp }), { headers });
}
