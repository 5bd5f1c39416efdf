import fs from "node:fs";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { contactForm } from "~/content/contact";
import { signedInBar } from "~/content/landing";
import { linkIn, waitForMail } from "./support/mail";
import { E2E_BASE_URL, E2E_LOG_FILE } from "./support/server";

/**
 * The page cache (app/server/page-cache.server.ts) serves public pages to visitors
 * who send no cookie. Nobody may ever see another visitor's nonce, notice or session.
 */

const nonceOf = (response: APIResponse) => response.headers()["content-security-policy"].match(/'nonce-([^']+)'/)![1];

/** The server's log line for a response, found by its request id. */
async function logLineOf(response: APIResponse): Promise<Record<string, unknown>> {
  const id = response.headers()["x-request-id"];
  for (let tries = 0; tries < 50; tries += 1) {
    const line = fs
      .readFileSync(E2E_LOG_FILE, "utf8")
      .split("\n")
      .find((text) => text.includes(`"requestId":"${id}"`) && text.includes('"http.request"'));
    if (line) return JSON.parse(line);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No log line for request ${id}`);
}

async function anonymousGet(request: APIRequestContext, url: string) {
  const response = await request.get(url, { headers: { Cookie: "" } });
  expect(response.status(), url).toBe(200);
  return response;
}

test("an anonymous visitor's second request is served from the cache: the same page with its own nonce", async ({
  request,
}) => {
  for (const url of ["/faq", "/aboutus", "/"]) {
    const first = await anonymousGet(request, url);
    const second = await anonymousGet(request, url);
    expect((await logLineOf(second)).pageCache, url).toBe("hit");

    const [firstNonce, secondNonce] = [nonceOf(first), nonceOf(second)];
    expect(secondNonce).not.toBe(firstNonce);
    const [firstHtml, secondHtml] = [await first.text(), await second.text()];
    // Every script carries the nonce of its own response, and no other.
    expect(secondHtml).toContain(`nonce="${secondNonce}"`);
    expect(secondHtml).not.toContain(firstNonce);
    expect(secondHtml.split(secondNonce).join("N")).toBe(firstHtml.split(firstNonce).join("N"));
    expect(second.headers()["content-type"]).toBe("text/html; charset=utf-8");
  }
});

test("pages with a query, portal pages and unknown pages are never answered from the cache", async ({ request }) => {
  for (const url of ["/faq?q=hours", "/financing/login", "/no-such-page"]) {
    await request.get(url, { headers: { Cookie: "" } });
    const again = await request.get(url, { headers: { Cookie: "" } });
    expect((await logLineOf(again)).pageCache, url).toBeUndefined();
  }
});

test("a visitor's notice is theirs alone, and the page after it is not cached with it", async ({ playwright }) => {
  const visitor = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  const stranger = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  try {
    await anonymousGet(stranger, "/contact");
    const form = await visitor.get("/contact");
    const hidden = Object.fromEntries(
      [...(await form.text()).matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    const sent = await visitor.post("/contact", {
      headers: { Origin: E2E_BASE_URL },
      form: {
        ...hidden,
        firstName: "Grace",
        lastName: "Cache",
        email: "grace.cache@example.com",
        message: "Is the page cache per visitor?",
      },
    });
    expect(sent.status()).toBe(200);
    expect(await sent.text()).toContain(contactForm.sent);

    const strangersPage = await anonymousGet(stranger, "/contact");
    expect(await strangersPage.text()).not.toContain(contactForm.sent);
  } finally {
    await Promise.all([visitor.dispose(), stranger.dispose()]);
  }
});

test("a signed-in investor gets their own /home even when it is cached for anonymous visitors", async ({
  playwright,
  request,
}) => {
  await anonymousGet(request, "/home");
  const cached = await anonymousGet(request, "/home");
  expect((await logLineOf(cached)).pageCache).toBe("hit");

  const investor = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  try {
    const email = `cache.${Date.now().toString(36)}@example.com`;
    const password = "page cache passphrase";
    const json = (data: unknown) => ({ headers: { "Content-Type": "application/json" }, data: JSON.stringify(data) });
    expect((await investor.post("/api/auth/register", json({ email, password }))).status()).toBe(201);
    const token = linkIn(await waitForMail(email, /verify your email/i), /\/auth\/verify\//)
      .split("/")
      .pop();
    expect((await investor.get(`/api/auth/verify/${token}`)).status()).toBe(200);
    const login = await investor.post("/financing/login", {
      headers: { Origin: E2E_BASE_URL },
      form: { email, password },
    });
    expect(login.url()).toMatch(/\/financing$/);

    const home = await investor.get("/home");
    expect((await logLineOf(home)).pageCache).toBeUndefined();
    expect(await home.text()).toContain(signedInBar.text(email));
    expect(await cached.text()).not.toContain("You are signed in as");
  } finally {
    await investor.dispose();
  }
});

test("a cached page goes out compressed in one piece as the visitor takes it: brotli, else gzip, else as it is", async ({
  request,
}) => {
  await anonymousGet(request, "/pricing");
  const asSent = async (acceptEncoding: string) => {
    const response = await request.get("/pricing", { headers: { Cookie: "", "Accept-Encoding": acceptEncoding } });
    expect(response.status()).toBe(200);
    expect((await logLineOf(response)).pageCache, acceptEncoding).toBe("hit");
    expect(response.headers()["vary"], acceptEncoding).toMatch(/Accept-Encoding/i);
    expect(response.headers()["content-type"]).toBe("text/html; charset=utf-8");
    // Compressed whole before it is sent: its length is known, where a stream through zlib goes out in chunks.
    expect(response.headers()["content-length"], acceptEncoding).toMatch(/^\d+$/);
    expect(response.headers()["transfer-encoding"], acceptEncoding).toBeUndefined();
    // Playwright hands over the decoded body: the page, with this response's nonce.
    const page = (await response.text()).split(nonceOf(response)).join("N");
    return { encoding: response.headers()["content-encoding"], page };
  };
  const brotli = await asSent("gzip, deflate, br");
  const gzip = await asSent("gzip");
  const plain = await asSent("identity");
  expect([brotli.encoding, gzip.encoding, plain.encoding]).toEqual(["br", "gzip", undefined]);
  expect(brotli.page).toContain("</html>");
  expect(gzip.page).toBe(brotli.page);
  expect(plain.page).toBe(brotli.page);
});

test("a HEAD of a cached page gives the plain page's headers and length, with no body to compress", async ({
  request,
}) => {
  const page = await anonymousGet(request, "/pricing");
  const head = await request.head("/pricing", { headers: { Cookie: "", "Accept-Encoding": "gzip, deflate, br" } });
  expect(head.status()).toBe(200);
  expect((await logLineOf(head)).pageCache).toBe("hit");
  expect(head.headers()["content-encoding"]).toBeUndefined();
  expect(head.headers()["vary"]).toMatch(/Accept-Encoding/i);
  // Every response's nonce has the same length, so the plain page's length is the same for each.
  expect(Number(head.headers()["content-length"])).toBe(Buffer.byteLength(await page.text()));
  expect(await head.body()).toHaveLength(0);
});
