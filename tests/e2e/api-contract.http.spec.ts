import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { Validator } from "@seriousme/openapi-schema-validator";
import Database from "better-sqlite3";
import { AUTH_BODY_LIMIT_BYTES } from "~/content/constants";
import { createDatabase, startCluster, stopCluster, switchCluster } from "../../scripts/throwaway-postgres";
import { contractChecker, type OpenApi } from "../support/api-contract";
import type { components } from "../support/api-types.generated";
import { withDatabaseFile } from "../support/database-file";
import { enrolTotp, withDatabase } from "../support/outside-database";
import { prismChecker } from "../support/prism-check";
import { unusedTotpCode } from "../support/totp";
import { seedNdaTemplate } from "./support/nda-template";
import { startPrivateServer, type PrivateServer } from "./support/private-server";
import { cookiePair, sendRaw, type RawAnswer, type RawRequest } from "./support/raw-http";

/**
 * The contract test: every documented call of the JSON API, sent to the built server (server.js in
 * front) with good input and to provoke each answer it documents, every answer held to the OpenAPI
 * document the server itself serves, twice: by the contract check (ajv) and by Stoplight Prism's
 * validators (prism-check.ts), which also fail a request the server took that the document refuses.
 * An answer the document does not describe (its status, body or headers) fails; so does a documented
 * answer that no request here could provoke. The bad-input sweep (bad-input.http.spec.ts) holds its
 * thousands of refusals to the same document.
 */

type Shapes = components["schemas"];

test.describe.configure({ mode: "serial" });

const PASSWORD = "Contract-Valid-Passphrase-58";
const ADMIN = { email: "contract-admin@example.com", password: "Contract-Admin-Passphrase-58" };
const LOCKED_ADMIN = { email: "contract-locked-admin@example.com", password: "Contract-Admin-Passphrase-59" };
const INVESTOR = { email: "contract-investor@example.com", password: PASSWORD };
const SENT_INVESTOR = { email: "contract-sent@example.com", password: PASSWORD };
const UNENROLLED_ADMIN = { email: "contract-unenrolled@example.com", password: PASSWORD };
const FOREIGN_ORIGIN = "https://evil.example";

let server: PrivateServer;
let checker: ReturnType<typeof contractChecker>;
let prism: Awaited<ReturnType<typeof prismChecker>>;
let servedDocument: OpenApi;
const problems: string[] = [];
let adminTotp = "";
let adminBearer = "";

let addressCount = 0;
/** A new client address per request (server.js trusts one proxy here), so no limit bites unless meant to. */
const freshAddress = () => `10.61.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`;

