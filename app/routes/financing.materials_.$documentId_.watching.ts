import type { ActionFunctionArgs } from "@remix-run/node";
import { requireNdaSigned } from "~/http/auth.server";
import { acceptWatchReport } from "~/http/reading-events.server";

/** The watch page reports the parts of a library video played (app/http/reading-events.server.ts). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  return acceptWatchReport(request, await requireNdaSigned(request), params.documentId);
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
