/** The server side of a new version's page: the document's next version, of its kind. */
import { json } from "@remix-run/node";
import { z } from "zod";
import { libraryContent } from "~/content/library";
import { requireAdmin } from "~/http/auth.server";
import {
  NO_STORE,
  actorOf,
  documentIdOf,
  libraryPath,
  notFound,
  readUploadForm,
  refusedForm,
} from "~/http/library-pages.server";
import { redirectWithToast } from "~/http/toast.server";
import { addVersion, discardUpload, getLibraryDocument } from "~/models/materials.server";

const words = libraryContent;

async function documentOf(params: { id?: string }) {
  const document = await getLibraryDocument(documentIdOf(params));
  if (!document) throw notFound();
  return { id: document.id, title: document.title, kind: document.kind };
}

/** The new version's form alone: where a refused upload is said (the document's page has the same form). */
export async function newVersionLoader(request: Request, params: { id?: string }) {
  await requireAdmin(request);
  return json({ document: await documentOf(params) }, { headers: NO_STORE });
}

/** A new version of the document, of its kind; investors get it from now on. A refusal keeps nothing. */
export async function newVersionAction(request: Request, params: { id?: string }, clientIp: string) {
  const user = await requireAdmin(request);
  const document = await documentOf(params);
  const form = await readUploadForm(request, z.object({}));
  if (!form.ok) return refusedForm(form.reply, form.status);
  const { upload } = form;
  const added = await addVersion(document.id, upload.kind, upload, actorOf(user, clientIp)).catch(
    async (error: unknown) => {
      await discardUpload(upload);
      throw error;
    },
  );
  if (!added.ok) {
    await discardUpload(upload);
    return refusedForm({ error: { file: [added.message, words.errors.chooseAgain] }, initialValue: {} }, added.status);
  }
  return redirectWithToast(libraryPath(document.id), words.notices.versionPublished(added.number));
}
