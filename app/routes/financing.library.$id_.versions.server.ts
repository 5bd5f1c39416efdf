/**
 * The server side of a new version's page: the document's next version, of its kind. A published document's
 * new version reaches investors at once, so it runs only in "sudo mode" (app/http/library-sudo.server.ts).
 */
import { json } from "@remix-run/node";
import { z } from "zod";
import { libraryContent } from "~/content/library";
import { requireAdminSession } from "~/http/auth.server";
import {
  NO_STORE,
  actorOf,
  documentIdOf,
  libraryPath,
  notFound,
  readUploadForm,
  refusedForm,
} from "~/http/library-pages.server";
import { librarySudoRefusal } from "~/http/library-sudo.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithToast } from "~/http/toast.server";
import { addVersion, discardUpload } from "~/models/library/library-changes.server";
import { getLibraryDocument } from "~/models/library/library-documents.server";

const words = libraryContent;

async function documentOf(params: { id?: string }) {
  const document = await getLibraryDocument(documentIdOf(params));
  if (!document) throw notFound();
  return document;
}

/** The new version's form alone: where a refused upload is said (the document's page has the same form). */
export async function newVersionLoader(request: Request, params: { id?: string }) {
  const session = await requireAdminSession(request);
  const { id, title, kind, published } = await documentOf(params);
  return json(
    { document: { id, title, kind, published }, sudo: sudoState(session, libraryPath(id)) },
    { headers: NO_STORE },
  );
}

/**
 * A new version of the document, of its kind; investors get it from now on. A refusal keeps nothing; one
 * for want of "Confirm it's you" comes before a byte of the file is read.
 */
export async function newVersionAction(request: Request, params: { id?: string }, clientIp: string) {
  const session = await requireAdminSession(request);
  const user = session.user;
  const document = await documentOf(params);
  const unconfirmed = librarySudoRefusal(session, document, { kind: "version" }, libraryPath(document.id));
  if (unconfirmed)
    return refusedForm({ error: { "": [unconfirmed.message] }, initialValue: {} }, 403, unconfirmed.confirmHref);
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
  return redirectWithToast(
    libraryPath(document.id),
    document.published ? words.notices.versionPublished(added.number) : words.notices.versionOfDraft(added.number),
  );
}
