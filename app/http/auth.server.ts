/**
 * Who may do what, in one place: every loader and action asks here for its user. The guards
 * throw the HTTP answer a refused request gets (a redirect to the login page, 403, or the API's
 * 401/403 JSON); the models they call only answer questions (whose session is this, may this
 * user see the materials) and never speak HTTP.
 */
import { createCookie, redirect, type Cookie, type CookieOptions } from "@remix-run/node";
import { apiMessages } from "~/content/api-messages";
import { materialsRefusal } from "~/content/portal";
import { RECOVERY_CODES_PATH } from "~/content/recovery-codes";
import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from "~/lib/refresh-cookie";
import { authenticateAccessToken, revokeApiTokens, type IssuedTokens } from "~/models/account/api-token.server";
import { clientOf } from "~/models/account/client-device.server";
import {
  consumeLoginChallenge,
  createLoginChallenge,
  findLoginChallenge,
  LOGIN_CHALLENGE_MS,
} from "~/models/account/login-challenge.server";
import { looksLikeSecretToken } from "~/models/account/secret-token.server";
import {
  createSession,
  deleteSession,
  findSession,
  openedWithSecondFactor,
  SESSION_ABSOLUTE_MS,
  type LiveSession,
} from "~/models/account/session.server";
import { recordPasswordVerified, recordSignIn } from "~/models/account/sign-in.server";
import { getUserById, type PublicUser } from "~/models/account/user.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { canSeeMaterials } from "~/models/library/access.server";
import { needsRecoveryCodes } from "~/models/second-factor/second-factor.server";
import type { AuthMethod, Role } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { sharedWhileUnderWay } from "~/server/request-context.server";
import { apiError } from "./api.server";
import { redirectWithToast, type ToastOption } from "./toast.server";

export const SESSION_COOKIE_NAME = "__session";
export const LOGIN_STEP_COOKIE_NAME = "__login_step";
export const LOGIN_PATH = "/financing/login";
export const HOME_PATH = "/financing";
export const CODE_STEP_PATH = "/financing/login/code";
/** Where an administrator without a second factor is sent, and the only page (with logout) they may open. */
export const ENROL_PATH = "/financing/security/authenticator";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" };

const cookies = new Map<string, Cookie>();

/** A signed, HttpOnly cookie of this site, made once from the settings (secrets, Secure). */
function signedCookie(name: string, options: Pick<CookieOptions, "sameSite" | "path" | "maxAge">): Cookie {
  let made = cookies.get(name);
  if (!made) {
    const env = getEnv();
    made = createCookie(name, { httpOnly: true, secure: env.secureCookies, secrets: env.sessionSecrets, ...options });
    cookies.set(name, made);
  }
  return made;
}

/** The web session's cookie: HttpOnly, SameSite=Lax, signed, holding only the session's random id. */
export function sessionCookie(): Cookie {
  return signedCookie(SESSION_COOKIE_NAME, { sameSite: "lax", path: "/", maxAge: SESSION_ABSOLUTE_MS / 1000 });
}

/** The API's refresh token cookie: HttpOnly, SameSite=Strict, signed, sent only to /api/auth. */
export function refreshCookie(): Cookie {
  return signedCookie(REFRESH_COOKIE_NAME, { sameSite: "strict", path: REFRESH_COOKIE_PATH });
}

/**
 * Between a login's right password and its code: HttpOnly, SameSite=Lax, signed, holding only the
 * pending step's random id, sent only to the login pages, and gone when the step expires.
 */
function loginStepCookie(): Cookie {
  return signedCookie(LOGIN_STEP_COOKIE_NAME, { sameSite: "lax", path: LOGIN_PATH, maxAge: LOGIN_CHALLENGE_MS / 1000 });
}

/** Tests switch APP_URL (http/https) between cases; this forgets the cookies built from it. */
export function resetSessionCookieForTests() {
  cookies.clear();
}

/** The Set-Cookie value that hands the browser its pending login step. */
export function loginStepCookieFor(stepId: string): Promise<string> {
  return loginStepCookie().serialize(stepId);
}

/** The pending login step's id the request carries, or null. */
export async function loginStepOf(request: Request): Promise<string | null> {
  const value: unknown = await loginStepCookie().parse(request.headers.get("Cookie"));
  return looksLikeSecretToken(value) ? value : null;
}

