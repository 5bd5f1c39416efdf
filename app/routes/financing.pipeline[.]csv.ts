import type { LoaderFunctionArgs } from "@remix-run/node";
import { pipelineContent } from "~/content/pipeline";
import { requireAdmin } from "~/http/auth.server";
import { csvAttachment } from "~/http/csv-attachment.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { standingIndicationsCsv } from "~/models/pipeline/interest-export.server";
import { now } from "~/server/clock.server";

/** GET: the standing indications of interest as CSV, recorded in the log. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request);
  return csvAttachment(request, pipelineContent.csvFileName, async () => {
    const { csv, rows } = await standingIndicationsCsv(now());
    await recordAuditEvent({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "interest.exported",
      details: { rows },
      ip: context.clientIp,
    });
    return csv;
  });
}
