/**
 * What the administrators' library pages share on the server: the document's id from the address, the
 * actor for the audit trail, and reading an upload form (the file streamed into blobs, the text fields
 * checked after it, the upload discarded whenever the form is refused).
 */
import { json } from "@remix-run/node";
import type { z } from "zod";
import { libraryContent } from "~/content/library";
import type { FormReply } from "~/lib/form-reply";
import { libraryPath } from "~/lib/library-path";
import type { PublicUser } from "~/models/account/user.server";
import { investorsByEmail } from "~/models/library/library-audience.server";
import type { Actor } from "~/models/library/library-documents.server";
import { documentIdSchema } from "~/models/library/library-schema.server";
import { parseSubmission } from "./form-submission.server";
import { discardUpload, readMaterialUpload, type UploadedDocument } from "./material-upload.server";

const errors = libraryContent.errors;
export const NO_STORE = { "Cache-Control": "private, no-store" };
const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8" };

export { libraryPath };

/** The document's id from the address: a malformed one is a bad request (400), as on an investor's page. */
export function documentIdOf(params: { id?: string }): string {
  const id = documentIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(errors.idInvalid, { status: 400, headers: TEXT_HEADERS });
  return id.data;
}

export const notFound = () => new Response(errors.notFound, { status: 404, headers: TEXT_HEADERS });

export const actorOf = (user: PublicUser, ip: string): Actor => ({ user, ip });

/** A refused form: its messages and values, put back on the page (status 4xx), and where to confirm it's you. */
export function refusedForm(reply: FormReply, status: number, confirmHref: string | null = null) {
  return json({ reply, confirmHref }, { status, headers: NO_STORE });
}

/** The file's message, with the reminder that a browser sends a refused form back without its file. */
const fileMessages = (message: string) => [message, errors.chooseAgain];

type UploadFormRead<Value> =
  | { ok: true; value: Value; upload: UploadedDocument; chosenUserIds: string[] }
  | { ok: false; reply: FormReply; status: number };

/**
 * Reads an upload form: its file (required) and the text fields its schema checks; a chosen audience's
 * addresses must be investors'. On any refusal nothing stays stored.
 */
export async function readUploadForm<Schema extends z.ZodType<{ chosen?: string[] }>>(
  request: Request,
  schema: Schema,
): Promise<UploadFormRead<z.output<Schema>>> {
  const read = await readMaterialUpload(request);
  if (!read.ok)
    return { ok: false, status: read.status, reply: { error: { file: fileMessages(read.message) }, initialValue: {} } };
  const { formData, upload } = read;
  const submission = parseSubmission(formData, schema);
  const fieldErrors: Record<string, string[]> = {};
  if (!upload) fieldErrors.file = [errors.fileRequired];
  else if (submission.status !== "success") fieldErrors.file = [errors.chooseAgain];
  if (submission.status === "success" && upload) {
    const chosen = await investorsByEmail(submission.value.chosen ?? []);
    if (chosen.ok) return { ok: true, value: submission.value, upload, chosenUserIds: chosen.userIds };
    fieldErrors.chosen = [chosen.message];
    fieldErrors.file = [errors.chooseAgain];
  }
  if (upload) await discardUpload(upload);
  const reply = submission.reply({ fieldErrors });
  delete reply.initialValue.file;
  delete reply.initialValue.captions;
  return { ok: false, status: 400, reply };
}
