import { afterEach, describe, expect, it } from "vitest";
import { testClock } from "~/server/clock.server";
import { cachedPage, clearPageCache, isAnonymousPageRequest, storePage } from "~/server/page-cache.server";

const anonymous = (url: string) => ({ method: "GET", url, cookie: undefined });
const html = (nonce: string) => `<script nonce="${nonce}">1</script><p>FAQ</p><script nonce="${nonce}">2</script>`;

afterEach(() => {
  clearPageCache();
  testClock.reset();
});

describe("the page cache", () => {
  it("answers only anonymous GET and HEAD requests for a path without a query", () => {
    expect(isAnonymousPageRequest(anonymous("/faq"))).toBe(true);
    expect(isAnonymousPageRequest({ method: "HEAD", url: "/faq", cookie: "" })).toBe(true);
    expect(isAnonymousPageRequest({ method: "POST", url: "/faq", cookie: undefined })).toBe(false);
    expect(isAnonymousPageRequest({ method: "GET", url: "/faq", cookie: "__session=abc" })).toBe(false);
    expect(isAnonymousPageRequest(anonymous("/faq?q=hours"))).toBe(false);
    expect(isAnonymousPageRequest(anonymous("/faq?"))).toBe(false);
  });

  it("gives back the stored page with the new nonce in every place the old one was", () => {
    storePage("/faq", html("old-nonce"), "old-nonce", new Headers({ "Content-Type": "text/html; charset=utf-8" }));
    const page = cachedPage(anonymous("/faq"), "new-nonce");
    expect(page?.html).toBe(html("new-nonce"));
    expect(page?.headers).toEqual([["content-type", "text/html; charset=utf-8"]]);
  });

  it("never keeps a cookie, a length or an encoding, and never answers a visitor with a cookie", () => {
    storePage(
      "/faq",
      html("n"),
      "n",
      new Headers({ "Set-Cookie": "a=b", "Content-Length": "9", "Content-Encoding": "gzip", "X-Kept": "yes" }),
    );
    expect(cachedPage(anonymous("/faq"), "m")?.headers).toEqual([["x-kept", "yes"]]);
    expect(cachedPage({ method: "GET", url: "/faq", cookie: "__toast=x" }, "m")).toBeUndefined();
  });

  it("has nothing for a path it has not stored", () => {
    expect(cachedPage(anonymous("/pricing"), "n")).toBeUndefined();
  });

  it("forgets the pages of a year that has ended: they show its year in the copyright line", () => {
    testClock.freeze(Date.UTC(2026, 11, 31, 23, 59, 59));
    storePage("/faq", html("n"), "n", new Headers());
    expect(cachedPage(anonymous("/faq"), "m")).toBeDefined();
    testClock.advance(1_000);
    expect(cachedPage(anonymous("/faq"), "m")).toBeUndefined();
    storePage("/faq", html("n"), "n", new Headers());
    expect(cachedPage(anonymous("/faq"), "m")).toBeDefined();
  });

  it("stays bounded however many spellings of a path are asked for", () => {
    for (let i = 0; i < 200; i += 1) storePage(`/faq-${i}`, html("n"), "n", new Headers());
    expect(cachedPage(anonymous("/faq-63"), "n")).toBeDefined();
    expect(cachedPage(anonymous("/faq-64"), "n")).toBeUndefined();
  });
});
