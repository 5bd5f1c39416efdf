import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIResponse } from "@playwright/test";
import { httpErrors } from "~/content/http-errors";
import { withDatabaseFile } from "../support/database-file";
import { linkIn, mailCount, waitForMail } from "./support/mail";
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_LOG_FILE } from "./support/server";

/**
 * The account API through the built server (server.js in front): what the
 * route-level tests in tests/integration/api-auth.test.ts cannot see — the
 * Origin check, the body limit, headers and cookies as a client receives them.
 */

const PASSWORD = "http level passphrase";
const run = Date.now().toString(36);
let counter = 0;
const freshEmail = (label: string) => `${label}.${run}.${++counter}@example.com`;
const json = (data: unknown) => ({ headers: { "Content-Type": "application/json" }, data: JSON.stringify(data) });

function userCount(email: string): number {
  return withDatabaseFile(
    path.join(E2E_DATA_DIR, "portal.sqlite"),
    (db) => (db.prepare("select count(*) as n from users where email = ?").get(email) as { n: number }).n,
    { readonly: true },
  );
}

function setCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value);
}

test("the life cycle over HTTP: register, verify, login, refresh, logout — with the right cookie and headers", async ({
  request,
}) => {
  const email = freshEmail("lifecycle");
  const registered = await request.post("/api/auth/register", json({ email, password: PASSWORD }));
  expect(registered.status()).toBe(201);
  expect(registered.headers()["cache-control"]).toBe("no-store");
  expect(registered.headers()["content-type"]).toMatch(/^application\/json/);

  const verifyLink = linkIn(await waitForMail(email, "Verify your email address"), /\/auth\/verify\//);
  expect(verifyLink.startsWith(`${E2E_BASE_URL}/auth/verify/`)).toBe(true);
  const token = verifyLink.slice(verifyLink.lastIndexOf("/") + 1);
  const verified = await request.get(`/api/auth/verify/${token}`);
  expect(verified.status()).toBe(200);
  expect(await verified.json()).toEqual({ message: "Your email address has been successfully verified." });

  const login = await request.post("/api/auth/login", json({ email, password: PASSWORD }));
  expect(login.status()).toBe(200);
  const body = await login.json();
  expect(body).toEqual({
    accessToken: expect.any(String),
    expiresIn: 900,
    user: expect.objectContaining({ email, role: { name: "investor" } }),
  });
  const [cookie] = setCookies(login);
  expect(cookie).toMatch(/^__refresh=/);
  expect(cookie).toMatch(/; HttpOnly/i);
  expect(cookie).toMatch(/; Path=\/api\/auth(;|$)/);
  expect(cookie).toMatch(/; SameSite=Strict/i);
  expect(cookie).not.toMatch(/; Secure/i); // APP_URL is http here; the https case is in tests/integration
  expect(login.headers()["x-robots-tag"]).toBe("noindex");
  expect(login.headers()["cache-control"]).toBe("no-store");

  const refreshed = await request.post("/api/auth/refresh_token");
  expect(refreshed.status()).toBe(200);
  const { accessToken } = await refreshed.json();
  expect(accessToken).toEqual({ access_token: expect.any(String), expires_in: 900 });
  expect(accessToken.access_token).not.toBe(body.accessToken);
  expect(setCookies(refreshed)[0]).not.toBe(cookie);

  const loggedOut = await request.post("/api/auth/logout", {
    headers: { Authorization: `Bearer ${accessToken.access_token}` },
  });
  expect(loggedOut.status()).toBe(200);
  const afterLogout = await request.post("/api/auth/refresh_token");
  expect(afterLogout.status()).toBe(401);
  expect(afterLogout.headers()["www-authenticate"]).toMatch(/^Bearer/);

  // Nothing secret reached the server's log: not the password, the tokens, nor the address in the forgot-password path.
  await request.get(`/api/auth/forgot-password/${encodeURIComponent(email)}`);
  const serverLog = fs.readFileSync(E2E_LOG_FILE, "utf8");
  for (const secret of [PASSWORD, token, body.accessToken, accessToken.access_token, email]) {
    expect(serverLog).not.toContain(secret);
  }
});

test.describe("the Origin check on the API (CSRF)", () => {
  test("a foreign Origin gets 403, and nothing is stored or mailed", async ({ request }) => {
    const email = freshEmail("csrf");
    const refused = await request.post("/api/auth/register", {
      ...json({ email, password: PASSWORD }),
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ message: httpErrors.crossOrigin(E2E_BASE_URL) });

    const login = await request.post("/api/auth/login", {
      ...json({ email, password: PASSWORD }),
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
    });
    expect(login.status()).toBe(403);
    expect(setCookies(login)).toEqual([]);

    // The same request from the app's own origin goes through: the refusal was the Origin's doing.
    const control = freshEmail("csrf-control");
    const allowed = await request.post("/api/auth/register", {
      ...json({ email: control, password: PASSWORD }),
      headers: { "Content-Type": "application/json", Origin: E2E_BASE_URL },
    });
    expect(allowed.status()).toBe(201);
    await waitForMail(control, "Verify your email address");
    expect(userCount(control)).toBe(1);
    expect(userCount(email)).toBe(0);
    expect(mailCount(email)).toBe(0);
  });

  test("a cross-site refresh or logout is refused too", async ({ request }) => {
    for (const url of ["/api/auth/refresh_token", "/api/auth/logout", "/api/auth/reset-password"]) {
      const response = await request.post(url, { headers: { "Sec-Fetch-Site": "cross-site" } });
      expect(response.status(), url).toBe(403);
    }
  });

  test("a preflight from an origin that is not allowed gets no CORS permission", async ({ request }) => {
    const response = await request.fetch("/api/auth/login", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(response.status()).toBe(204);
    expect(response.headers()["access-control-allow-origin"]).toBeUndefined();
    expect(response.headers()["access-control-allow-credentials"]).toBeUndefined();
  });
});

test.describe("bad requests through the server", () => {
  const posts = [
    "/api/auth/register",
    "/api/auth/login",
    "/api/auth/reset-password",
    "/api/auth/refresh_token",
    "/api/auth/logout",
  ];

  test("every POST endpoint refuses a body over 16 KiB with 413", async ({ request }) => {
    for (const url of posts) {
      const response = await request.post(url, json({ padding: "x".repeat(17 * 1024) }));
      expect(response.status(), url).toBe(413);
      expect((await response.json()).message, url).toMatch(/larger than 16384 bytes/);
    }
  });

  test("a wrong content type is 415, malformed JSON 400, a wrong method 405 with Allow — each as JSON { message }", async ({
    request,
  }) => {
    const cases: Array<[string, Promise<APIResponse>, number, string | null]> = [
      [
        "text/plain",
        request.post("/api/auth/login", { headers: { "Content-Type": "text/plain" }, data: "{}" }),
        415,
        null,
      ],
      [
        "a form",
        request.post("/api/auth/register", { form: { email: "a@example.com", password: PASSWORD } }),
        415,
        null,
      ],
      [
        "malformed",
        request.post("/api/auth/login", { headers: { "Content-Type": "application/json" }, data: '{"email":' }),
        400,
        null,
      ],
      ["GET login", request.get("/api/auth/login"), 405, "POST"],
      ["POST verify", request.post(`/api/auth/verify/${"A".repeat(43)}`, json({})), 405, "GET"],
      ["DELETE forgot", request.delete("/api/auth/forgot-password/a@example.com"), 405, "GET"],
    ];
    for (const [name, pending, status, allow] of cases) {
      const response = await pending;
      expect(response.status(), name).toBe(status);
      expect(await response.json(), name).toEqual(expect.objectContaining({ message: expect.any(String) }));
      if (allow) expect(response.headers()["allow"], name).toBe(allow);
    }
  });

  test("a missing or bad bearer token is 401 with WWW-Authenticate: Bearer, never a 500", async ({ request }) => {
    for (const headers of [{}, { Cookie: "__refresh=forged" }] as Array<Record<string, string>>) {
      const response = await request.post("/api/auth/refresh_token", { headers });
      expect(response.status()).toBe(401);
      expect(response.headers()["www-authenticate"]).toMatch(/^Bearer/);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
  });
});
