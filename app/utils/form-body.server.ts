import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { formBodyErrors } from "~/content/forms";

/**
 * Reading a page action's body. A browser always sends its forms as
 * urlencoded or multipart; anything else (JSON, no body, a broken multipart
 * body, a malformed Conform intent) is a script's request, refused with 415 or
 * 400 and a message, never the 500 that `request.formData()` or Conform's
 * parser would throw (DESIGN.md section 7).
 */

const FORM_CONTENT_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

export type UnreadableForm = { ok: false; status: 400 | 415; message: string };

export async function readFormBody(request: Request): Promise<{ ok: true; formData: FormData } | UnreadableForm> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_CONTENT_TYPES.includes(mediaType))
    return { ok: false, status: 415, message: formBodyErrors.wrongContentType };
  try {
    return { ok: true, formData: await request.formData() };
  } catch {
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }
}

/** The body, parsed by Conform with `options`; Conform throws on a malformed intent field, which is bad input too. */
export async function readFormSubmission<Schema extends z.ZodType>(
  request: Request,
  options: { schema: Schema; disableAutoCoercion?: boolean },
): Promise<
  { ok: true; formData: FormData; submission: Submission<z.input<Schema>, string[], z.output<Schema>> } | UnreadableForm
> {
  const body = await readFormBody(request);
  if (!body.ok) return body;
  try {
    return { ok: true, formData: body.formData, submission: parseWithZod(body.formData, options) };
  } catch {
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }
}

/** The refusal as Conform's form-level error, so the page shows it above its form. */
export function formRefusal(message: string): SubmissionResult<string[]> {
  return { status: "error", error: { "": [message] } };
}
