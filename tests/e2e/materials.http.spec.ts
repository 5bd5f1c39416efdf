import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type PlaywrightWorkerArgs } from "@playwright/test";
import { withDatabaseFile } from "../support/database-file";
import { updateUser, withDatabase } from "../support/outside-database";
import { pdfPageTexts } from "../support/pdf-text";
import { linkIn, waitForMail } from "./support/mail";
import { E2E_BASE_URL, E2E_DATA_DIR } from "./support/server";

/**
 * The investor's files and set_name_address through the built server
 * (server.js in front): Range answers as a client receives them (no
 * compression in the way), the refusals, the audit rows, and the Origin check
 * and body limit in front of set_name_address.
 */

const PASSWORD = "http level passphrase";
const run = Date.now().toString(36);
let counter = 0;
const freshEmail = (label: string) => `${label}.${run}.${++counter}@example.com`;
const json = (data: unknown, headers: Record<string, string> = {}) => ({
  headers: { "Content-Type": "application/json", ...headers },
  data: JSON.stringify(data),
});
const VIDEO = fs.readFileSync(path.resolve("private/investorvideo.mp4"));
const DATABASE_PATH = path.join(E2E_DATA_DIR, "portal.sqlite");

/** Test setup only: the administrator's NDA flags, written straight into the e2e database. */
function markNdaSigned(email: string) {
  return withDatabase({ path: DATABASE_PATH }, (db) => updateUser(db, email, { signed: true }));
}

function userRow(email: string) {
  return withDatabaseFile(DATABASE_PATH, (db) =>
    db.prepare("select full_name, address, role, is_nda_sent, is_nda_signed from users where email = ?").get(email),
  );
}

/** The audit rows of the user's file accesses: each PDF download, each viewing of the video. */
function fileDownloads(email: string): { action: string; details: string }[] {
  return withDatabaseFile(
    DATABASE_PATH,
    (db) =>
      db
        .prepare(
          "select action, details from audit_events where actor_email = ? and action in ('file.download', 'file.viewed') order by id",
        )
        .all(email) as { action: string; details: string }[],
  );
}

