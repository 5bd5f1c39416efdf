/**
 * The server side of a library document's page: its details, publication and audience changed. Publishing,
 * and widening a published document's audience, run only in "sudo mode" (app/http/library-sudo.server.ts).
 */
import { json } from "@remix-run/node";
import { z } from "zod";
import { libraryContent } from "~/content/library";
import { requireAdminSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { formLevelBeyond, parseSubmission } from "~/http/form-submission.server";
import { NO_STORE, actorOf, documentIdOf, libraryPath, notFound } from "~/http/library-pages.server";
import { type LibraryChange, librarySudoRefusal } from "~/http/library-sudo.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithToast } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { investorsByEmail, setAudience } from "~/models/library/library-audience.server";
import { editDocument, setDownloadable, setPublished } from "~/models/library/library-changes.server";
import { getLibraryDocument } from "~/models/library/library-documents.server";
import { audienceFieldsSchema, documentDetailsSchema } from "~/models/library/library-schema.server";

const words = libraryContent;

export async function libraryDocumentLoader(request: Request, params: { id?: string }) {
  const session = await requireAdminSession(request);
  const id = documentIdOf(params);
  const document = await getLibraryDocument(id);
  if (!document) throw notFound();
  return json({ document, sudo: sudoState(session, libraryPath(id)) }, { headers: NO_STORE });
}

const intentSchema = z.enum(["details", "publish", "unpublish", "audience", "allow-download", "viewer-only"]);
type Intent = z.output<typeof intentSchema>;

const refused = (intent: Intent | null, reply: FormReply, status: number, confirmHref: string | null = null) =>
  json({ intent, reply, confirmHref }, { status, headers: NO_STORE });

/** The 403 "Confirm it's you first" when the change widens who reads the document; null when it may run. */
async function unconfirmedWidening(
  session: Parameters<typeof librarySudoRefusal>[0],
  id: string,
  intent: Intent,
  change: LibraryChange,
) {
  const document = await getLibraryDocument(id);
  if (!document) return refused(intent, { error: { "": [words.errors.notFound] }, initialValue: {} }, 404);
  const refusal = librarySudoRefusal(session, document, change, libraryPath(id));
  if (!refusal) return null;
  return refused(intent, { error: { "": [refusal.message] }, initialValue: {} }, 403, refusal.confirmHref);
}

/** Edits the title and description, publishes or unpublishes, sets the audience, or whether a PDF may be downloaded. */
export async function libraryDocumentAction(request: Request, params: { id?: string }, clientIp: string) {
  const session = await requireAdminSession(request);
  const id = documentIdOf(params);
  const actor = actorOf(session.user, clientIp);
  const body = await readFormBody(request);
  if (!body.ok) return refused(null, { error: { "": [body.message] }, initialValue: {} }, body.status);
  const intents = body.formData.getAll("intent");
  const intent = intentSchema.safeParse(intents.length === 1 ? intents[0] : undefined);
  if (!intent.success) return refused(null, { error: { "": [words.errors.unknownIntent] }, initialValue: {} }, 400);

  switch (intent.data) {
    case "details": {
      const submission = parseSubmission(
        body.formData,
        documentDetailsSchema.extend({ intent: z.literal("details") }),
        {
          keepEmpty: true,
        },
      );
      if (submission.status !== "success")
        return refused("details", formLevelBeyond(submission.reply(), ["title", "description"]), 400);
      const result = await editDocument(
        id,
        { title: submission.value.title, description: submission.value.description },
        actor,
      );
      if (!result.ok) return refused("details", submission.reply({ formErrors: [result.message] }), result.status);
      return redirectWithToast(libraryPath(id), words.notices.edited);
    }
    case "publish":
    case "unpublish": {
      if (intent.data === "publish") {
        const unconfirmed = await unconfirmedWidening(session, id, "publish", { kind: "publish" });
        if (unconfirmed) return unconfirmed;
      }
      const result = await setPublished(id, intent.data === "publish", actor);
      if (!result.ok) return refused(intent.data, { error: { "": [result.message] }, initialValue: {} }, result.status);
      return redirectWithToast(
        libraryPath(id),
        intent.data === "publish" ? words.notices.published : words.notices.unpublished,
      );
    }
    case "allow-download":
    case "viewer-only": {
      const result = await setDownloadable(id, intent.data === "allow-download", actor);
      if (!result.ok) return refused(intent.data, { error: { "": [result.message] }, initialValue: {} }, result.status);
      return redirectWithToast(
        libraryPath(id),
        intent.data === "allow-download" ? words.notices.downloadAllowed : words.notices.viewerOnly,
      );
    }
    case "audience": {
      const submission = parseSubmission(
        body.formData,
        audienceFieldsSchema.and(z.object({ intent: z.literal("audience") })),
      );
      if (submission.status !== "success")
        return refused("audience", formLevelBeyond(submission.reply(), ["audience", "chosen"]), 400);
      const chosen = await investorsByEmail(submission.value.chosen);
      if (!chosen.ok) return refused("audience", submission.reply({ fieldErrors: { chosen: [chosen.message] } }), 400);
      const { audience } = submission.value;
      const unconfirmed = await unconfirmedWidening(session, id, "audience", {
        kind: "audience",
        audience,
        chosenUserIds: chosen.userIds,
      });
      if (unconfirmed) return unconfirmed;
      const result = await setAudience(id, audience, chosen.userIds, actor);
      if (!result.ok) return refused("audience", submission.reply({ formErrors: [result.message] }), result.status);
      return redirectWithToast(libraryPath(id), words.notices.audience);
    }
  }
}
