import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { databaseUnavailable } from "~/content/unavailable";
import { createDatabase, startCluster, stopCluster, switchCluster } from "../../scripts/throwaway-postgres";
import { databaseEnv, enrolTotp, updateUser, withDatabase } from "../support/outside-database";
import { pdfsig } from "../support/pdfsig";
import { runScript } from "../support/run-script";
import { TEST_KEYS } from "../support/test-keys";
import { unusedTotpCode } from "../support/totp";
import { startPrivateServer, type PrivateServer } from "./support/private-server";
import { cookiePair, sendRaw, type RawAnswer, type RawRequest } from "./support/raw-http";

/**
 * Two instances of the built server on one PostgreSQL database, as behind a load balancer: what one
 * knows, the other knows (sessions, logouts, rate limits, lockouts, spent refresh tokens, one audit
 * chain, the materials library's files, an NDA signed on one and countersigned on the other under the one
 * signing certificate). Then the database goes away and comes back while they serve: 503 with a clear message
 * meanwhile, recovery without a restart, and nothing answered as done is lost.
 */

test.describe.configure({ mode: "serial" });

const PORT = "25434";
const PASSWORD = "Instances-Valid-Passphrase-61";

let databaseUrl: string;
let a: PrivateServer;
let b: PrivateServer;

