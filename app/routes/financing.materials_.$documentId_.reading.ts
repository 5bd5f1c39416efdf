import type { ActionFunctionArgs } from "@remix-run/node";
import { requireNdaSigned } from "~/http/auth.server";
import { acceptReadingBatch } from "~/http/reading-events.server";

/** The page's viewer reports the time each page of a stamped copy was read (app/http/reading-events.server.ts). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  return acceptReadingBatch(request, await requireNdaSigned(request), params.documentId);
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
