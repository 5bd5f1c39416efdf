import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** HTTP-level guarantees of server.js (docs/requirements.md, "Security and reliability"), checked against the built server. */
test.describe("security headers", () => {
  test("are on pages, static files, a 404 and a POST's answer", async ({ request }) => {
    const answers = [
      { url: "/", status: 200, response: request.get("/") },
      { url: "/images/logo.svg", status: 200, response: request.get("/images/logo.svg") },
      { url: "/robots.txt", status: 200, response: request.get("/robots.txt") },
      { url: "/no-such-page", status: 404, response: request.get("/no-such-page") },
      { url: "POST /contact", status: 400, response: request.post("/contact", { form: { firstName: "" } }) },
    ];
    for (const { url, status, response: answer } of answers) {
      const response = await answer;
      expect(response.status(), url).toBe(status);
      const headers = response.headers();
      expect(headers["content-security-policy"], url).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(headers["content-security-policy"], url).toContain("object-src 'none'");
      expect(headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"], url).toBe("DENY");
      expect(headers["x-content-type-options"], url).toBe("nosniff");
      expect(headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      expect(headers["cross-origin-opener-policy"], url).toBe("same-origin");
      expect(headers["x-powered-by"], url).toBeUndefined();
    }
  });

  test("use a fresh nonce on every page", async ({ request }) => {
    const nonce = async () =>
      (await request.get("/pricing")).headers()["content-security-policy"].match(/nonce-([^']+)/)![1];
    expect(await nonce()).not.toBe(await nonce());
  });

  test("keep the portal out of caches and search engines, but for its doors", async ({ request }) => {
    const portal = await request.get("/financing/forgotpassword");
    expect(portal.headers()["cache-control"]).toBe("no-store");
    expect(portal.headers()["x-robots-tag"]).toBe("noindex");
    const login = await request.get("/financing/login");
    expect(login.headers()["cache-control"]).toBe("no-store");
    expect(login.headers()["x-robots-tag"]).toBeUndefined();
  });

  test("hold for the portal and the API however their paths are spelled", async ({ request }) => {
    for (const path of [
      "/FINANCING",
      "/Financing/Login",
      "/financing/LOGIN",
      "/FINANCING/FORGOTPASSWORD",
      "/Auth/Verify/abc",
    ]) {
      const page = await request.get(path, { maxRedirects: 0 });
      expect(page.status(), path).toBeLessThan(500);
      expect(page.headers()["cache-control"], path).toBe("no-store");
      expect(page.headers()["x-robots-tag"], path).toBe("noindex");
    }
    // A page whose URL holds a token keeps its Referer on the site, in any spelling.
    const verify = await request.get("/AUTH/verify/abc");
    expect(verify.headers()["referrer-policy"]).toBe("same-origin");

    // The portal's body limit and the API's JSON answers too.
    const oversized = await request.post("/API/Auth/Login", {
      headers: { "Content-Type": "application/json" },
      data: JSON.stringify({ email: "a@example.com", password: "x".repeat(20_000) }),
    });
    expect(oversized.status()).toBe(413);
    expect((await oversized.json()).message).toMatch(/larger than 16384 bytes/);
    const foreign = await request.post("/Api/auth/login", {
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      data: { email: "a@example.com", password: "x" },
    });
    expect(foreign.status()).toBe(403);
    expect(await foreign.json()).toEqual({ message: "Cross-origin request refused." });
    const api = await request.get("/API/USER/GET_INVESTORS");
    expect(api.status()).toBe(401);
    expect(api.headers()["cache-control"]).toBe("no-store");
    expect(api.headers()["x-robots-tag"]).toBe("noindex");
  });
});

test.describe("the Origin check", () => {
  test("refuses a cross-origin form POST with 403 and a clear message", async ({ request }) => {
    const response = await request.post("/contact", {
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      data: "firstName=a",
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain("Cross-origin request refused");
  });

  test("refuses a cross-site fetch to the API with a JSON 403", async ({ request }) => {
    const response = await request.post("/api/auth/login", {
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      data: { email: "a@example.com", password: "x" },
    });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ message: "Cross-origin request refused." });
  });
});

test("an oversized body on an auth route gets 413 before anything reads it", async ({ request }) => {
  const response = await request.post("/api/auth/login", {
    headers: { "Content-Type": "application/json" },
    data: JSON.stringify({ email: "a@example.com", password: "x".repeat(20_000) }),
  });
  expect(response.status()).toBe(413);
  expect((await response.json()).message).toMatch(/larger than 16384 bytes/);
});

test("robots.txt and sitemap.xml list the public pages only", async ({ request, baseURL }) => {
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /financing");
  expect(robots).toContain("Allow: /financing/login$");
  expect(robots).toContain("Allow: /financing/signup$");
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const page of [
    "/aboutus",
    "/faq",
    "/pricing",
    "/contact",
    "/disclaimer",
    "/financing/login",
    "/financing/signup",
  ]) {
    expect(sitemap).toContain(`<loc>${baseURL}${page}</loc>`);
  }
  expect(sitemap).not.toMatch(/\/financing(<|\/(?!login<|signup<))/);
  expect(sitemap).not.toContain("/api");
});

test("the build's scripts go out precompressed (brotli or gzip), cached for a year, and the same bytes as the file", async ({
  request,
}) => {
  const html = await (await request.get("/faq")).text();
  const script = html.match(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/)![1];
  const file = fs.readFileSync(path.join(process.env.BUILD_DIR || "build", "client", script.replace("/build/", "")));

  const gzipped = await request.fetch(script, { headers: { "Accept-Encoding": "gzip" } });
  expect(gzipped.status()).toBe(200);
  expect(gzipped.headers()["content-encoding"]).toBe("gzip");
  expect(gzipped.headers()["vary"]).toMatch(/Accept-Encoding/i);
  expect(gzipped.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(gzipped.headers()["content-security-policy"]).toBeDefined();
  // Playwright hands over the decoded body: it must be the very file.
  expect(Buffer.compare(await gzipped.body(), file)).toBe(0);

  // A browser that takes brotli (every current one) gets brotli first.
  const brotli = await request.fetch(script, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(brotli.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.compare(await brotli.body(), file)).toBe(0);

  const plain = await request.fetch(script, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  expect(Buffer.compare(await plain.body(), file)).toBe(0);
});
