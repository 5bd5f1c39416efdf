/**
 * What the administrator's actions on an investor answer (the NDA flags, deleting an investor): the
 * change made, or a refusal with its status; and who is acting.
 */
import { adminContent } from "~/content/admin";
import type { PublicUser } from "~/models/account/user.server";

export type AdminFailure = { ok: false; status: 403 | 404 | 409; message: string };
export type AdminResult<T = object> = ({ ok: true } & T) | AdminFailure;

export type Actor = Pick<PublicUser, "id" | "email">;

export const notFound: AdminFailure = { ok: false, status: 404, message: adminContent.errors.notFound };
