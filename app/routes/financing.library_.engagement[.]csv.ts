import type { LoaderFunctionArgs } from "@remix-run/node";
import { insightsContent } from "~/content/reading-insights";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { engagementPeriodOf } from "~/http/engagement-period.server";
import { exportEngagement } from "~/models/reading/engagement-export.server";

/** GET: the engagement ranking of the period, everyone in it, as CSV (recorded in the audit trail). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const period = engagementPeriodOf(request);
  return csvAttachment(request, insightsContent.engagement.csvFileName, () =>
    exportEngagement(period, { user, ip: context.clientIp }),
  );
}