/** Registers and verifies through the API; returns the address and an access token. */
async function verifiedInvestor(request: APIRequestContext) {
  const email = freshEmail("files");
  expect((await request.post("/api/auth/register", json({ email, password: PASSWORD }))).status()).toBe(201);
  const link = linkIn(await waitForMail(email, "Verify your email address"), /\/auth\/verify\//);
  expect((await request.get(`/api/auth/verify/${link.slice(link.lastIndexOf("/") + 1)}`)).status()).toBe(200);
  const login = await request.post("/api/auth/login", json({ email, password: PASSWORD }));
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { email, accessToken };
}

/** Logs `request` in through the login page's form, as a browser without JavaScript does: it keeps the cookie. */
async function logInWithForm(request: APIRequestContext, email: string) {
  const response = await request.post("/financing/login", {
    form: { email, password: PASSWORD },
    headers: { Origin: E2E_BASE_URL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe("/financing");
}

/** A verified investor, signed in through the form and their NDA signed, on a request context of their own. */
async function withSignedInvestor(
  playwright: PlaywrightWorkerArgs["playwright"],
  fullName: string,
  use: (request: APIRequestContext, email: string) => Promise<void>,
) {
  const request = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  try {
    const { email } = await verifiedInvestor(request);
    await logInWithForm(request, email);
    await withDatabase({ path: DATABASE_PATH }, (db) => updateUser(db, email, { fullName, signed: true }));
    await use(request, email);
  } finally {
    await request.dispose();
  }
}

test("set_name_address over HTTP: 201 with the user; a cross-site POST, an oversized body and a wrong type are refused", async ({
  request,
}) => {
  const { email, accessToken } = await verifiedInvestor(request);
  const auth = { Authorization: `Bearer ${accessToken}` };

  const crossSite = await request.post(
    "/api/user/set_name_address",
    json({ email, full_name: "Cross Site", address: "Evil St" }, { ...auth, Origin: "http://evil.example" }),
  );
  expect(crossSite.status()).toBe(403);
  const tooLarge = await request.post(
    "/api/user/set_name_address",
    json({ email, full_name: "Big", address: "x".repeat(20_000) }, auth),
  );
  expect(tooLarge.status()).toBe(413);
  const wrongType = await request.post("/api/user/set_name_address", {
    headers: { ...auth, "Content-Type": "text/plain" },
    data: JSON.stringify({ email, full_name: "Text", address: "Plain" }),
  });
  expect(wrongType.status()).toBe(415);
  expect(userRow(email)).toMatchObject({ full_name: "", address: "" });

  const ok = await request.post(
    "/api/user/set_name_address",
    json({ email, full_name: "Jane Http", address: "1 Main St", role: "administrator", isNDASigned: true }, auth),
  );
  expect(ok.status()).toBe(201);
  expect(await ok.json()).toMatchObject({
    email,
    fullName: "Jane Http",
    address: "1 Main St",
    role: { name: "investor" },
  });
  expect(userRow(email)).toMatchObject({ role: "investor", is_nda_sent: 0, is_nda_signed: 0 });
});

test("the protected video over HTTP: refused before the NDA, then 200, 206 and 416 with the right headers, each access audited", async ({
  playwright,
}) => {
  const request = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  try {
    // A visitor is sent to the login page; nothing is served.
    for (const url of ["/video/investorvideo.mp4", "/pdfs/download.pdf"]) {
      const visitor = await request.get(url, { maxRedirects: 0 });
      expect(visitor.status()).toBe(302);
      expect(visitor.headers()["location"]).toBe("/financing/login");
    }

    const { email } = await verifiedInvestor(request);
    await logInWithForm(request, email);
    for (const url of ["/video/investorvideo.mp4", "/pdfs/download.pdf"]) {
      expect((await request.get(url, { maxRedirects: 0 })).status()).toBe(403);
    }
    expect(fileDownloads(email)).toEqual([]);

    await markNdaSigned(email);
    const whole = await request.get("/video/investorvideo.mp4", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(whole.status()).toBe(200);
    expect(whole.headers()["content-type"]).toBe("video/mp4");
    expect(whole.headers()["content-length"]).toBe(String(VIDEO.length));
    expect(whole.headers()["accept-ranges"]).toBe("bytes");
    expect(whole.headers()["content-encoding"]).toBeUndefined();
    expect(whole.headers()["cache-control"]).toContain("private");
    expect(whole.headers()["cache-control"]).toContain("no-store");
    expect((await whole.body()).equals(VIDEO)).toBe(true);

    const part = await request.get("/video/investorvideo.mp4", { headers: { Range: "bytes=100-1099" } });
    expect(part.status()).toBe(206);
    expect(part.headers()["content-range"]).toBe(`bytes 100-1099/${VIDEO.length}`);
    expect(part.headers()["content-length"]).toBe("1000");
    expect((await part.body()).equals(VIDEO.subarray(100, 1100))).toBe(true);

    const beyond = await request.get("/video/investorvideo.mp4", { headers: { Range: `bytes=${VIDEO.length + 10}-` } });
    expect(beyond.status()).toBe(416);
    expect(beyond.headers()["content-range"]).toBe(`bytes */${VIDEO.length}`);

    // The video's three requests are one viewing.
    const files = fileDownloads(email).map((row) => ({ action: row.action, ...JSON.parse(row.details) }));
    expect(files).toEqual([expect.objectContaining({ action: "file.viewed", file: "investorvideo.mp4", range: null })]);
  } finally {
    await request.dispose();
  }
});

test("the PDF over HTTP: each download a whole copy stamped on every page for its investor, its id in the audit row", async ({
  playwright,
}) => {
  await withSignedInvestor(playwright, "Jane Stamp", async (request, email) => {
    const stampIds: string[] = [];
    // A Range request gets the whole copy too: ranges of two different copies would not join.
    for (const headers of [{}, { Range: "bytes=0-99" }] as Record<string, string>[]) {
      const pdf = await request.get("/pdfs/download.pdf", { headers });
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()["content-type"]).toBe("application/pdf");
      expect(pdf.headers()["accept-ranges"]).toBe("none");
      expect(pdf.headers()["content-range"]).toBeUndefined();
      expect(pdf.headers()["cache-control"]).toContain("no-store");
      const pages = await pdfPageTexts(await pdf.body());
      expect(pages.length).toBeGreaterThan(0);
      const ids = pages.map((text) => {
        expect(text).toContain(`Prepared for Jane Stamp <${email}> on `);
        expect(text).toMatch(/on \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2} [AP]M UTC\./);
        return /download ID ([0-9a-f-]{36})/.exec(text)?.[1];
      });
      expect(new Set(ids).size).toBe(1);
      stampIds.push(ids[0]!);
    }
    expect(stampIds[0]).not.toBe(stampIds[1]);

    const head = await request.head("/pdfs/download.pdf");
    expect(head.status()).toBe(200);

    // One audit row per copy made (none for HEAD), each naming the id stamped on it.
    const rows = fileDownloads(email).map((row) => ({ action: row.action, ...JSON.parse(row.details) }));
    expect(rows).toEqual(stampIds.map((downloadId) => ({ action: "file.download", file: "download.pdf", downloadId })));
  });
});

test("a burst of copies over HTTP: those beyond the session's share in flight are refused 429 with Retry-After at the edge, recorded nowhere", async ({
  playwright,
}) => {
  await withSignedInvestor(playwright, "Jane Burst", async (request, email) => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => request.get("/pdfs/download.pdf")));
    const refused = answers.filter((answer) => answer.status() === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((answer) => [200, 429].includes(answer.status()))).toBe(true);
    for (const answer of refused) {
      expect(answer.headers()["retry-after"]).toBe("5");
      expect(answer.headers()["content-type"]).toContain("text/plain");
      expect(await answer.text()).toMatch(/copies/i);
    }
    // Only the copies made are on record; once the burst is over, the next copy is served.
    expect(fileDownloads(email)).toHaveLength(answers.length - refused.length);
    expect((await request.get("/pdfs/download.pdf")).status()).toBe(200);
  });
});
