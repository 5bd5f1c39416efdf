import type { LoaderFunctionArgs } from "@remix-run/node";
import { readingContent } from "~/content/library-reading";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { documentOfAddress } from "~/http/reading-report.server";
import { exportReadersOf } from "~/models/library/reading-export.server";

/** GET: the investors who opened one document, as CSV (recorded in the audit trail). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const document = await documentOfAddress(params);
  return csvAttachment(request, readingContent.csv.readersFileName, () =>
    exportReadersOf(document, { user, ip: context.clientIp }),
  );
}
