import type { LoaderFunctionArgs } from "@remix-run/node";
import { materialsMessages } from "~/content/materials";
import { requireOpenableDocument, serveLibraryVideo } from "~/http/library-file.server";

/** A video's bytes, in ranges; a PDF's are never served unstamped. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ...openable } = await requireOpenableDocument(request, params.documentId, context.clientIp);
  if (openable.document.kind !== "video") throw new Response(materialsMessages.notAVideo, { status: 404 });
  return serveLibraryVideo(request, user, openable, context);
}
