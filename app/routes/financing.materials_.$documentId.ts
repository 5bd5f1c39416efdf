import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireOpenableDocument, serveLibraryPdf } from "~/http/library-file.server";

/** A document of the library: a PDF opens here, stamped for the reader; a video has its own page. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ...openable } = await requireOpenableDocument(request, params.documentId, context.clientIp);
  if (openable.document.kind === "video") return redirect(`/financing/materials/${openable.document.id}/watch`);
  return serveLibraryPdf(request, user, openable, context.clientIp);
}
