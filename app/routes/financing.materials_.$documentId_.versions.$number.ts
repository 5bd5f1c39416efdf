import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/auth.server";
import { serveLibraryVersion } from "~/http/library-file.server";

/** Any version of a document, earlier ones included, for administrators: a PDF stamped for them, a video in ranges. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return serveLibraryVersion(request, user, params.documentId, params.number, context);
}
