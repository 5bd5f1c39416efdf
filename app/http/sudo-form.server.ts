/**
 * The start of an administrator's page action that runs only in "sudo mode" (app/http/sudo.server.ts):
 * the session and the form; or what to refuse with, before anything changes: the body refused, or 403
 * "Confirm it's you first" with the way to confirm and come back to `returnTo`.
 */
import type { LiveSession } from "~/models/account/session.server";
import { requireAdminSession } from "./auth.server";
import { readFormBody } from "./form-body.server";
import { confirmHref, sudoRefusal } from "./sudo.server";

/** What the page says above its forms when the action is refused. */
export type SudoFormRefusal = { message: string; confirmHref?: string };

type SudoForm =
  { ok: true; session: LiveSession; formData: FormData } | { ok: false; status: number; refusal: SudoFormRefusal };

export async function readSudoForm(request: Request, returnTo: string): Promise<SudoForm> {
  const session = await requireAdminSession(request);
  const body = await readFormBody(request);
  if (!body.ok) return { ok: false, status: body.status, refusal: { message: body.message } };
  const notConfirmed = sudoRefusal(session);
  if (notConfirmed) {
    return { ok: false, status: 403, refusal: { message: notConfirmed.message, confirmHref: confirmHref(returnTo) } };
  }
  return { ok: true, session, formData: body.formData };
}
