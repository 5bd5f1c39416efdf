/**
 * The administrators' choice of alert e-mails, at the edge: their own page (/financing/alerts, signed in) and
 * the signed link every alert e-mail carries (/alerts/<token>, no sign-in), which also takes RFC 8058's
 * one-click POST (`List-Unsubscribe=One-Click`) from a mail client, turning alerts off.
 */
import { json } from "@remix-run/node";
import { alertMessages } from "~/content/alerts";
import { getUserById, type PublicUser } from "~/models/account/user.server";
import {
  alertPreferenceOf,
  alertPreferenceSchema,
  setAlertPreference,
  userIdOfAlertToken,
} from "~/models/alerts/alert-preferences.server";
import { readFormBody } from "./form-body.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** The administrator a signed link names; a refusal (400 altered, 404 no longer an administrator) otherwise. */
export async function administratorOfAlertLink(token: string): Promise<PublicUser> {
  const userId = userIdOfAlertToken(token);
  if (userId === null) throw json({ message: alertMessages.badLink }, { status: 400, headers: NO_STORE });
  const user = await getUserById(userId);
  if (user?.role.name !== "administrator")
    throw json({ message: alertMessages.notAdministrator }, { status: 404, headers: NO_STORE });
  return user;
}

export async function alertPreferencePage(user: PublicUser) {
  return json({ email: user.email, preference: await alertPreferenceOf(user.id) }, { headers: NO_STORE });
}

export type AlertPreferenceReply = { ok: true; unsubscribed: boolean } | { ok: false; message: string };

/** Stores the choice a form (or a one-click POST) sent; a 4xx with the reason, and nothing stored, for anything else. */
export async function changeAlertPreference(
  request: Request,
  user: PublicUser,
  { ip, signedLink }: { ip: string | null; signedLink: boolean },
): Promise<{ reply: AlertPreferenceReply; status: number }> {
  const body = await readFormBody(request);
  if (!body.ok) return { reply: { ok: false, message: body.message }, status: body.status };
  if (signedLink && body.formData.get("List-Unsubscribe") === "One-Click") {
    const { digestHour } = await alertPreferenceOf(user.id);
    await setAlertPreference(user, { mode: "off", digestHour }, { ip, via: "one-click" });
    return { reply: { ok: true, unsubscribed: true }, status: 200 };
  }
  const parsed = alertPreferenceSchema.safeParse(Object.fromEntries(body.formData));
  if (!parsed.success) return { reply: { ok: false, message: parsed.error.issues[0].message }, status: 400 };
  await setAlertPreference(user, parsed.data, { ip, via: signedLink ? "signed-link" : "page" });
  return { reply: { ok: true, unsubscribed: false }, status: 200 };
}