/** The Set-Cookie value that clears the pending login step. */
export function clearedLoginStepCookie(): Promise<string> {
  return loginStepCookie().serialize("", { maxAge: 0, expires: new Date(0) });
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

type NewSession = {
  user: Pick<PublicUser, "id" | "email">;
  authMethod: AuthMethod;
  request: Request;
  /** The client's address, for the sign-in's audit row. */
  ip: string;
  /** An administrator's session before the second factor's set-up: it can do nothing else, and soon ends. */
  enrolmentOnly?: boolean;
};

/**
 * Logs the user in: any session the request carried is deleted and a new id
 * is issued (no fixation), then redirects with the cookie (and the notice, if given).
 * The session records how it was opened; a pending login step is cleared; the sign-in is recorded.
 */
export async function createUserSession({
  redirectTo,
  toast,
  ...session
}: NewSession & { redirectTo: string; toast?: ToastOption }): Promise<Response> {
  const headers = await sessionHeadersFor(session);
  return toast ? redirectWithToast(redirectTo, toast, { headers }) : redirect(redirectTo, { headers });
}

/** The Set-Cookie headers of a new session, for an answer that is not a redirect (a passkey's JSON answer). */
export async function sessionHeadersFor({
  user,
  authMethod,
  request,
  ip,
  enrolmentOnly,
}: NewSession): Promise<Headers> {
  const previous = await readSessionId(request);
  if (previous) await deleteSession(previous);
  const client = clientOf(request, ip);
  const headers = new Headers({
    "Set-Cookie": await sessionCookie().serialize(await createSession(user.id, authMethod, { enrolmentOnly, client })),
  });
  if (request.headers.get("Cookie")?.includes(`${LOGIN_STEP_COOKIE_NAME}=`)) {
    headers.append("Set-Cookie", await clearedLoginStepCookie());
  }
  await recordSignIn({ user, method: authMethod, via: "web", ip });
  return headers;
}

/**
 * Where a sign-in lands: the portal, or first the page that makes the recovery codes of an account
 * that has a second factor and never had any (a passkey added before codes came with every factor).
 */
export async function homeAfterSignIn(userId: string): Promise<string> {
  return (await needsRecoveryCodes(userId)) ? RECOVERY_CODES_PATH : HOME_PATH;
}

/** Ends the request's session; returns the headers that clear its cookie. */
export async function logOut(request: Request): Promise<Headers> {
  const id = await readSessionId(request);
  if (id) await deleteSession(id);
  return new Headers({ "Set-Cookie": await clearedCookie() });
}

/** After the right password of an account with a second factor: the code step, with its cookie. */
export async function redirectToCodeStep(user: Pick<PublicUser, "id" | "email">, ip: string): Promise<Response> {
  await recordPasswordVerified({ user, via: "web", ip });
  const stepId = await createLoginChallenge({ kind: "second_step", userId: user.id });
  return redirect(CODE_STEP_PATH, { headers: { "Set-Cookie": await loginStepCookieFor(stepId) } });
}

/** The account whose password was right and whose code is awaited, or null when no step is pending. */
export async function pendingCodeStepUser(request: Request): Promise<PublicUser | null> {
  const stepId = await loginStepOf(request);
  const step = stepId ? await findLoginChallenge(stepId, "second_step") : null;
  return step?.userId ? getUserById(step.userId) : null;
}

/** Closes the pending code step once its code was right; false if another request closed it first. */
export async function completeCodeStep(request: Request): Promise<boolean> {
  const stepId = await loginStepOf(request);
  return !!stepId && !!(await consumeLoginChallenge(stepId, "second_step"));
}

/** The logged-in user, or null: for pages that only change what they show. */
export async function getSessionUser(request: Request): Promise<PublicUser | null> {
  return (await getLiveSession(request))?.user ?? null;
}

async function getLiveSession(request: Request): Promise<LiveSession | null> {
  const id = await readSessionId(request);
  return id ? sharedWhileUnderWay(`session:${id}`, () => findSession(id)) : null;
}

/**
 * For every protected loader and action: the user, or a redirect to the login page. An
 * administrator whose session was opened without a second factor is sent to set one up, and only
 * the set-up itself (`enrolling`) lets them through.
 */
export async function requireUser(request: Request, { enrolling = false } = {}): Promise<PublicUser> {
  return (await requireUserSession(request, { enrolling })).user;
}

/** As requireUser, with the session itself: for the pages that change how the account signs in. */
export async function requireUserSession(request: Request, { enrolling = false } = {}): Promise<LiveSession> {
  const session = await getLiveSession(request);
  if (session) {
    if (session.user.role.name === "administrator" && !openedWithSecondFactor(session.authMethod) && !enrolling) {
      throw redirect(ENROL_PATH);
    }
    return session;
  }
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

/** As requireAdmin, with the session itself: for the actions that need "sudo mode" (app/http/sudo.server.ts). */
export async function requireAdminSession(request: Request): Promise<LiveSession> {
  const session = await requireUserSession(request);
  if (session.user.role.name !== "administrator")
    throw new Response("Forbidden", { status: 403, headers: TEXT_HEADERS });
  return session;
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
