import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { httpErrors } from "~/content/http-errors";
import { unusedTotpCode } from "../support/totp";
import { createAdministrator, type TestAccount } from "./support/accounts";
import { E2E_BASE_URL, E2E_LOG_FILE } from "./support/server";

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
    expect(await foreign.json()).toEqual({ message: httpErrors.crossOrigin(E2E_BASE_URL) });
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
    expect(await response.json()).toEqual({ message: httpErrors.crossOrigin(E2E_BASE_URL) });
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

/** A GET with its path exactly as written: Playwright's and Node's URL parsing would resolve `..` and `\\`. */
function getAsWritten(rawPath: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(E2E_BASE_URL);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: hostname, port, path: rawPath, headers, agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

/** The server's log line for a request, found by its request id. */
async function logLineOf(requestId: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 50; tries += 1) {
    const line = fs
      .readFileSync(E2E_LOG_FILE, "utf8")
      .split("\n")
      .find((text) => text.includes(`"requestId":"${requestId}"`) && text.includes('"http.request"'));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No log line for request ${requestId}`);
}

/**
 * Remix decodes a path before it matches a route, so /%66inancing/audit is the audit page and
 * /x/../api/… an API call: server.js's rules (headers, body limits, the log's redaction) read the path
 * the same way, once (app/http/request-path.server.ts), and a control character in the path or query is
 * refused before any route reads it.
 */
test.describe("one path, one set of rules, however the path is spelled", () => {
  let administrator: TestAccount;
  /** The administrator's browser without JavaScript: the session cookie after the login and its code. */
  let admin: APIRequestContext;
  let adminBearer: string;

  test.beforeAll(async ({ playwright }) => {
    administrator = await createAdministrator();
    admin = await playwright.request.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { Origin: E2E_BASE_URL } });
    const login = await admin.post("/financing/login", {
      form: { email: administrator.email, password: administrator.password },
      maxRedirects: 0,
    });
    expect(login.headers()["location"]).toBe("/financing/login/code");
    const code = await admin.post("/financing/login/code", {
      form: { code: await unusedTotpCode(administrator.totpSecret!) },
      maxRedirects: 0,
    });
    expect(code.headers()["location"]).toBe("/financing");
    const token = await admin.post("/api/auth/login", {
      data: {
        email: administrator.email,
        password: administrator.password,
        code: await unusedTotpCode(administrator.totpSecret!),
      },
    });
    expect(token.status()).toBe(200);
    adminBearer = ((await token.json()) as { accessToken: string }).accessToken;
  });
  test.afterAll(() => admin?.dispose());

  const expectPrivate = (headers: http.IncomingHttpHeaders, label: string) => {
    expect(headers["cache-control"], label).toMatch(/\bno-store\b/);
    expect(headers["x-robots-tag"], label).toBe("noindex");
  };

  test("an administrator's pages and API answers spelled with escapes stay out of caches and search engines", async () => {
    for (const page of ["/%66inancing/audit", "/financing/%61udit", "/%66inancing", "/%66inancing/investors.csv"]) {
      const answer = await admin.get(page, { maxRedirects: 0 });
      expect(answer.status(), page).toBe(200);
      expectPrivate(answer.headers(), page);
    }
    const list = await admin.get("/%61pi/user/get_investors?limit=1", {
      headers: { Authorization: `Bearer ${adminBearer}` },
    });
    expect(list.status()).toBe(200);
    expectPrivate(list.headers(), "/%61pi/user/get_investors");
  });

  test("so do the answers to a visitor, in every spelling Remix reads as a portal path", async ({ request }) => {
    const audit = await request.get("/%66inancing/audit", { maxRedirects: 0 });
    expect(audit.headers()["location"]).toBe("/financing/login");
    expectPrivate(audit.headers(), "/%66inancing/audit");
    const api = await request.get("/%61pi/user/get_investors");
    expect(api.status()).toBe(401);
    expectPrivate(api.headers(), "/%61pi/user/get_investors");
    // A door spelled otherwise is a duplicate of it: noindex too.
    expectPrivate((await request.get("/%66inancing/login")).headers(), "/%66inancing/login");
    expect((await request.get("/financing/login")).headers()["x-robots-tag"]).toBeUndefined();
    for (const rawPath of ["/x/../financing/audit", "/x/%2e%2e/api/user/get_investors", "/api\\user\\get_investors"]) {
      const answer = await getAsWritten(rawPath);
      expect([302, 401], rawPath).toContain(answer.status);
      expectPrivate(answer.headers, rawPath);
    }
  });

  test("the portal's body limit holds for a path spelled with escapes", async ({ request }) => {
    const oversized = await request.post("/%66inancing/login", {
      headers: { Origin: E2E_BASE_URL },
      form: { email: "a@example.com", password: "x".repeat(20_000) },
    });
    expect(oversized.status()).toBe(413);
    expect(await oversized.text()).toContain(httpErrors.tooLarge(16_384));
  });

  test("a reset link spelled with an escape is redacted in the log", async () => {
    const token = "Z".repeat(43);
    for (const spelled of [`/financing/%72esetpassword/${token}`, `//financing/resetpassword%2F${token}`]) {
      const answer = await getAsWritten(spelled);
      const line = await logLineOf(String(answer.headers["x-request-id"]));
      expect(line.path, spelled).toBe("/financing/resetpassword/[redacted]");
      expect(JSON.stringify(line), spelled).not.toContain(token);
    }
  });

  test("a control character in the path or query is a 400 before any route reads it: the error page, or JSON under /api", async ({
    request,
  }) => {
    const bearer = { Authorization: `Bearer ${adminBearer}` };
    const pages: [string, () => Promise<APIResponse>][] = [
      ["the investor table's search", () => admin.get("/financing?q=a%00b")],
      ["the CSV's search", () => admin.get("/financing/investors.csv?q=%00")],
      [
        "an investor's id, NDA flag",
        () => admin.post("/financing/investors/a%00b", { form: { intent: "nda-sent", state: "yes" } }),
      ],
      ["an investor's id, deletion", () => admin.post("/financing/investors/a%1Bb/delete", { form: {} })],
      ["an investor's id, deletion page", () => admin.get("/financing/investors/%00/delete")],
      ["a public page's query", () => request.get("/faq?q=%07")],
      ["a query's name", () => request.get("/faq?%00=x")],
    ];
    for (const [label, send] of pages) {
      const answer = await send();
      expect(answer.status(), label).toBe(400);
      expect(answer.headers()["content-type"], label).toMatch(/^text\/html/);
      expect(await answer.text(), label).toContain(httpErrors.controlCharacter.slice(0, 40));
    }
    const calls: [string, () => Promise<APIResponse>][] = [
      ["get_investors' cursor", () => admin.get("/api/user/get_investors?cursor=%1B", { headers: bearer })],
      ["a verification token", () => request.get("/api/auth/verify/%00")],
      ["forgot-password's address", () => request.get("/api/auth/forgot-password/a%00%40example.com")],
    ];
    for (const [label, send] of calls) {
      const answer = await send();
      expect(answer.status(), label).toBe(400);
      expect(await answer.json(), label).toEqual({ message: httpErrors.controlCharacter });
    }
    // Tabs and line breaks are text: a search may hold them.
    expect((await admin.get("/financing?q=a%09b%0D%0A")).status()).toBe(200);
  });
});

test("every answer Remix gives is no-store unless its route says otherwise; static files keep theirs", async ({
  request,
}) => {
  // /faq twice: rendered, then from the page cache.
  for (const url of ["/faq", "/faq", "/no-such-page", "/financing/login"]) {
    expect((await request.get(url, { headers: { Cookie: "" } })).headers()["cache-control"], url).toBe("no-store");
  }
  expect((await request.get("/sitemap.xml")).headers()["cache-control"]).toBe("public, max-age=3600");
  expect((await request.get("/robots.txt")).headers()["cache-control"]).toBe("public, max-age=3600");
  expect((await request.get("/images/logo.svg")).headers()["cache-control"]).toBe("public, max-age=3600");
});