/** Sends one request and holds its answer to the document; `from` fixes the client address, `to` the server. */
async function send(request: RawRequest & { from?: string; to?: PrivateServer }): Promise<RawAnswer> {
  const { from, to = server, ...raw } = request;
  const sent = { ...raw, headers: { "X-Forwarded-For": from ?? freshAddress(), ...raw.headers } };
  const answer = await sendRaw(to.url, sent);
  problems.push(...checker.problemsOf(raw.method, raw.path, answer));
  problems.push(...(await prism.problemsOf({ request: sent, answer })));
  return answer;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}, from?: string): Promise<RawAnswer> {
  return send({
    method: "POST",
    path,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
    from,
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function expectStatus(answer: RawAnswer, status: number) {
  expect(answer.status, answer.body.slice(0, 300)).toBe(status);
}

async function mailToken(email: string, subject: RegExp) {
  const mail = await server.smtp.mailTo(email, subject, 10_000);
  return mail.text.match(/https?:\/\/\S+\/([A-Za-z0-9_-]{43})\b/)![1];
}

async function registerVerified(account: { email: string; password: string }) {
  expectStatus(await post("/api/auth/register", account), 201);
  const token = await mailToken(account.email, /verify/i);
  expectStatus(await send({ method: "GET", path: `/api/auth/verify/${token}` }), 200);
}

async function apiLogin(account: { email: string; password: string }, code?: string) {
  const answer = await post("/api/auth/login", { ...account, ...(code ? { code } : {}) });
  expectStatus(answer, 200);
  const body = JSON.parse(answer.body) as Shapes["LoginAnswer"];
  return { bearer: body.accessToken, refresh: cookiePair(answer, "__refresh")!, user: body.user };
}

function userId(email: string): string {
  return withDatabaseFile(
    server.databasePath,
    (db) => (db.prepare("select id from users where email = ?").get(email) as { id: string }).id,
  );
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startPrivateServer({ name: "api-contract", env: { TRUST_PROXY: "1" } });
  const served = await sendRaw(server.url, { method: "GET", path: "/api/openapi.json" });
  expect(served.status).toBe(200);
  servedDocument = JSON.parse(served.body) as OpenApi;
  checker = contractChecker(servedDocument);
  prism = await prismChecker(servedDocument);
  adminTotp = await server.createAdministrator(ADMIN.email, ADMIN.password);
  adminBearer = (await apiLogin(ADMIN, await unusedTotpCode(adminTotp))).bearer;
});

test.afterAll(async () => {
  await server?.dispose();
});

test.afterEach(() => {
  expect(problems, problems.join("\n")).toEqual([]);
});

test("the served document is valid OpenAPI 3.1", async () => {
  const result = await new Validator().validate(structuredClone(servedDocument));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("the account calls: each documented answer, held to the document", async () => {
  test.setTimeout(120_000);
  await registerVerified(INVESTOR);
  expectStatus(await post("/api/auth/register", { email: "not-an-address", password: PASSWORD }), 400);
  expectStatus(await send({ method: "GET", path: "/api/auth/verify/not-a-token" }), 400);

  // Login: the right password, a wrong one, an unverified address, and the second factor's steps.
  const investor = await apiLogin(INVESTOR);
  expect(investor.user.email).toBe(INVESTOR.email);
  expectStatus(await post("/api/auth/login", { email: INVESTOR.email, password: "Wrong-Passphrase-58" }), 401);
  expectStatus(await post("/api/auth/login", { email: INVESTOR.email }), 400);
  expectStatus(await post("/api/auth/register", { email: "contract-unverified@example.com", password: PASSWORD }), 201);
  expectStatus(await post("/api/auth/login", { email: "contract-unverified@example.com", password: PASSWORD }), 403);
  const codeWanted = await post("/api/auth/login", ADMIN);
  expectStatus(codeWanted, 401);
  expect((JSON.parse(codeWanted.body) as Shapes["SecondFactorRequired"]).mfaRequired).toBe(true);
  await registerVerified(UNENROLLED_ADMIN);
  withDatabaseFile(server.databasePath, (db) =>
    db.prepare("update users set role = 'administrator' where email = ?").run(UNENROLLED_ADMIN.email),
  );
  expectStatus(await post("/api/auth/login", UNENROLLED_ADMIN), 403);

  // Wrong codes lock the second step: 423 with Retry-After.
  await server.createAdministrator(LOCKED_ADMIN.email, LOCKED_ADMIN.password);
  let locked: RawAnswer | undefined;
  for (let attempt = 0; attempt < 8 && locked?.status !== 423; attempt++) {
    locked = await post("/api/auth/login", { ...LOCKED_ADMIN, code: "abcde-12345" });
    expect([401, 423]).toContain(locked.status);
  }
  expectStatus(locked!, 423);

  // Refresh: the cookie rotates; without it, 401 and the cookie cleared.
  const refreshed = await send({
    method: "POST",
    path: "/api/auth/refresh_token",
    headers: { Cookie: investor.refresh },
  });
  expectStatus(refreshed, 200);
  const { accessToken } = JSON.parse(refreshed.body) as Shapes["RefreshAnswer"];
  expect(accessToken.expires_in).toBe(900);
  expectStatus(await send({ method: "POST", path: "/api/auth/refresh_token" }), 401);

  // Forgotten password and reset.
  expectStatus(await send({ method: "GET", path: `/api/auth/forgot-password/${INVESTOR.email}` }), 200);
  expectStatus(await send({ method: "GET", path: "/api/auth/forgot-password/not-an-address" }), 400);
  const resetToken = await mailToken(INVESTOR.email, /reset/i);
  expectStatus(await post("/api/auth/reset-password", { newPasswordToken: "unknown", newPassword: PASSWORD }), 400);
  expectStatus(
    await post("/api/auth/reset-password", { newPasswordToken: resetToken, newPassword: "Contract-New-Passphrase-58" }),
    200,
  );
  INVESTOR.password = "Contract-New-Passphrase-58";

  // Logout, with the bearer token and the refresh cookie.
  const again = await apiLogin(INVESTOR);
  expectStatus(
    await send({
      method: "POST",
      path: "/api/auth/logout",
      headers: { ...bearer(again.bearer), Cookie: again.refresh },
    }),
    200,
  );

  // Too many requests from one address: 429 with Retry-After, on every call that counts them.
  const crowded = freshAddress();
  for (let i = 0; i < 10; i++) {
    await send({ method: "GET", path: "/api/auth/forgot-password/contract-nobody@example.com", from: crowded });
  }
  const throttled = [
    await send({ method: "GET", path: "/api/auth/forgot-password/contract-nobody@example.com", from: crowded }),
    await post("/api/auth/register", { email: "contract-crowd@example.com", password: PASSWORD }, {}, crowded),
    await post("/api/auth/login", INVESTOR, {}, crowded),
    await send({ method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: again.refresh }, from: crowded }),
    await post("/api/auth/reset-password", { newPasswordToken: "unknown", newPassword: PASSWORD }, {}, crowded),
  ];
  for (const answer of throttled) expectStatus(answer, 429);
});

test("the investor calls: each documented answer, held to the document", async () => {
  const investor = await apiLogin(INVESTOR);
  await registerVerified(SENT_INVESTOR);
  const sent = await apiLogin(SENT_INVESTOR);
  const investorId = userId(INVESTOR.email);

  // The list: whole, a page and the next, refused for a bad limit, without a token, for an investor.
  const whole = await send({ method: "GET", path: "/api/user/get_investors", headers: bearer(adminBearer) });
  expectStatus(whole, 200);
  const everyone = (JSON.parse(whole.body) as Shapes["InvestorList"]).users;
  expect(everyone.map((user) => user.email)).toEqual(expect.arrayContaining([INVESTOR.email, SENT_INVESTOR.email]));
  const first = await send({ method: "GET", path: "/api/user/get_investors?limit=1", headers: bearer(adminBearer) });
  const firstPage = JSON.parse(first.body) as Shapes["InvestorList"];
  expect(firstPage.users).toHaveLength(1);
  const second = await send({
    method: "GET",
    path: `/api/user/get_investors?limit=1&cursor=${firstPage.nextCursor}`,
    headers: bearer(adminBearer),
  });
  expect((JSON.parse(second.body) as Shapes["InvestorList"]).users[0].id).toBe(everyone[1].id);
  expectStatus(
    await send({ method: "GET", path: "/api/user/get_investors?limit=0", headers: bearer(adminBearer) }),
    400,
  );
  expectStatus(await send({ method: "GET", path: "/api/user/get_investors" }), 401);
  expectStatus(await send({ method: "GET", path: "/api/user/get_investors", headers: bearer(investor.bearer) }), 403);

  // One investor, as their page shows them: found, malformed, unknown, without a token, for an investor.
  const one = await send({
    method: "GET",
    path: `/api/user/get_investor?id=${investorId}`,
    headers: bearer(adminBearer),
  });
  expectStatus(one, 200);
  const record = JSON.parse(one.body) as Shapes["InvestorRecord"];
  expect(record.investor).toMatchObject({ email: INVESTOR.email, emailVerified: true });
  expect(record.activity.nextCursor).toBeNull();
  for (const query of ["", "?id=not%20an%20id", `?id=${investorId}&activityCursor=0`]) {
    expectStatus(
      await send({ method: "GET", path: `/api/user/get_investor${query}`, headers: bearer(adminBearer) }),
      400,
    );
  }
  const unknownId = "00000000-0000-4000-8000-000000000000";
  expectStatus(
    await send({ method: "GET", path: `/api/user/get_investor?id=${unknownId}`, headers: bearer(adminBearer) }),
    404,
  );
  expectStatus(await send({ method: "GET", path: `/api/user/get_investor?id=${investorId}` }), 401);
  expectStatus(
    await send({ method: "GET", path: `/api/user/get_investor?id=${investorId}`, headers: bearer(investor.bearer) }),
    403,
  );

  // Name and address: one's own; not another's; an unknown address; too late once the NDA is sent.
  const nameAddress = (email: string) => ({ email, full_name: "Contract Investor", address: "1 Main Street" });
  const named = await post("/api/user/set_name_address", nameAddress(INVESTOR.email), bearer(investor.bearer));
  expectStatus(named, 201);
  expect((JSON.parse(named.body) as Shapes["PublicUser"]).fullName).toBe("Contract Investor");
  expectStatus(
    await post("/api/user/set_name_address", nameAddress(SENT_INVESTOR.email), bearer(investor.bearer)),
    403,
  );
  expectStatus(
    await post("/api/user/set_name_address", nameAddress("contract-nobody@example.com"), bearer(adminBearer)),
    404,
  );
  expectStatus(await post("/api/user/set_name_address", nameAddress(INVESTOR.email), {}), 401);

  // The NDA flags and deletion: an administrator's calls. No NDA is marked for an investor without a name and address.
  for (const call of ["update_nda_sent", "update_nda_signed"]) {
    expectStatus(
      await post(`/api/user/${call}`, { email: SENT_INVESTOR.email, state: true }, bearer(adminBearer)),
      409,
    );
  }
  expectStatus(await post("/api/user/set_name_address", nameAddress(SENT_INVESTOR.email), bearer(adminBearer)), 201);
  for (const call of ["update_nda_sent", "update_nda_signed"]) {
    const path = `/api/user/${call}`;
    const changed = await post(path, { email: SENT_INVESTOR.email, state: true }, bearer(adminBearer));
    expectStatus(changed, 201);
    expect((JSON.parse(changed.body) as Shapes["NdaFlagAnswer"]).user.isNDASent).toBe(true);
    expectStatus(await post(path, { email: "contract-nobody@example.com", state: true }, bearer(adminBearer)), 404);
    expectStatus(await post(path, { email: SENT_INVESTOR.email, state: true }, bearer(investor.bearer)), 403);
    expectStatus(await post(path, { email: SENT_INVESTOR.email, state: true }), 401);
  }
  expectStatus(await post("/api/user/set_name_address", nameAddress(SENT_INVESTOR.email), bearer(sent.bearer)), 409);

  const doomed = { email: "contract-doomed@example.com", password: PASSWORD };
  await registerVerified(doomed);
  expectStatus(await post("/api/user/delete_investor", { id: userId(ADMIN.email) }, bearer(adminBearer)), 403);
  expectStatus(
    await post("/api/user/delete_investor", { id: "00000000-0000-4000-8000-000000000000" }, bearer(adminBearer)),
    404,
  );
  expectStatus(await post("/api/user/delete_investor", { id: investorId }), 401);
  expectStatus(await post("/api/user/delete_investor", { id: userId(doomed.email) }, bearer(adminBearer)), 201);
});

test("the audit log: a page in words, filtered, the next by cursor; bad filters, no token, an investor's token refused", async () => {
  const investor = await apiLogin(INVESTOR);
  const audit = (query: string, token = adminBearer) =>
    send({ method: "GET", path: `/api/audit${query}`, headers: bearer(token) });

  const deleted = await audit("?kind=investor.deleted&investor=contract-doomed%40example.com");
  expectStatus(deleted, 200);
  const [event] = (JSON.parse(deleted.body) as Shapes["AuditLog"]).events;
  expect(event).toMatchObject({
    action: "investor.deleted",
    event: "Deleted the investor contract-doomed@example.com",
    actorEmail: ADMIN.email,
  });
  const older = JSON.parse((await audit(`?cursor=${event.id}`)).body) as Shapes["AuditLog"];
  expect(older.events[0].id).toBe(event.id - 1);
  expectStatus(await audit("?from=2026-02-30"), 400);
  expectStatus(await send({ method: "GET", path: "/api/audit" }), 401);
  expectStatus(await audit("", investor.bearer), 403);
});

/** A multipart body (an upload) as an HTTP client sends it; a list is a part a value, repeated. */
async function multipart(parts: Record<string, string | string[] | { bytes: Buffer; name: string }>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    if (typeof value === "string" || Array.isArray(value)) for (const item of [value].flat()) form.append(name, item);
    else form.append(name, new Blob([new Uint8Array(value.bytes)]), value.name);
  const encoded = new Request("http://contract.test/", { method: "POST", body: form });
  return {
    headers: { "Content-Type": encoded.headers.get("Content-Type")! },
    body: Buffer.from(await encoded.arrayBuffer()),
  };
}

test("the materials calls: list, upload, a new version, the reading report and the readers, each documented answer", async () => {
  test.setTimeout(120_000);
  const pdf = { bytes: readFileSync("private/download.pdf"), name: "terms.pdf" };
  const video = { bytes: readFileSync("private/investorvideo.mp4"), name: "visit.mp4" };
  const unsigned = await apiLogin(INVESTOR);
  const signed = await apiLogin(SENT_INVESTOR);
  expect(signed.user.isNDASigned).toBe(true);
  const upload = async (path: string, parts: Parameters<typeof multipart>[0], token?: string, chunked = false) => {
    const body = await multipart(parts);
    return send({
      method: "POST",
      path,
      headers: { ...body.headers, ...(token ? bearer(token) : {}) },
      body: body.body,
      chunked,
    });
  };

  // Upload: a draft; a refused field; a text part over its limit; no token; an investor's; not multipart; in chunks.
  const created = await upload(
    "/api/materials",
    { title: "Contract terms", audience: "chosen", chosen: [SENT_INVESTOR.email], file: pdf },
    adminBearer,
  );
  expectStatus(created, 201);
  const document = JSON.parse(created.body) as Shapes["Material"];
  expect(document).toMatchObject({
    kind: "pdf",
    version: 1,
    published: false,
    audience: "chosen",
    url: `/financing/materials/${document.id}`,
  });
  expectStatus(await upload("/api/materials", { title: "", file: pdf }, adminBearer), 400);
  expectStatus(await upload("/api/materials", { title: "x".repeat(65 * 1024), file: pdf }, adminBearer), 413);
  expectStatus(await upload("/api/materials", { title: "Terms", file: pdf }), 401);
  expectStatus(await upload("/api/materials", { title: "Terms", file: pdf }, signed.bearer), 403);
  const notMultipart = { "Content-Type": "text/plain", ...bearer(adminBearer) };
  expectStatus(await send({ method: "POST", path: "/api/materials", headers: notMultipart, body: "title=x" }), 415);
  expectStatus(await upload("/api/materials", { title: "Terms", file: pdf }, adminBearer, true), 411);

  // A new version: added; of the other kind; of no document; each refusal as the upload's.
  const versions = `/api/materials/${document.id}/versions`;
  const replaced = await upload(versions, { file: pdf }, adminBearer);
  expectStatus(replaced, 201);
  expect(JSON.parse(replaced.body) as Shapes["MaterialVersion"]).toEqual({ id: document.id, version: 2 });
  expectStatus(await upload(versions, { file: video }, adminBearer), 400);
  expectStatus(await upload("/api/materials/no-such-document/versions", { file: pdf }, adminBearer), 404);
  expectStatus(await upload(versions, { file: pdf, note: "x".repeat(65 * 1024) }, adminBearer), 413);
  expectStatus(await upload(versions, { file: pdf }), 401);
  expectStatus(await upload(versions, { file: pdf }, signed.bearer), 403);
  expectStatus(await send({ method: "POST", path: versions, headers: notMultipart, body: "file=x" }), 415);
  expectStatus(await upload(versions, { file: pdf }, adminBearer, true), 411);

  // The list: the chosen investor sees the document once published (on its page, by an administrator who
  // confirmed it's them); an investor before the NDA is refused.
  const listedIds = async () =>
    (
      JSON.parse(
        (await send({ method: "GET", path: "/api/materials", headers: bearer(signed.bearer) })).body,
      ) as Shapes["MaterialList"]
    ).documents.map((item) => item.id);
  expect(await listedIds()).not.toContain(document.id);
  withDatabaseFile(server.databasePath, (db) =>
    db.prepare("update documents set published = 1 where id = ?").run(document.id),
  );
  const listed = await send({ method: "GET", path: "/api/materials", headers: bearer(signed.bearer) });
  expectStatus(listed, 200);
  const documents = (JSON.parse(listed.body) as Shapes["MaterialList"]).documents;
  expect(documents.find((item) => item.id === document.id)).toMatchObject({ version: 2 });
  expectStatus(await send({ method: "GET", path: "/api/materials", headers: bearer(adminBearer) }), 200);
  expectStatus(await send({ method: "GET", path: "/api/materials", headers: bearer(unsigned.bearer) }), 403);
  expectStatus(await send({ method: "GET", path: "/api/materials" }), 401);

  // Who read what: the report, one document's readers; an unknown document; a control character; no right.
  const report = await send({ method: "GET", path: "/api/materials/report", headers: bearer(adminBearer) });
  expectStatus(report, 200);
  expect((JSON.parse(report.body) as Shapes["ReadingReport"]).documents.map((row) => row.id)).toContain(document.id);
  expectStatus(await send({ method: "GET", path: "/api/materials/report", headers: bearer(signed.bearer) }), 403);
  expectStatus(await send({ method: "GET", path: "/api/materials/report" }), 401);
  const readers = (id: string, token?: string) =>
    send({ method: "GET", path: `/api/materials/${id}/readers`, headers: token ? bearer(token) : {} });
  const read = await readers(document.id, adminBearer);
  expectStatus(read, 200);
  expect(JSON.parse(read.body) as Shapes["MaterialReaders"]).toEqual({
    id: document.id,
    title: "Contract terms",
    readers: [],
  });
  expectStatus(await readers("no-such-document", adminBearer), 404);
  expectStatus(await readers("%01", adminBearer), 400);
  expectStatus(await readers(document.id, signed.bearer), 403);
  expectStatus(await readers(document.id), 401);
});

/** The firm's switches for what follows the materials, set in the server's database as the settings page sets them. */
function turnAfterMaterials(on: boolean) {
  withDatabaseFile(server.databasePath, (db) =>
    db.prepare("update portal_features set questions = ?, qualification = ?, interest = ?").run(+on, +on, +on),
  );
}

test("the calls after the materials: questions, qualification, interest, verification and the pipeline, each documented answer", async () => {
  test.setTimeout(120_000);
  const signed = await apiLogin(SENT_INVESTOR);
  const unsigned = await apiLogin(INVESTOR);
  const get = (path: string, token?: string) => send({ method: "GET", path, headers: token ? bearer(token) : {} });
  const postAs = (path: string, body: unknown, token?: string) => post(path, body, token ? bearer(token) : {});

  // Turned off: each call of a part answers 404.
  turnAfterMaterials(false);
  expectStatus(await get("/api/questions", signed.bearer), 404);
  expectStatus(await postAs("/api/questions", { body: "Open?" }, signed.bearer), 404);
  expectStatus(await get("/api/questions/published", signed.bearer), 404);
  expectStatus(await get("/api/questions/queue", adminBearer), 404);
  const unknownQuestion = "00000000-0000-4000-8000-000000000000";
  expectStatus(await postAs(`/api/questions/${unknownQuestion}/answer`, { privateAnswer: "x" }, adminBearer), 404);
  expectStatus(await postAs(`/api/questions/${unknownQuestion}/close`, {}, adminBearer), 404);
  expectStatus(await get("/api/qualification", signed.bearer), 404);
  expectStatus(await postAs("/api/qualification", { category: "income", statedOn: "2026-01-02" }, signed.bearer), 404);
  expectStatus(await get("/api/interest", signed.bearer), 404);
  expectStatus(await postAs("/api/interest", { amount: 1000 }, signed.bearer), 404);
  expectStatus(await postAs("/api/interest/withdraw", {}, signed.bearer), 404);
  const signedId = userId(SENT_INVESTOR.email);
  const verification = { method: "cpa_letter", verifiedOn: "2026-01-02" };
  expectStatus(await postAs(`/api/investors/${signedId}/verifications`, verification, adminBearer), 404);
  turnAfterMaterials(true);

  // Questions: asked, refused, listed, queued, answered, closed.
  const asked = await postAs("/api/questions", { body: "Is the raise open?" }, signed.bearer);
  expectStatus(asked, 201);
  const questionId = (JSON.parse(asked.body) as Shapes["AskedQuestion"]).question.id;
  expectStatus(await postAs("/api/questions", { body: "" }, signed.bearer), 400);
  expectStatus(await postAs("/api/questions", { body: "Open?" }), 401);
  expectStatus(await postAs("/api/questions", { body: "Open?" }, unsigned.bearer), 403);
  // The hour's questions used up (as ten questions would): 429 with Retry-After, then the counter forgotten.
  const hourKey = `questions:${signedId}`;
  withDatabaseFile(server.databasePath, (db) =>
    db
      .prepare(
        "insert into rate_limits (key, count, reset_at) values (?, 10, ?) on conflict (key) do update set count = 10",
      )
      .run(hourKey, Date.now() + 3_600_000),
  );
  const throttled = await postAs("/api/questions", { body: "One more?" }, signed.bearer);
  expectStatus(throttled, 429);
  expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(0);
  withDatabaseFile(server.databasePath, (db) => db.prepare("delete from rate_limits where key = ?").run(hourKey));
  expectStatus(await get("/api/questions", signed.bearer), 200);
  expectStatus(await get("/api/questions"), 401);
  expectStatus(await get("/api/questions", adminBearer), 403);
  expectStatus(await get("/api/questions/queue?status=new", adminBearer), 200);
  expectStatus(await get("/api/questions/queue?status=lost", adminBearer), 400);
  expectStatus(await get("/api/questions/queue"), 401);
  expectStatus(await get("/api/questions/queue", signed.bearer), 403);
  const answerPath = `/api/questions/${questionId}/answer`;
  expectStatus(await postAs(answerPath, { privateAnswer: "Yes.", publishedAnswer: "It is." }, adminBearer), 200);
  expectStatus(await postAs(answerPath, { privateAnswer: "" }, adminBearer), 400);
  expectStatus(await postAs(answerPath, { privateAnswer: "Yes." }), 401);
  expectStatus(await postAs(answerPath, { privateAnswer: "Yes." }, signed.bearer), 403);
  expectStatus(await postAs(`/api/questions/${unknownQuestion}/answer`, { privateAnswer: "x" }, adminBearer), 404);
  expectStatus(await get("/api/questions/published?q=raise", signed.bearer), 200);
  expectStatus(await get(`/api/questions/published?q=${"x".repeat(201)}`, signed.bearer), 400);
  expectStatus(await get("/api/questions/published"), 401);
  expectStatus(await get("/api/questions/published", unsigned.bearer), 403);
  const closePath = `/api/questions/${questionId}/close`;
  expectStatus(await postAs(closePath, {}, adminBearer), 200);
  expectStatus(await postAs(closePath, {}), 401);
  expectStatus(await postAs(closePath, {}, signed.bearer), 403);
  expectStatus(await postAs(`/api/questions/${unknownQuestion}/close`, {}, adminBearer), 404);
  expectStatus(await postAs("/api/questions/not-an-id/close", {}, adminBearer), 400);

  // Qualification and the firm's verification.
  expectStatus(await postAs("/api/qualification", { category: "income", statedOn: "2026-01-02" }, signed.bearer), 201);
  expectStatus(await postAs("/api/qualification", { category: "rich", statedOn: "2026-01-02" }, signed.bearer), 400);
  expectStatus(await postAs("/api/qualification", { category: "income", statedOn: "2026-01-02" }), 401);
  expectStatus(await get("/api/qualification", signed.bearer), 200);
  expectStatus(await get("/api/qualification"), 401);
  expectStatus(await get("/api/qualification", adminBearer), 403);
  const verifyPath = `/api/investors/${signedId}/verifications`;
  expectStatus(await postAs(verifyPath, { ...verification, note: "CPA letter" }, adminBearer), 201);
  expectStatus(await postAs(verifyPath, { ...verification, method: "astrology" }, adminBearer), 400);
  expectStatus(await postAs(verifyPath, verification), 401);
  expectStatus(await postAs(verifyPath, verification, signed.bearer), 403);
  expectStatus(await postAs("/api/investors/nobody/verifications", verification, adminBearer), 404);

  // Interest: indicated, refused, read, withdrawn.
  expectStatus(await postAs("/api/interest", { amount: 250000, low: 200000, high: 300000 }, signed.bearer), 201);
  expectStatus(await postAs("/api/interest", { amount: -1 }, signed.bearer), 400);
  expectStatus(await postAs("/api/interest", { amount: 1000 }), 401);
  expectStatus(await get("/api/interest", signed.bearer), 200);
  expectStatus(await get("/api/interest"), 401);
  expectStatus(await get("/api/interest", adminBearer), 403);
  expectStatus(await postAs("/api/interest/withdraw", {}, signed.bearer), 201);
  expectStatus(await postAs("/api/interest/withdraw", {}), 401);

  // The pipeline.
  const pipeline = await get("/api/pipeline", adminBearer);
  expectStatus(pipeline, 200);
  expect((JSON.parse(pipeline.body) as Shapes["Pipeline"]).stages).toHaveLength(8);
  expectStatus(await get("/api/pipeline"), 401);
  expectStatus(await get("/api/pipeline", signed.bearer), 403);
});

test("the NDA's calls: state, consent, the copy, the signature, the countersignature and the record, each documented answer", async () => {
  test.setTimeout(120_000);
  await seedNdaTemplate({ path: server.databasePath });
  const signer = { email: "contract-nda@example.com", password: PASSWORD };
  const withFactor = { email: "contract-nda-factor@example.com", password: PASSWORD };
  const unnamed = { email: "contract-nda-unnamed@example.com", password: PASSWORD };
  for (const account of [signer, withFactor, unnamed]) await registerVerified(account);
  const [investor, factorInvestor, unnamedInvestor] = [
    await apiLogin(signer),
    await apiLogin(withFactor),
    await apiLogin(unnamed),
  ];
  for (const [account, login] of [
    [signer, investor],
    [withFactor, factorInvestor],
  ] as const) {
    const details = { email: account.email, full_name: "Zoë Ångström-Núñez", address: "1 Signing Row" };
    expectStatus(await post("/api/user/set_name_address", details, bearer(login.bearer)), 201);
  }
  await withDatabase({ path: server.databasePath }, (db) => enrolTotp(db, withFactor.email));
  const get = (path: string, token?: string) => send({ method: "GET", path, headers: token ? bearer(token) : {} });
  const postAs = (path: string, body: unknown, token?: string, from?: string) =>
    post(path, body, token ? bearer(token) : {}, from);
  const stateOf = async (token: string) => {
    const answer = await get("/api/nda", token);
    expectStatus(answer, 200);
    return JSON.parse(answer.body) as Shapes["NdaState"];
  };

  // The state: the copy offered; no token; an administrator's.
  const offered = await stateOf(investor.bearer);
  expect(offered).toMatchObject({ step: "consent-needed", copy: { templateVersion: 1 } });
  expectStatus(await get("/api/nda"), 401);
  expectStatus(await get("/api/nda", adminBearer), 403);

  // The copy as a PDF; nothing to open before a name and address; no token; an administrator's.
  const copy = await get("/api/nda/document", investor.bearer);
  expectStatus(copy, 200);
  expect(copy.headers["content-type"]).toBe("application/pdf");
  expectStatus(await get("/api/nda/document", unnamedInvestor.bearer), 404);
  expectStatus(await get("/api/nda/document"), 401);
  expectStatus(await get("/api/nda/document", adminBearer), 403);

  // The signature before consent is refused; consent: refused unticked, without a token, for an administrator.
  const signature = (copySha256: string, extra: Record<string, unknown> = {}) => ({
    typedName: "zoe angstrom-nunez",
    copySha256,
    intent: true,
    ...extra,
  });
  const sign = (body: unknown, token?: string, from?: string) => postAs("/api/nda/sign", body, token, from);
  expectStatus(await sign(signature(offered.copy!.sha256), investor.bearer), 409);
  expectStatus(await postAs("/api/nda/consent", { agree: false }, investor.bearer), 400);
  expectStatus(await postAs("/api/nda/consent", { agree: true }), 401);
  expectStatus(await postAs("/api/nda/consent", { agree: true }, adminBearer), 403);
  const consented = await postAs("/api/nda/consent", { agree: true }, investor.bearer);
  expectStatus(consented, 201);
  expect((JSON.parse(consented.body) as Shapes["NdaState"]).step).toBe("ready-to-sign");

  // A name that is not theirs (400, nothing signed); no token; an administrator's.
  const refusedName = await sign(signature(offered.copy!.sha256, { typedName: "Zoe Angstrom" }), investor.bearer);
  expectStatus(refusedName, 400);
  expect(JSON.parse(refusedName.body)).toMatchObject({
    message: "Type your full name exactly as it appears on the agreement.",
  });
  expectStatus(await sign(signature(offered.copy!.sha256)), 401);
  expectStatus(await sign(signature(offered.copy!.sha256), adminBearer), 403);

  // A new version of the template supersedes the copy reviewed: 409 naming the current one.
  await seedNdaTemplate({ path: server.databasePath }, { number: 2 });
  const superseded = await sign(signature(offered.copy!.sha256), investor.bearer);
  expectStatus(superseded, 409);
  expect(JSON.parse(superseded.body)).toMatchObject({ message: expect.stringContaining("(version 2)") });
  const current = await stateOf(investor.bearer);
  expect(current.copy!.templateVersion).toBe(2);
  const signed = await sign(signature(current.copy!.sha256), investor.bearer);
  expectStatus(signed, 201);
  expect(JSON.parse(signed.body) as Shapes["NdaSignAnswer"]).toMatchObject({ completed: false });
  expectStatus(await sign(signature(current.copy!.sha256), investor.bearer), 409);

  // With a second factor: a wrong code is 401, wrong codes lock the step (423), one address's many codes 429.
  const factorCopy = (await stateOf(factorInvestor.bearer)).copy!.sha256;
  expectStatus(await postAs("/api/nda/consent", { agree: true }, factorInvestor.bearer), 201);
  const wrongCode = signature(factorCopy, { code: "000000" });
  expectStatus(await sign(wrongCode, factorInvestor.bearer), 401);
  let locked: RawAnswer | undefined;
  for (let attempt = 0; attempt < 8 && locked?.status !== 423; attempt++) {
    locked = await sign(wrongCode, factorInvestor.bearer);
    expect([401, 423]).toContain(locked.status);
  }
  expectStatus(locked!, 423);
  const crowded = freshAddress();
  let crowdedOut: RawAnswer | undefined;
  for (let attempt = 0; attempt < 15 && crowdedOut?.status !== 429; attempt++) {
    crowdedOut = await sign(wrongCode, factorInvestor.bearer, crowded);
    expect([401, 423, 429]).toContain(crowdedOut.status);
  }
  expectStatus(crowdedOut!, 429);

  // The countersignature: refused for an NDA not signed, an investor's token, no token, an empty id; then given, once.
  const signerId = userId(signer.email);
  const countersign = (investorId: string, token?: string) => postAs("/api/nda/countersign", { investorId }, token);
  expectStatus(await countersign(userId(withFactor.email), adminBearer), 409);
  expectStatus(await countersign(signerId, investor.bearer), 403);
  expectStatus(await countersign(signerId), 401);
  expectStatus(await countersign("", adminBearer), 400);
  const countersigned = await countersign(signerId, adminBearer);
  expectStatus(countersigned, 201);
  expect(JSON.parse(countersigned.body) as Shapes["NdaSignAnswer"]).toMatchObject({ completed: true });
  expectStatus(await countersign(signerId, adminBearer), 409);

  // The record: read; no id; an unknown one; no token; an investor's.
  const record = await get(`/api/nda/record?investorId=${signerId}`, adminBearer);
  expectStatus(record, 200);
  expect(JSON.parse(record.body) as Shapes["NdaRecord"]).toMatchObject({
    templateVersion: 2,
    signature: { completedSha256: (JSON.parse(countersigned.body) as Shapes["NdaSignAnswer"]).sha256 },
  });
  expectStatus(await get("/api/nda/record?investorId=", adminBearer), 400);
  expectStatus(await get("/api/nda/record?investorId=00000000-0000-4000-8000-000000000000", adminBearer), 404);
  expectStatus(await get(`/api/nda/record?investorId=${signerId}`), 401);
  expectStatus(await get(`/api/nda/record?investorId=${signerId}`, investor.bearer), 403);

  // What they signed, the fully signed file now.
  const kept = await get("/api/nda/document", investor.bearer);
  expectStatus(kept, 200);
  expect(kept.headers["content-type"]).toBe("application/pdf");
});

test("every call with a body refuses bad JSON (400), another site (403), chunks (411), a large body (413), another type (415)", async () => {
  const investor = await apiLogin(INVESTOR);
  const signedBearer = (await apiLogin(SENT_INVESTOR)).bearer;
  for (const [path, operations] of Object.entries(servedDocument.paths)) {
    const operation = operations.post as { requestBody?: { content: Record<string, unknown> } } | undefined;
    // The uploads (multipart) have their own refusals, provoked by the materials test above.
    if (!operation?.requestBody?.content["application/json"]) continue;
    const forAdministrators = ["update_nda", "nda/countersign", "delete", "answer", "close", "verifications"].some(
      (part) => path.includes(part),
    );
    const forSignedInvestor = ["questions", "interest", "qualification"].some((part) => path.includes(part));
    const headers = bearer(forAdministrators ? adminBearer : forSignedInvestor ? signedBearer : investor.bearer);
    const raw = (body: string, extra: Record<string, string> = {}) =>
      send({ method: "POST", path, headers: { "Content-Type": "application/json", ...headers, ...extra }, body });
    expectStatus(await raw("{not json"), 400);
    expectStatus(await raw("{}", { Origin: FOREIGN_ORIGIN }), 403);
    const chunked = await send({
      method: "POST",
      path,
      headers: { "Content-Type": "application/json", ...headers },
      body: "{}",
      chunked: true,
    });
    expectStatus(chunked, 411);
    expectStatus(await raw(JSON.stringify({ padding: "x".repeat(AUTH_BODY_LIMIT_BYTES) })), 413);
    expectStatus(await raw("email=a", { "Content-Type": "text/plain" }), 415);
  }
});

test("a database busy past its timeout (SQLite's write lock held): 503 with Retry-After on every call that writes", async () => {
  test.setTimeout(150_000);
  // What each call needs to reach its write: a live verification link, tokens, an investor to change.
  const waiting = { email: "contract-waiting@example.com", password: PASSWORD };
  expectStatus(await post("/api/auth/register", waiting), 201);
  const verifyToken = await mailToken(waiting.email, /verify/i);
  const investor = await apiLogin(INVESTOR);
  const target = { email: "contract-target@example.com", password: PASSWORD };
  await registerVerified(target);
  const targetId = userId(target.email);

  const calls: { operation: string; request: () => Promise<RawAnswer> }[] = [
    {
      operation: "register",
      request: () => post("/api/auth/register", { email: "contract-busy@example.com", password: PASSWORD }),
    },
    { operation: "verifyEmail", request: () => send({ method: "GET", path: `/api/auth/verify/${verifyToken}` }) },
    { operation: "login", request: () => post("/api/auth/login", INVESTOR) },
    {
      operation: "refreshToken",
      request: () => send({ method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: investor.refresh } }),
    },
    {
      operation: "logout",
      request: () => send({ method: "POST", path: "/api/auth/logout", headers: bearer(investor.bearer) }),
    },
    {
      operation: "forgotPassword",
      request: () => send({ method: "GET", path: `/api/auth/forgot-password/${target.email}` }),
    },
    {
      operation: "resetPassword",
      request: () => post("/api/auth/reset-password", { newPasswordToken: "unknown", newPassword: PASSWORD }),
    },
    {
      operation: "setNameAddress",
      request: () =>
        post(
          "/api/user/set_name_address",
          { email: target.email, full_name: "Busy", address: "1 Busy Road" },
          bearer(adminBearer),
        ),
    },
    {
      operation: "updateNdaSent",
      request: () => post("/api/user/update_nda_sent", { email: target.email, state: true }, bearer(adminBearer)),
    },
    {
      operation: "updateNdaSigned",
      request: () => post("/api/user/update_nda_signed", { email: target.email, state: true }, bearer(adminBearer)),
    },
    {
      operation: "deleteInvestor",
      request: () => post("/api/user/delete_investor", { id: targetId }, bearer(adminBearer)),
    },
  ];
  // Every call documents a 503. These are the ones that write a JSON body's change; SQLite's lock does not
  // stop a read, and the uploads write in steps of their own: both answer it in the PostgreSQL test below.
  const documented = checker.documentedAnswers();
  for (const call of calls) expect(documented).toContain(`${call.operation} 503`);

  const holder = new Database(server.databasePath);
  try {
    holder.exec("begin immediate");
    for (const call of calls) expectStatus(await call.request(), 503);
  } finally {
    holder.exec("rollback");
    holder.close();
  }
  // Nothing was half done: the investor is still there and unchanged.
  const row = withDatabaseFile(server.databasePath, (db) =>
    db.prepare("select full_name, is_nda_sent from users where id = ?").get(targetId),
  );
  expect(row).toEqual({ full_name: "", is_nda_sent: 0 });
});

test("the database out of reach (PostgreSQL down): 503 with Retry-After on every call, reads too", async () => {
  test.setTimeout(60_000);
  const port = process.env.CONTRACT_POSTGRES_PORT || "25437";
  const onPostgres = await startPrivateServer({
    name: "api-contract-postgres",
    env: { TRUST_PROXY: "1", DATABASE_URL: await createDatabase(startCluster(port), "contract") },
  });
  try {
    const token = bearer("A".repeat(43));
    const json = { "Content-Type": "application/json", ...token };
    const upload = { "Content-Type": "multipart/form-data; boundary=part", ...token };
    const parts = '--part\r\nContent-Disposition: form-data; name="title"\r\n\r\nTerms\r\n--part--\r\n';
    // One request a call, each one the call reads the database for (a token, a link, the client's count).
    const requests: Record<string, RawRequest> = {
      register: { method: "POST", path: "/api/auth/register", headers: json, body: JSON.stringify(INVESTOR) },
      verifyEmail: { method: "GET", path: `/api/auth/verify/${"A".repeat(43)}` },
      login: { method: "POST", path: "/api/auth/login", headers: json, body: JSON.stringify(INVESTOR) },
      refreshToken: { method: "POST", path: "/api/auth/refresh_token", headers: { Cookie: "__refresh=x" } },
      logout: { method: "POST", path: "/api/auth/logout", headers: token },
      forgotPassword: { method: "GET", path: `/api/auth/forgot-password/${INVESTOR.email}` },
      resetPassword: {
        method: "POST",
        path: "/api/auth/reset-password",
        headers: json,
        body: JSON.stringify({ newPasswordToken: "unknown", newPassword: PASSWORD }),
      },
      getInvestors: { method: "GET", path: "/api/user/get_investors", headers: token },
      getInvestor: { method: "GET", path: "/api/user/get_investor?id=x", headers: token },
      setNameAddress: {
        method: "POST",
        path: "/api/user/set_name_address",
        headers: json,
        body: JSON.stringify({ email: INVESTOR.email, full_name: "Down", address: "1 Down Road" }),
      },
      updateNdaSent: { method: "POST", path: "/api/user/update_nda_sent", headers: json, body: '{"state":true}' },
      updateNdaSigned: { method: "POST", path: "/api/user/update_nda_signed", headers: json, body: '{"state":true}' },
      deleteInvestor: { method: "POST", path: "/api/user/delete_investor", headers: json, body: '{"id":"x"}' },
      getAuditLog: { method: "GET", path: "/api/audit", headers: token },
      listMaterials: { method: "GET", path: "/api/materials", headers: token },
      uploadMaterial: { method: "POST", path: "/api/materials", headers: upload, body: parts },
      addMaterialVersion: { method: "POST", path: "/api/materials/x/versions", headers: upload, body: parts },
      getReadingReport: { method: "GET", path: "/api/materials/report", headers: token },
      getMaterialReaders: { method: "GET", path: "/api/materials/x/readers", headers: token },
      listOwnQuestions: { method: "GET", path: "/api/questions", headers: token },
      askQuestion: { method: "POST", path: "/api/questions", headers: json, body: '{"body":"Open?"}' },
      listPublishedAnswers: { method: "GET", path: "/api/questions/published", headers: token },
      getQuestionQueue: { method: "GET", path: "/api/questions/queue", headers: token },
      answerQuestion: { method: "POST", path: "/api/questions/x/answer", headers: json, body: '{"privateAnswer":"x"}' },
      closeQuestion: { method: "POST", path: "/api/questions/x/close", headers: json, body: "{}" },
      getQualification: { method: "GET", path: "/api/qualification", headers: token },
      stateQualification: { method: "POST", path: "/api/qualification", headers: json, body: "{}" },
      recordVerification: { method: "POST", path: "/api/investors/x/verifications", headers: json, body: "{}" },
      getInterest: { method: "GET", path: "/api/interest", headers: token },
      indicateInterest: { method: "POST", path: "/api/interest", headers: json, body: '{"amount":1}' },
      withdrawInterest: { method: "POST", path: "/api/interest/withdraw", headers: json, body: "{}" },
      getPipeline: { method: "GET", path: "/api/pipeline", headers: token },
      getNda: { method: "GET", path: "/api/nda", headers: token },
      consentToElectronicRecords: { method: "POST", path: "/api/nda/consent", headers: json, body: '{"agree":true}' },
      signNda: { method: "POST", path: "/api/nda/sign", headers: json, body: '{"typedName":"Down"}' },
      getNdaDocument: { method: "GET", path: "/api/nda/document", headers: token },
      countersignNda: { method: "POST", path: "/api/nda/countersign", headers: json, body: '{"investorId":"x"}' },
      getNdaRecord: { method: "GET", path: "/api/nda/record?investorId=x", headers: token },
    };
    expect(
      Object.keys(requests)
        .map((call) => `${call} 503`)
        .sort(),
    ).toEqual(
      checker
        .documentedAnswers()
        .filter((answer) => answer.endsWith(" 503"))
        .sort(),
    );
    switchCluster(port, "down");
    try {
      for (const [call, request] of Object.entries(requests)) {
        const answer = await send({ ...request, to: onPostgres });
        expect(answer.status, `${call}: ${answer.body.slice(0, 200)}`).toBe(503);
      }
    } finally {
      // Back up, for the end of the server's run to read its database (the log's scan for secrets).
      switchCluster(port, "up");
    }
  } finally {
    await onPostgres.dispose();
    stopCluster(port);
  }
});

test("every answer the document describes was provoked and held to it, by the contract check and by Prism", () => {
  expect(checker.unseenAnswers()).toEqual([]);
  // Prism read every exchange but those it cannot carry: malformed JSON, sent straight to the server.
  expect(prism.counts.judged).toBeGreaterThan(checker.documentedAnswers().length);
  for (const unread of prism.counts.unread) expect(unread).toMatch(/: (malformed JSON|a name given twice)$/);
});
