import { formBodyErrors } from "~/content/forms";
import type { FormReply } from "~/lib/form-reply";

/**
 * Reading a page action's body. A browser always sends its forms as
 * urlencoded or multipart; anything else (JSON, no body, a broken multipart
 * body, a bodiless PUT) is a script's request, refused with 415 or 400 and a
 * message, never the 500 that `request.formData()` would throw (docs/requirements.md, "Security and reliability").
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

/** The refusal as a form-level error, so the page shows it above its form. */
export function formRefusal(message: string): FormReply {
  return { error: { "": [message] }, initialValue: {} };
}
