import { AUTH_BODY_LIMIT_BYTES, PAGE_BODY_LIMIT_BYTES } from "~/content/constants";
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import type { Env } from "~/server/env.server";

/**
 * HTTP-level protections applied by server.js to every response, static files
 * included (docs/requirements.md, "Security and reliability"). Kept here, in the app, so they are typed,
 * unit-tested and bundled into the server build.
 */

const PORTAL_PREFIXES = ["/financing", "/auth/", "/api/", "/pdfs/download.pdf", "/video/investorvideo.mp4"];
/** The portal's doors: public, personal to no one, so search engines may list them (docs/decisions/0006). */
export const INDEXABLE_PORTAL_PAGES = ["/financing/login", "/financing/signup"];
/** Pages whose URL holds a secret token: the Referer must not carry it off-site. */
const TOKEN_IN_URL_PREFIXES = ["/auth/verify/", "/financing/resetpassword/", "/financing/invitation/"];

/*
 * Every rule below takes the path as Remix matches it (request-path.server.ts: decoded, dot segments
 * resolved), and Remix matches routes whatever the case of the path (/FINANCING serves /financing), so
 * each compares it lower-cased: a path's spelling must not take a portal page out of them.
 */

export function isPortalPath(pathname: string) {
  const path = pathname.toLowerCase();
  return PORTAL_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix));
}

export function isApiPath(pathname: string) {
  return pathname.toLowerCase().startsWith("/api/");
}

/**
 * The headers of every response. `path` is the path as Remix matches it; `spelledPath` the path as the
 * client wrote it (Express's), which only the doors' exemption from noindex reads.
 *
 * `Cache-Control: no-store` is the default of every answer, and server.js sets it only where whoever
 * answered set none: a page carries its own nonce and, for a visitor who is signed in, their own
 * name, so no cache may keep one. Static files, robots.txt and the sitemap set their own.
 */
export function securityHeaders(
  { path, spelledPath }: { path: string; spelledPath: string },
  nonce: string,
  env: Env,
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": TOKEN_IN_URL_PREFIXES.some((prefix) => path.toLowerCase().startsWith(prefix))
      ? "same-origin"
      : "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cache-Control": "no-store",
  };
  if (env.secureCookies) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  // Only the doors' own spelling is indexable: another spelling is a duplicate no engine should list.
  if (isPortalPath(path) && !INDEXABLE_PORTAL_PAGES.includes(spelledPath)) headers["X-Robots-Tag"] = "noindex";
  return headers;
}

function contentSecurityPolicy(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}

type WriteRequest = {
  method: string;
  pathname: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
};

/**
 * CSRF defence for every state-changing request: browsers send Origin (and
 * Sec-Fetch-Site) on POSTs, so a form or fetch from another site is refused
 * here, before Remix or any route runs. Requests without Origin come from
 * non-browser clients, which cannot ride a visitor's cookies.
 */
export function isCrossOriginWrite(request: WriteRequest, env: Env): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return false;
  if (isApiPath(request.pathname) && isAllowedApiOrigin(request.origin, env)) return false;
  if (request.secFetchSite === "cross-site") return true;
  if (request.origin === undefined) return false;
  return !env.siteOrigins.includes(request.origin);
}

/**
 * The Host a request is shown to Remix with: the site origin its form came from (Remix compares a
 * form's Origin with the Host and answers 500 when they differ), else APP_URL's. Never the client's
 * own Host or X-Forwarded-Host.
 */
export function siteHostFor(origin: string | undefined, env: Env): string {
  return origin && env.siteOrigins.includes(origin) ? new URL(origin).host : env.appUrl.host;
}

export function isAllowedApiOrigin(origin: string | undefined, env: Env) {
  return origin !== undefined && env.apiAllowedOrigins.includes(origin);
}

/** CORS for the JSON API, for the configured origins only, with credentials. */
export function corsHeaders(origin: string | undefined, env: Env): Record<string, string> {
  if (!isAllowedApiOrigin(origin, env)) return {};
  return {
    "Access-Control-Allow-Origin": origin!,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}

/**
 * The addresses that take a materials upload (a new document or a new version, from a page or the API):
 * the largest video with its captions, and the form around them. The action reads no byte of it before
 * it knows an administrator sent it (app/http/material-upload.server.ts).
 */
const UPLOAD_PATHS = [
  /^\/financing\/library\/new$/,
  /^\/financing\/library\/[^/]+\/versions$/,
  /^\/api\/materials(?:\/[^/]+\/versions)?$/,
];
export const UPLOAD_BODY_LIMIT_BYTES = MATERIAL_LIMITS.video + MATERIAL_LIMITS.captions + 1024 * 1024;

/**
 * The administrators' pages that take one PDF in a form (each checks the length again before it reads): the NDA page (a
 * template, a file to verify) and an investor's page (the copy of an NDA signed outside the portal).
 */
const PDF_FORM_PATHS = [/^\/financing\/nda$/, /^\/financing\/investors\/[^/]+$/];
export const PDF_FORM_BODY_LIMIT_BYTES = MATERIAL_LIMITS.pdf + 64 * 1024;

export function bodyLimitFor(pathname: string) {
  const path = pathname.toLowerCase();
  if (UPLOAD_PATHS.some((pattern) => pattern.test(path))) return UPLOAD_BODY_LIMIT_BYTES;
  if (PDF_FORM_PATHS.some((pattern) => pattern.test(path))) return PDF_FORM_BODY_LIMIT_BYTES;
  return isPortalPath(pathname) ? AUTH_BODY_LIMIT_BYTES : PAGE_BODY_LIMIT_BYTES;
}
