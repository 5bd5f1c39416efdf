/** The server side of the library's list: every document in order, and the moves up and down. */
import { json } from "@remix-run/node";
import { z } from "zod";
import { libraryContent } from "~/content/library";
import { requireAdmin } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { NO_STORE, actorOf, libraryPath } from "~/http/library-pages.server";
import { redirectWithToast } from "~/http/toast.server";
import { chosenCounts } from "~/models/library/library-audience.server";
import { moveDocument } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { documentIdSchema } from "~/models/library/library-schema.server";

const words = libraryContent;

/** The whole library in its order, each document with its chosen audience's size. */
export async function libraryListLoader(request: Request) {
  await requireAdmin(request);
  const [documents, chosen] = await Promise.all([listLibrary(), chosenCounts()]);
  return json(
    { documents: documents.map((document) => ({ ...document, chosenCount: chosen.get(document.id) ?? 0 })) },
    { headers: NO_STORE },
  );
}

const moveSchema = z.object({ intent: z.enum(["up", "down"]), documentId: documentIdSchema });

/** Moves a document one place up or down. */
export async function libraryListAction(request: Request, clientIp: string) {
  const user = await requireAdmin(request);
  const body = await readFormBody(request);
  if (!body.ok) return json({ message: body.message }, { status: body.status, headers: NO_STORE });
  const move = parseSubmission(body.formData, moveSchema);
  if (move.status !== "success")
    return json({ message: words.errors.unknownIntent }, { status: 400, headers: NO_STORE });
  const result = await moveDocument(move.value.documentId, move.value.intent, actorOf(user, clientIp));
  if (!result.ok) return json({ message: result.message }, { status: result.status, headers: NO_STORE });
  return redirectWithToast(libraryPath(), words.notices.moved);
}
