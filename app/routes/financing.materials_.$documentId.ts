import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { opensAsDocument, requireOpenableDocument, serveLibraryPdf } from "~/http/library-file.server";

/**
 * A document of the library: a PDF opens here, stamped for the reader; a video has its own page. A PDF
 * the firm shows in the viewer only opens the viewer when a browser navigates here; the viewer's own
 * request for the copy is served.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ...openable } = await requireOpenableDocument(request, params.documentId, context.clientIp);
  if (openable.document.kind === "video") return redirect(`/financing/materials/${openable.document.id}/watch`);
  if (!openable.document.downloadable && opensAsDocument(request))
    return redirect(`/financing/materials/${openable.document.id}/read`);
  return serveLibraryPdf(request, user, openable, context.clientIp);
}