let addressCount = 0;
const freshAddress = () => `10.62.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`;
let emailCount = 0;
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${++emailCount}@example.com`;

function send(server: PrivateServer, request: RawRequest & { from?: string }): Promise<RawAnswer> {
  const { from, ...raw } = request;
  return sendRaw(server.url, { ...raw, headers: { "X-Forwarded-For": from ?? freshAddress(), ...raw.headers } });
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const form = (body: Record<string, string>, headers: Record<string, string> = {}) => ({
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(body).toString(),
});

/** Registers on `server` and follows the e-mailed link on the other instance. */
async function registerVerified(server: PrivateServer, other: PrivateServer) {
  const email = freshEmail("investor");
  expect(
    (await send(server, { method: "POST", path: "/api/auth/register", ...json({ email, password: PASSWORD }) })).status,
  ).toBe(201);
  const mail = await server.smtp.mailTo(email, /verify/i, 10_000);
  const token = mail.text.match(/\/auth\/verify\/([A-Za-z0-9_-]{43})\b/)![1];
  expect((await send(other, { method: "GET", path: `/api/auth/verify/${token}` })).status).toBe(200);
  return email;
}

/**
 * An administrator with an authenticator app (an account made one straight in the database), signed in to
 * the API on instance a.
 */
async function administrator() {
  const email = await registerVerified(a, b);
  const totpSecret = await withDatabase({ url: databaseUrl }, async (db) => {
    await db.updateTable("users").set({ role: "administrator" }).where("email", "=", email).execute();
    return enrolTotp(db, email);
  });
  const login = await send(a, {
    method: "POST",
    path: "/api/auth/login",
    ...json({ email, password: PASSWORD, code: await unusedTotpCode(totpSecret) }),
  });
  expect(login.status, login.body).toBe(200);
  const { accessToken } = JSON.parse(login.body) as { accessToken: string };
  return { email, totpSecret, accessToken };
}

/** The audit rows both instances have written so far. */
function auditRowCount() {
  return withDatabase({ url: databaseUrl }, async (db) =>
    Number(
      (
        await db
          .selectFrom("audit_events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  databaseUrl = await createDatabase(startCluster(PORT), "instances");
  // Instances behind one balancer share the database and the secrets that sign their cookies.
  const env = {
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
    SESSION_SECRET: TEST_KEYS.SESSION_SECRET,
    // And the NDA's signing certificate: a file signed on one is countersigned, sealed again, on the other.
    NDA_SIGNING_P12: TEST_KEYS.NDA_SIGNING_P12,
    NDA_SIGNING_P12_PASSPHRASE: TEST_KEYS.NDA_SIGNING_P12_PASSPHRASE,
  };
  a = await startPrivateServer({ name: "instance-a", env });
  b = await startPrivateServer({ name: "instance-b", env });
});

test.afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  stopCluster(PORT);
});

test("a web session made on one instance works on the other, and a logout on either ends it on both", async () => {
  const email = await registerVerified(a, b);
  const login = await send(a, { method: "POST", path: "/financing/login", ...form({ email, password: PASSWORD }) });
  expect(login.status, login.body).toBe(302);
  const cookie = cookiePair(login, "__session")!;
  for (const server of [a, b]) {
    const page = await send(server, { method: "GET", path: "/financing", headers: { Cookie: cookie } });
    expect(page.status, server.url).toBe(200);
    // The investor's first screen, the name and address form: the session is known here.
    expect(page.body).toContain('name="fullName"');
  }
  const logout = await send(b, { method: "POST", path: "/financing/logout", ...form({}, { Cookie: cookie }) });
  expect(logout.status).toBe(302);
  for (const server of [a, b]) {
    const page = await send(server, { method: "GET", path: "/financing", headers: { Cookie: cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe("/financing/login");
  }
});

test("the per-address limit and the account lockout count attempts made on both instances", async () => {
  test.setTimeout(90_000);
  // Ten auth requests a minute from one address, wherever they land; the eleventh is refused.
  const crowded = freshAddress();
  const wrong = (email: string) => json({ email, password: "Not-The-Passphrase-61" });
  const email = await registerVerified(a, b);
  for (let i = 0; i < 10; i++) {
    const answer = await send(i % 2 ? b : a, {
      method: "POST",
      path: "/api/auth/login",
      ...wrong(email),
      from: crowded,
    });
    expect(answer.status).toBe(401);
  }
  for (const server of [a, b]) {
    const refused = await send(server, { method: "POST", path: "/api/auth/login", ...wrong(email), from: crowded });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  }

  // Twenty failed logins lock the account, half of them on each instance.
  const target = await registerVerified(b, a);
  const answers: number[] = [];
  for (let i = 0; i < 20; i++) {
    answers.push((await send(i % 2 ? b : a, { method: "POST", path: "/api/auth/login", ...wrong(target) })).status);
  }
  expect(answers.slice(0, 19).every((status) => status === 401)).toBe(true);
  expect(answers[19]).toBe(423);
  const right = json({ email: target, password: PASSWORD });
  for (const server of [a, b]) {
    expect((await send(server, { method: "POST", path: "/api/auth/login", ...right })).status).toBe(423);
  }
});

test("a refresh token rotated on one instance is refused as spent on the other", async () => {
  test.setTimeout(60_000);
  const email = await registerVerified(a, b);
  const login = await send(a, { method: "POST", path: "/api/auth/login", ...json({ email, password: PASSWORD }) });
  expect(login.status).toBe(200);
  const first = cookiePair(login, "__refresh")!;
  const rotated = await send(a, { method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: first } });
  expect(rotated.status).toBe(200);
  const second = cookiePair(rotated, "__refresh")!;
  // Past the ten seconds' grace for two tabs refreshing at once, the spent token is refused everywhere.
  await new Promise((resolve) => setTimeout(resolve, 10_500));
  const replayed = await send(b, { method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: first } });
  expect(replayed.status).toBe(401);
  // A replay revokes the whole login: the token it was rotated into is refused as well.
  expect((await send(a, { method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: second } })).status).toBe(
    401,
  );
});

test("audit rows written on both instances at once form one unbroken chain", async () => {
  test.setTimeout(90_000);
  const before = await auditRowCount();
  // Failed logins are audited: forty at once, half on each instance.
  const email = await registerVerified(a, b);
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      send(i % 2 ? b : a, {
        method: "POST",
        path: "/api/auth/login",
        ...json({ email, password: `Wrong-${i}-passphrase` }),
      }),
    ),
  );
  const after = await auditRowCount();
  expect(after - before).toBeGreaterThanOrEqual(40);
  const verified = await runScript("audit-verify.ts", [], databaseEnv({ url: databaseUrl }));
  expect(verified.code, verified.output).toBe(0);
  expect(verified.output).toContain(`Verified: ${after} rows unaltered`);
});

/**
 * A real MP4 made to span three of the store's 1 MiB chunks: a `free` box (which players skip) of noise
 * after its last box, so it is still whole.
 */
function videoOverChunks() {
  const video = fs.readFileSync(path.resolve("private/investorvideo.mp4"));
  const free = randomBytes(2 * 1024 * 1024 + 8);
  free.writeUInt32BE(free.byteLength, 0);
  free.write("free", 4, "latin1");
  return Buffer.concat([video, free]);
}

/** A multipart body as a page's form or an API client sends it: text fields, then the file. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = `instances-${Date.now().toString(36)}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const body = Buffer.concat([
    Buffer.from(
      `${parts.join("")}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body };
}

test("a video uploaded through one instance is listed and served, range by range, by the other", async () => {
  test.setTimeout(60_000);
  const { accessToken } = await administrator();

  const video = videoOverChunks();
  const title = `Site visit ${Date.now().toString(36)}`;
  const upload = multipart(
    { title, description: "Uploaded on instance a", audience: "signed" },
    { name: "visit.mp4", type: "video/mp4", bytes: video },
  );
  const uploaded = await send(a, {
    method: "POST",
    path: "/api/materials",
    headers: { Authorization: `Bearer ${accessToken}`, ...upload.headers },
    body: upload.body,
  });
  expect(uploaded.status, uploaded.body).toBe(201);
  const { id } = JSON.parse(uploaded.body) as { id: string };
  // A draft until an administrator publishes it on its page.
  await withDatabase({ url: databaseUrl }, (db) =>
    db.updateTable("documents").set({ published: 1 }).where("id", "=", id).execute(),
  );

  // An investor whose NDA is signed, signed in on instance b, finds it there and plays it from the middle.
  const email = await registerVerified(b, a);
  await withDatabase({ url: databaseUrl }, (db) =>
    updateUser(db, email, { fullName: "Ines Instance", address: "2 Shared Street", signed: true }),
  );
  const signIn = await send(b, { method: "POST", path: "/financing/login", ...form({ email, password: PASSWORD }) });
  expect(signIn.status, signIn.body).toBe(302);
  const cookie = cookiePair(signIn, "__session")!;
  const list = await send(b, { method: "GET", path: "/financing/materials", headers: { Cookie: cookie } });
  expect(list.status).toBe(200);
  expect(list.body).toContain(title);
  const start = Math.floor(video.byteLength / 2) - 1000;
  const end = start + 1024 * 1024 + 1999;
  const range = await fetch(`${b.url}/financing/materials/${id}/file`, {
    headers: { Cookie: cookie, Range: `bytes=${start}-${end}`, "X-Forwarded-For": freshAddress() },
  });
  expect(range.status).toBe(206);
  expect(range.headers.get("content-range")).toBe(`bytes ${start}-${end}/${video.byteLength}`);
  expect(Buffer.from(await range.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
});

test("an NDA signed on one instance is countersigned on the other; either serves the completed PDF and flags", async () => {
  test.setTimeout(90_000);
  const admin = await administrator();
  // The firm's NDA uploaded through the administrators' page on instance a (a page session, with the code step).
  const password = await send(a, {
    method: "POST",
    path: "/financing/login",
    ...form({ email: admin.email, password: PASSWORD }),
  });
  const step = cookiePair(password, "__login_step")!;
  const code = await send(a, {
    method: "POST",
    path: "/financing/login/code",
    ...form({ code: await unusedTotpCode(admin.totpSecret) }, { Cookie: step }),
  });
  const adminCookie = cookiePair(code, "__session")!;
  const template = await PDFDocument.create();
  template.addPage().drawText("The recipient shall hold the information in confidence.", { x: 72, y: 700, size: 12 });
  const upload = multipart(
    { intent: "upload" },
    { name: "nda.pdf", type: "application/pdf", bytes: Buffer.from(await template.save()) },
  );
  const uploaded = await send(a, {
    method: "POST",
    path: "/financing/nda",
    headers: { Cookie: adminCookie, ...upload.headers },
    body: upload.body,
  });
  expect(uploaded.status, uploaded.body).toBe(302);

  // The investor consents and signs through the API on instance a.
  const email = await registerVerified(a, b);
  await withDatabase({ url: databaseUrl }, (db) =>
    updateUser(db, email, { fullName: "Nia Instance", address: "3 Shared Street" }),
  );
  const login = await send(a, { method: "POST", path: "/api/auth/login", ...json({ email, password: PASSWORD }) });
  const investor = { Authorization: `Bearer ${(JSON.parse(login.body) as { accessToken: string }).accessToken}` };
  expect((await send(a, { method: "POST", path: "/api/nda/consent", ...json({ agree: true }, investor) })).status).toBe(
    201,
  );
  const offered = JSON.parse((await send(a, { method: "GET", path: "/api/nda", headers: investor })).body) as {
    copy: { sha256: string };
  };
  const signed = await send(a, {
    method: "POST",
    path: "/api/nda/sign",
    ...json({ typedName: "nia instance", copySha256: offered.copy.sha256, intent: true }, investor),
  });
  expect(signed.status, signed.body).toBe(201);
  expect(JSON.parse(signed.body)).toMatchObject({ completed: false });

  // The firm countersigns on instance b, under the same certificate.
  const { id } = await withDatabase({ url: databaseUrl }, (db) =>
    db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow(),
  );
  const countersigned = await send(b, {
    method: "POST",
    path: "/api/nda/countersign",
    ...json({ investorId: id }, { Authorization: `Bearer ${admin.accessToken}` }),
  });
  expect(countersigned.status, countersigned.body).toBe(201);
  const { sha256 } = JSON.parse(countersigned.body) as { sha256: string };
  expect((await b.smtp.mailTo(email, /signed non-disclosure agreement/i, 10_000)).attachments).toHaveLength(1);

  // Either instance: the NDA complete, both flags set, and the same fully signed PDF, its seal valid.
  for (const server of [a, b]) {
    const state = JSON.parse((await send(server, { method: "GET", path: "/api/nda", headers: investor })).body);
    expect(state, server.url).toMatchObject({ step: "completed", signature: { completedSha256: sha256 } });
    const record = await send(server, {
      method: "GET",
      path: `/api/user/get_investor?${new URLSearchParams({ id })}`,
      headers: { Authorization: `Bearer ${admin.accessToken}` },
    });
    expect(JSON.parse(record.body), server.url).toMatchObject({ investor: { isNDASent: true, isNDASigned: true } });
    const file = await fetch(`${server.url}/api/nda/document`, {
      headers: { ...investor, "X-Forwarded-For": freshAddress() },
    });
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex"), server.url).toBe(sha256);
    const verdict = await pdfsig(bytes);
    expect(verdict).toContain("Signature is Valid.");
    expect(verdict).toContain("Total document signed");
  }
});

test("PostgreSQL goes away and comes back: 503 with a clear message meanwhile, then recovery, nothing lost", async () => {
  test.setTimeout(120_000);
  const answered: { email: string; status: number; body: string }[] = [];
  const register = async (server: PrivateServer) => {
    const email = freshEmail("fault");
    const answer = await send(server, {
      method: "POST",
      path: "/api/auth/register",
      ...json({ email, password: PASSWORD }),
    });
    answered.push({ email, status: answer.status, body: answer.body });
    return answer;
  };
  for (const server of [a, b]) expect((await register(server)).status).toBe(201);

  switchCluster(PORT, "down");
  for (const server of [a, b]) {
    const api = await register(server);
    expect(api.status).toBe(503);
    expect(JSON.parse(api.body)).toEqual({ message: databaseUnavailable.message });
    expect(api.headers["retry-after"]).toBe(String(databaseUnavailable.retryAfterSeconds));
    const page = await send(server, { method: "GET", path: "/financing/login", headers: { Cookie: "__session=x" } });
    expect([200, 503]).toContain(page.status);
    const ready = await send(server, { method: "GET", path: "/readyz" });
    expect(ready.status).toBe(503);
  }
  switchCluster(PORT, "up");

  // No restart of the app: each instance answers again within a few tries.
  for (const server of [a, b]) {
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 201; attempt++) {
      status = (await register(server)).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(201);
  }
  expect(answered.every((answer) => answer.status === 201 || answer.status === 503)).toBe(true);
  // Every sign-up answered as done is in the database.
  const done = answered.filter((answer) => answer.status === 201).map((answer) => answer.email);
  const stored = await withDatabase({ url: databaseUrl }, async (db) =>
    (await db.selectFrom("users").select("email").where("email", "in", done).execute()).map((row) => row.email),
  );
  expect(stored.sort()).toEqual(done.sort());
  expect(a.logLines().some((line) => line.level === "error" && line.event === "request.error")).toBe(false);
});
