import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireOpenableDocument, serveLibraryCaptions } from "~/http/library-file.server";

/** A video's captions (WebVTT), for its player's track. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user: _reader, ...openable } = await requireOpenableDocument(request, params.documentId, context.clientIp);
  return serveLibraryCaptions(openable);
}
