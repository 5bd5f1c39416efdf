/**
 * Who may do what, in one place: every loader and action asks here for its user. The guards
 * throw the HTTP answer a refused request gets (a redirect to the login page, 403, or the API's
 * 401/403 JSON); the models they call only answer questions (whose session is this, may this
 * user see the materials) and never speak HTTP.
 */
import { createCookie, redirect, type Cookie } from "@remix-run/node";
import { apiMessages } from "~/content/api-messages";
import { materialsRefusal } from "~/content/portal";
import { canSeeMaterials } from "~/models/access.server";
import { authenticateAccessToken, revokeApiTokens, type IssuedTokens } from "~/models/api-token.server";
import { recordAuditEvent } from "~/models/audit.server";
import { looksLikeSecretToken } from "~/models/secret-token.server";
import { createSession, deleteSession, findSessionUser, SESSION_ABSOLUTE_MS } from "~/models/session.server";
import type { PublicUser } from "~/models/user.server";
import type { Role } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { apiError } from "./api.server";
import { redirectWithToast, type ToastOption } from "./toast.server";

export const SESSION_COOKIE_NAME = "__session";
export const REFRESH_COOKIE_NAME = "__refresh";
export const REFRESH_COOKIE_PATH = "/api/auth";
export const LOGIN_PATH = "/financing/login";
export const HOME_PATH = "/financing";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" };

let cookie: Cookie | undefined;
let apiRefreshCookie: Cookie | undefined;

/** The web session's cookie: HttpOnly, SameSite=Lax, signed, holding only the session's random id. */
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

/** The API's refresh token cookie: HttpOnly, SameSite=Strict, signed, sent only to /api/auth. */
export function refreshCookie(): Cookie {
  if (!apiRefreshCookie) {
    const env = getEnv();
    apiRefreshCookie = createCookie(REFRESH_COOKIE_NAME, {
      httpOnly: true,
      sameSite: "strict",
      path: REFRESH_COOKIE_PATH,
      secure: env.secureCookies,
      secrets: env.sessionSecrets,
    });
  }
  return apiRefreshCookie;
}

/** Tests switch APP_URL (http/https) between cases; this forgets the cookies built from it. */
export function resetSessionCookieForTests() {
  cookie = undefined;
  apiRefreshCookie = undefined;
}

/** The Set-Cookie value that hands an API client its new refresh token. */
export function refreshCookieFor(tokens: IssuedTokens): Promise<string> {
  return refreshCookie().serialize(tokens.refreshToken, { maxAge: tokens.refreshMaxAge });
}

/** The refresh token the request's cookie carries, or null. */
export async function refreshTokenOf(request: Request): Promise<string | null> {
  const value: unknown = await refreshCookie().parse(request.headers.get("Cookie"));
  return looksLikeSecretToken(value) ? value : null;
}

/** The Set-Cookie value that clears the refresh cookie. */
export function clearedRefreshCookie(): Promise<string> {
  return refreshCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** API logout: revokes the token families of the bearer token and the refresh cookie; returns the clearing cookie. */
export async function logOutApiClient(request: Request): Promise<string> {
  await revokeApiTokens({ tokens: [bearerToken(request), await refreshTokenOf(request)] });
  return clearedRefreshCookie();
}

/**
 * Logs the user in: any session the request carried is deleted and a new id
 * is issued (no fixation), then redirects with the cookie (and the notice, if given).
 */
export async function createUserSession({
  userId,
  request,
  redirectTo,
  toast,
}: {
  userId: string;
  request: Request;
  redirectTo: string;
  toast?: ToastOption;
}): Promise<Response> {
  const previous = await readSessionId(request);
  if (previous) await deleteSession(previous);
  const headers = new Headers({ "Set-Cookie": await sessionCookie().serialize(await createSession(userId)) });
  return toast ? redirectWithToast(redirectTo, toast, { headers }) : redirect(redirectTo, { headers });
}

/** Ends the request's session; returns the headers that clear its cookie. */
export async function logOut(request: Request): Promise<Headers> {
  const id = await readSessionId(request);
  if (id) await deleteSession(id);
  return new Headers({ "Set-Cookie": await clearedCookie() });
}

/** The logged-in user, or null: for pages that only change what they show. */
export async function getSessionUser(request: Request): Promise<PublicUser | null> {
  const id = await readSessionId(request);
  return id ? findSessionUser(id) : null;
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

/** For every administrator loader and action: the logged-in administrator; an investor gets 403. */
export async function requireAdmin(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (user.role.name !== "administrator") throw new Response("Forbidden", { status: 403, headers: TEXT_HEADERS });
  return user;
}

/**
 * For every materials page and file: the user, a redirect to the login page
 * for a visitor, or 403 for a logged-in investor whose NDA is not signed.
 */
export async function requireNdaSigned(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!canSeeMaterials(user)) throw new Response(materialsRefusal.plain, { status: 403, headers: TEXT_HEADERS });
  return user;
}

/** The guard of every materials page: only allowed users pass, and each view is recorded. */
export async function requireMaterialsView(request: Request, clientIp: string): Promise<PublicUser> {
  const user = await requireNdaSigned(request);
  await recordAuditEvent({
    actorId: user.id,
    actorEmail: user.email,
    action: "materials.view",
    details: { page: new URL(request.url).pathname },
    ip: clientIp,
  });
  return user;
}

/**
 * The caller of an API route, from its bearer access token; throws 401 (with
 * `WWW-Authenticate: Bearer`) without a valid one, 403 for a wrong role.
 */
export async function requireApiUser(request: Request, { role }: { role?: Role } = {}): Promise<PublicUser> {
  const token = bearerToken(request);
  const user = await authenticateAccessToken(token);
  if (!user) {
    const challenge = token ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
    throw apiError(401, apiMessages.unauthenticated, { headers: { "WWW-Authenticate": challenge } });
  }
  if (role && user.role.name !== role) throw apiError(403, apiMessages.forbidden);
  return user;
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  return match ? match[1] : null;
}

async function readSessionId(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return looksLikeSecretToken(value) ? value : null;
}

function clearedCookie() {
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
