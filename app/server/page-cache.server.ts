/**
 * The rendered HTML of the public pages, kept per path and served again to
 * anonymous visitors without running Remix (docs/performance.md, "The fast path").
 *
 * Safe because a page is only stored from, and only served to, a request that
 * carries no cookie (so no session, no toast) for a URL without a query, and only
 * when the answer was a 200 that set no cookie. The CSP nonce is the one part
 * that differs per response: the page is kept split around the nonce it was
 * rendered with, and every response joins it with its own fresh nonce. A page
 * also shows the year it was rendered in (the copyright line), so the pages of
 * a year that has ended are forgotten.
 */
import { currentYear } from "./clock.server";

type CachedPage = { parts: string[]; headers: [string, string][] };

type PageRequest = { method: string; url: string; cookie: string | null | undefined };

/** Remix matches paths case-insensitively, so /FAQ, /Faq… are pages too: keep the map bounded. */
const MAX_PAGES = 64;

const pages = new Map<string, CachedPage>();
let pagesYear = currentYear();

function forgetPagesOfAnEndedYear() {
  const year = currentYear();
  if (year === pagesYear) return;
  pages.clear();
  pagesYear = year;
}

/** An anonymous GET (or HEAD) of a path without a query: the only kind of request the cache answers or learns from. */
export function isAnonymousPageRequest({ method, url, cookie }: PageRequest) {
  return (method === "GET" || method === "HEAD") && !cookie && !url.includes("?");
}

/** The stored page for this request, with `nonce` in place of the one it was rendered with. */
export function cachedPage(request: PageRequest, nonce: string) {
  if (!isAnonymousPageRequest(request)) return undefined;
  forgetPagesOfAnEndedYear();
  const page = pages.get(request.url);
  if (!page) return undefined;
  return { html: page.parts.join(nonce), headers: page.headers };
}

/** Keeps a page rendered for an anonymous request; `nonce` is the one it was rendered with. */
export function storePage(url: string, html: string, nonce: string, headers: Headers) {
  forgetPagesOfAnEndedYear();
  if (pages.size >= MAX_PAGES && !pages.has(url)) return;
  // Each answer has its own length, and its own encoding (page-encoding.server.ts).
  const kept = [...headers].filter(
    ([name]) => !["set-cookie", "content-length", "content-encoding"].includes(name.toLowerCase()),
  );
  pages.set(url, { parts: html.split(nonce), headers: kept });
}

/** For tests: forget every stored page. */
export function clearPageCache() {
  pages.clear();
}
