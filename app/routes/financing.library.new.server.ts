/** The server side of the upload form: a new document, a draft at the end of the list until it is published. */
import { json } from "@remix-run/node";
import { libraryContent } from "~/content/library";
import { requireAdmin } from "~/http/auth.server";
import { NO_STORE, actorOf, libraryPath, readUploadForm, refusedForm } from "~/http/library-pages.server";
import { redirectWithToast } from "~/http/toast.server";
import { createDocument, discardUpload } from "~/models/library/library-changes.server";
import { newDocumentSchema } from "~/models/library/library-schema.server";

const words = libraryContent;

export async function newDocumentLoader(request: Request) {
  await requireAdmin(request);
  return json(null, { headers: NO_STORE });
}

/** A new document with its first version, a draft; any refusal keeps nothing. */
export async function newDocumentAction(request: Request, clientIp: string) {
  const user = await requireAdmin(request);
  const form = await readUploadForm(request, newDocumentSchema);
  if (!form.ok) return refusedForm(form.reply, form.status);
  const { value, upload, chosenUserIds } = form;
  const created = await createDocument(
    {
      title: value.title,
      description: value.description,
      kind: upload.kind,
      audience: value.audience,
      chosenUserIds,
      upload,
    },
    actorOf(user, clientIp),
  ).catch(async (error: unknown) => {
    await discardUpload(upload);
    throw error;
  });
  if (!created.ok) {
    await discardUpload(upload);
    return refusedForm({ error: { "": [created.message] }, initialValue: {} }, created.status);
  }
  return redirectWithToast(libraryPath(created.id), words.notices.uploaded(value.title));
}
