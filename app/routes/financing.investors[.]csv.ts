import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminContent } from "~/content/admin";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { investorsCsv } from "~/models/investors/investor-csv.server";
import { investorsForExport } from "~/models/investors/investor-table.server";

/** GET: the investor table's current selection (same query as /financing, every page) as CSV, recorded in the log. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request);
  const url = new URL(request.url);
  return csvAttachment(request, adminContent.csvFileName, async () => {
    const rows = await investorsForExport(url);
    await recordAuditEvent({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "investors.exported",
      details: { query: url.search, rows: rows.length },
      ip: context.clientIp,
    });
    return investorsCsv(rows);
  });
}
