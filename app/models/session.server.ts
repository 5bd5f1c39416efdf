/**
 * Web sessions (docs/decisions/0003-sessions-in-the-database.md): the cookie
 * holds only a random id; the database holds its SHA-256, the user, and the
 * idle and absolute deadlines, so a session can be revoked from the server.
 */
import { createCookie, redirect, type Cookie } from "@remix-run/node";
import { now } from "~/utils/clock.server";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/utils/toast.server";
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from "./secret-token.server";
import { HOUR_MS, MINUTE_MS } from "./throttle.server";
import { getUserById, type PublicUser } from "./user.server";

export const SESSION_IDLE_MS = 30 * MINUTE_MS;
export const SESSION_ABSOLUTE_MS = 12 * HOUR_MS;
/**
 * The idle window moves at most once a minute: every page runs two loaders that read the
 * session, and writing its row twice a page view bought nothing. A session therefore ends 29 to
 * 30 idle minutes after the last visit, never later.
 */
export const SESSION_TOUCH_INTERVAL_MS = MINUTE_MS;
export const SESSION_COOKIE_NAME = "__session";
export const LOGIN_PATH = "/financing/login";
export const HOME_PATH = "/financing";

let cookie: Cookie | undefined;

export function sessionCookie(): Cookie {
  if (!cookie) {
    const env = getEnv();
    cookie = createCookie(SESSION_COOKIE_NAME, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.secureCookies,
      secrets: env.sessionSecrets,
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    });
  }
  return cookie;
}

/** Tests switch APP_URL (http/https) between cases; this forgets the cookie built from it. */
export function resetSessionCookieForTests() {
  cookie = undefined;
}

type ToastOption = string | { message: string; description?: string; type?: "success" | "error" | "info" | "warning" };

/**
 * Logs the user in: any session the request carried is deleted and a new id
 * is issued (no fixation), then redirects with the cookie (and the notice, if given).
 */
export async function createUserSession({
  userId,
  request,
  redirectTo,
  toast,
  headers: extraHeaders,
}: {
  userId: string;
  request: Request;
  redirectTo: string;
  toast?: ToastOption;
  headers?: HeadersInit;
}): Promise<Response> {
  const previous = await readSessionId(request);
  if (previous) await deleteSessionById(previous);

  const id = newSecretToken();
  const at = now();
  await getDb()
    .insertInto("sessions")
    .values({
      id_hash: hashSecretToken(id),
      user_id: userId,
      created_at: at,
      last_seen_at: at,
      expires_at: at + SESSION_ABSOLUTE_MS,
    })
    .execute();

  const headers = new Headers(extraHeaders);
  headers.append("Set-Cookie", await sessionCookie().serialize(id));
  if (!toast) return redirect(redirectTo, { headers });
  const notice = typeof toast === "string" ? { message: toast } : toast;
  const { type = "success", ...message } = notice;
  const send = type === "success" ? redirectWithSuccess : type === "error" ? redirectWithError : redirectWithInfo;
  return send(redirectTo, message, { headers });
}

/**
 * The logged-in user, or null. Each call slides the 30-minute idle window;
 * nothing extends the 12-hour absolute limit. An expired session is deleted.
 */
export async function getSessionUser(request: Request): Promise<PublicUser | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const idHash = hashSecretToken(id);
  const row = await getDb().selectFrom("sessions").selectAll().where("id_hash", "=", idHash).executeTakeFirst();
  if (!row) return null;
  const at = now();
  if (at > row.last_seen_at + SESSION_IDLE_MS || at > row.expires_at) {
    await deleteSessionById(id);
    return null;
  }
  const user = await getUserById(row.user_id);
  if (!user) return null;
  if (at - row.last_seen_at >= SESSION_TOUCH_INTERVAL_MS) {
    await getDb().updateTable("sessions").set({ last_seen_at: at }).where("id_hash", "=", idHash).execute();
  }
  return user;
}

/** For every protected loader and action: the user, or a redirect to the login page. */
export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  // A stale cookie is cleared on the way, so the login page starts clean.
  const headers = new Headers();
  if (request.headers.get("Cookie")?.includes(`${SESSION_COOKIE_NAME}=`)) {
    headers.append("Set-Cookie", await clearedCookie());
  }
  throw redirect(LOGIN_PATH, { headers });
}

/** For the login, sign-up and password pages: a logged-in user goes to the portal instead. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getSessionUser(request)) throw redirect(HOME_PATH);
}

/** Deletes the request's session; returns the headers that clear its cookie. */
export async function logOut(request: Request): Promise<Headers> {
  const id = await readSessionId(request);
  if (id) await deleteSessionById(id);
  return new Headers({ "Set-Cookie": await clearedCookie() });
}

/** Ends every session of the user (password reset, account deletion). */
export async function deleteUserSessions(userId: string) {
  await getDb().deleteFrom("sessions").where("user_id", "=", userId).execute();
}

async function readSessionId(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return looksLikeSecretToken(value) ? value : null;
}

async function deleteSessionById(id: string) {
  await getDb().deleteFrom("sessions").where("id_hash", "=", hashSecretToken(id)).execute();
}

function clearedCookie() {
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
