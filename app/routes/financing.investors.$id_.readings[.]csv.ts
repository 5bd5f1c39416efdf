import type { LoaderFunctionArgs } from "@remix-run/node";
import { investorPageContent } from "~/content/investor-page";
import { readingContent } from "~/content/library-reading";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { investorIdSchema, investorRecord } from "~/models/investors/investor-record.server";
import { exportReadingsOf } from "~/models/library/reading-export.server";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8" };

/** GET: the documents one investor opened, as CSV (recorded in the audit trail). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const id = investorIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(investorPageContent.errors.idInvalid, { status: 400, headers: TEXT_HEADERS });
  const investor = await investorRecord(id.data);
  if (!investor) throw new Response(investorPageContent.errors.notFound, { status: 404, headers: TEXT_HEADERS });
  return csvAttachment(request, readingContent.csv.readingsFileName, () =>
    exportReadingsOf(investor, { user, ip: context.clientIp }),
  );
}
