import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireNdaSigned } from "~/http/auth.server";
import { serveStampedPdf } from "~/http/stamped-pdf.server";

/** The investor PDF (the materials' three document links), stamped for the downloader: signed-NDA investors and administrators only. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireNdaSigned(request);
  return serveStampedPdf({ request, user, ip: context.clientIp });
}
