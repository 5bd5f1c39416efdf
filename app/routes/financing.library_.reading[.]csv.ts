import type { LoaderFunctionArgs } from "@remix-run/node";
import { readingContent } from "~/content/library-reading";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { exportReadingReport } from "~/models/library/reading-export.server";

/** GET: the reading report of every document, as CSV (recorded in the audit trail). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return csvAttachment(request, readingContent.csv.reportFileName, () =>
    exportReadingReport({ user, ip: context.clientIp }),
  );
}
