import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import type Database from "better-sqlite3";
import { AUTH_BODY_LIMIT_BYTES, PAGE_BODY_LIMIT_BYTES } from "~/content/constants";
import { PDF_FORM_BODY_LIMIT_BYTES } from "~/http/security.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { contractChecker, type OpenApi } from "../support/api-contract";
import { withDatabaseFile } from "../support/database-file";
import { unusedTotpCode } from "../support/totp";
import {
  badCasesFor,
  SCRIPT,
  SOME_PASSKEY_ANSWER,
  SQL,
  type BadCase,
  type Credentials,
  type Refusal,
  type RouteUnderTest,
} from "./support/bad-input-catalogue";
import { openDatabaseDigest } from "./support/database-digest";
import { startPrivateServer, type PrivateServer } from "./support/private-server";
import {
  cookiePair,
  honeypotFieldsOf,
  messageOf,
  sendRaw,
  toastOf,
  type RawAnswer,
  type RawRequest,
} from "./support/raw-http";

/**
 * The bad-input sweep (docs/requirements.md, "Security and reliability"): its catalogue sent to every
 * POST route (page actions included) and every /api endpoint of the built
 * server, through server.js, on a private database and SMTP catcher. For each
 * case: a refusal by design (a 4xx with a clear message; for pages also the
 * login page or an error notice, and a bot's decoy success), never a 5xx,
 * no change in any table (digest before and after), and no e-mail.
 */

test.describe.configure({ mode: "serial" });

const PASSWORD = "Sweep-Valid-Passphrase-31";
const ADMIN = { email: "sweep-admin@example.com", password: "Sweep-Admin-Passphrase-31" };
const INVESTOR = { email: "sweep-investor@example.com", password: PASSWORD };
const TARGET = { email: "sweep-target@example.com", password: PASSWORD };
const UNVERIFIED = { email: "sweep-unverified@example.com", password: PASSWORD };
const LOGOUT_INVESTOR = { email: "sweep-logout@example.com", password: PASSWORD };
/** An investor who gave a name and address, the NDA not sent yet: the correction form is theirs. */
const DETAILS_INVESTOR = { email: "sweep-details@example.com", password: PASSWORD };
/** A challenge id of the right shape that no passkey ceremony was given. */
const UNKNOWN_CHALLENGE = "C".repeat(43);
/** A passkey ceremony's answer (sign-in or registration): a challenge no ceremony was given, and an unsigned answer. */
const PASSKEY_ANSWER_FIELDS: RouteUnderTest["fields"] = {
  challengeId: { kind: "token", value: UNKNOWN_CHALLENGE },
  response: { kind: "passkey-answer", value: SOME_PASSKEY_ANSWER },
};

let server: PrivateServer;
/** The OpenAPI document the server serves: every refusal of a documented call must be one it describes. */
let contract: ReturnType<typeof contractChecker>;
let digest: ReturnType<typeof openDatabaseDigest>;
const triedPerRoute = new Map<string, number>();
let heldToDocument = 0;

/** What the setup gathers: sessions, tokens, ids, and the live one-time tokens that no case may spend. */
type World = {
  adminCookie: string;
  adminBearer: string;
  investorCookie: string;
  investorBearer: string;
  investorRefresh: string;
  logoutCookie: string;
  logoutBearer: string;
  /** DETAILS_INVESTOR's session, fresh from the password: "sudo mode" is open. */
  detailsCookie: string;
  expiredCookie: string;
  expiredBearer: string;
  revokedBearer: string;
  targetId: string;
  adminId: string;
  /** A document of the library (the first of those migration 016 seeds). */
  documentId: string;
  verifyToken: string;
  resetToken: string;
  /** A pending invitation to become an administrator. */
  invitationToken: string;
  honeypot: Record<string, Record<string, string>>;
  /** A login's pending code step (the administrator's right password, no code yet). */
  codeStepCookie: string;
  /** get_investors' nextCursor after the first investor. */
  investorCursor: string;
};
let world: World;

const send = (request: RawRequest) => sendRaw(server.url, request);
const json = (data: unknown, headers: Record<string, string> = {}): Omit<RawRequest, "method" | "path"> => ({
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(data),
});
const form = (data: Record<string, string>): Omit<RawRequest, "method" | "path"> => ({
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(data).toString(),
});

async function mailTo(email: string, subject: RegExp) {
  const mail = await server.smtp.mailTo(email, subject, 10_000);
  return mail.text.match(/https?:\/\/\S+\/([A-Za-z0-9_-]{43})\b/)![1];
}

/** The administrator's authenticator app (set when the administrator is made). */
let adminTotpSecret = "";
const codeFor = async (account: { email: string }) =>
  account.email === ADMIN.email ? { code: await unusedTotpCode(adminTotpSecret) } : {};

async function apiLogin(account: { email: string; password: string }) {
  const answer = await send({
    method: "POST",
    path: "/api/auth/login",
    ...json({ ...account, ...(await codeFor(account)) }),
  });
  expect(answer.status, answer.body).toBe(200);
  return {
    bearer: (JSON.parse(answer.body) as { accessToken: string }).accessToken,
    refresh: cookiePair(answer, "__refresh")!,
  };
}

async function pageLogin(account: { email: string; password: string }) {
  const answer = await send({ method: "POST", path: "/financing/login", ...form(account) });
  expect(answer.status, answer.body).toBe(302);
  const code = await codeFor(account);
  if (!code.code) return cookiePair(answer, "__session")!;
  // The administrator's second step: the code, with the pending step's cookie.
  const step = cookiePair(answer, "__login_step")!;
  const done = await send({ method: "POST", path: "/financing/login/code", ...withCookie(form(code), step) });
  expect(done.status, done.body).toBe(302);
  return cookiePair(done, "__session")!;
}

/** Only the password step of an account with a second factor: its pending step's cookie. */
async function passwordStep(account: { email: string; password: string }) {
  const answer = await send({ method: "POST", path: "/financing/login", ...form(account) });
  expect(answer.headers.location, answer.body).toBe("/financing/login/code");
  return cookiePair(answer, "__login_step")!;
}

function withCookie(request: Omit<RawRequest, "method" | "path">, cookie: string) {
  return { ...request, headers: { ...request.headers, Cookie: cookie } };
}

async function registerVerified(account: { email: string; password: string }) {
  expect((await send({ method: "POST", path: "/api/auth/register", ...json(account) })).status).toBe(201);
  const token = await mailTo(account.email, /verify/i);
  expect((await send({ method: "GET", path: `/api/auth/verify/${token}` })).status).toBe(200);
}

/** The setup's own look into the file, and what no request can do (expire a session now). */
function inDatabase<T>(work: (db: Database.Database) => T): T {
  return withDatabaseFile(server.databasePath, work);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Many requests from one address: the per-address auth limit would answer 429 before the input is looked at.
  server = await startPrivateServer({ name: "bad-input", env: { AUTH_RATE_LIMIT_PER_MINUTE: "100000" } });
  contract = contractChecker(JSON.parse((await send({ method: "GET", path: "/api/openapi.json" })).body) as OpenApi);
  adminTotpSecret = await server.createAdministrator(ADMIN.email, ADMIN.password);
  for (const account of [INVESTOR, TARGET, LOGOUT_INVESTOR, DETAILS_INVESTOR]) await registerVerified(account);
  inDatabase((db) =>
    db
      .prepare("update users set full_name = 'Sweep Details', address = '1 Sweep Street' where email = ?")
      .run(DETAILS_INVESTOR.email),
  );
  expect((await send({ method: "POST", path: "/api/auth/register", ...json(UNVERIFIED) })).status).toBe(201);
  const verifyToken = await mailTo(UNVERIFIED.email, /verify/i);
  expect((await send({ method: "GET", path: `/api/auth/forgot-password/${TARGET.email}` })).status).toBe(200);
  const resetToken = await mailTo(TARGET.email, /reset/i);

  const admin = await apiLogin(ADMIN);
  const investor = await apiLogin(INVESTOR);
  const logout = await apiLogin(LOGOUT_INVESTOR);
  const revoked = await apiLogin(INVESTOR);
  expect(
    (await send({ method: "POST", path: "/api/auth/logout", headers: { Authorization: `Bearer ${revoked.bearer}` } }))
      .status,
  ).toBe(200);
  const expired = await apiLogin(INVESTOR);
  const expiredCookie = await pageLogin(INVESTOR);
  const ids = inDatabase((db) => {
    db.prepare("update api_tokens set expires_at = 1 where token_hash = ?").run(hashSecretToken(expired.bearer));
    const rows = db.prepare("select email, id from users").all() as { email: string; id: string }[];
    return Object.fromEntries(rows.map((row) => [row.email, row.id]));
  });
  inDatabase((db) =>
    db
      .prepare(
        "update sessions set expires_at = 1 where user_id = ? and created_at = (select max(created_at) from sessions)",
      )
      .run(ids[INVESTOR.email]),
  );

  const honeypot: World["honeypot"] = {};
  for (const page of ["/contact", "/financing/signup", "/financing/forgotpassword", "/financing/verify-email"]) {
    honeypot[page] = honeypotFieldsOf((await send({ method: "GET", path: page })).body);
  }
  expect(Object.keys(honeypot["/contact"])).toHaveLength(2);

  world = {
    adminCookie: await pageLogin(ADMIN),
    codeStepCookie: await passwordStep(ADMIN),
    adminBearer: admin.bearer,
    investorCookie: await pageLogin(INVESTOR),
    investorBearer: investor.bearer,
    investorRefresh: investor.refresh,
    logoutCookie: await pageLogin(LOGOUT_INVESTOR),
    detailsCookie: await pageLogin(DETAILS_INVESTOR),
    logoutBearer: logout.bearer,
    expiredCookie,
    expiredBearer: expired.bearer,
    revokedBearer: revoked.bearer,
    targetId: ids[TARGET.email],
    adminId: ids[ADMIN.email],
    documentId: inDatabase(
      (db) => (db.prepare("select id from documents order by position limit 1").get() as { id: string }).id,
    ),
    verifyToken,
    resetToken,
    invitationToken: "",
    honeypot,
    investorCursor: (
      JSON.parse(
        (
          await send({
            method: "GET",
            path: "/api/user/get_investors?limit=1",
            headers: { Authorization: `Bearer ${admin.bearer}` },
          })
        ).body,
      ) as { nextCursor: string }
    ).nextCursor,
  };
  const invited = await send({
    method: "POST",
    path: "/financing/admins",
    ...withCookie(form({ intent: "invite", email: "sweep-invitee@example.com" }), world.adminCookie),
  });
  expect(invited.status).toBe(302);
  world.invitationToken = await mailTo("sweep-invitee@example.com", /invited to administer/i);
  // The administrator has opened the authenticator's set-up page, as anyone who sends its form has: the
  // secret it shows is made then (a row of the session's), not by the form's answers.
  expect(
    (await send({ method: "GET", path: "/financing/security/authenticator", headers: { Cookie: world.adminCookie } }))
      .status,
  ).toBe(200);
  digest = openDatabaseDigest(server.databasePath);
});

test.afterAll(async () => {
  digest?.close();
  await server?.dispose();
  if (triedPerRoute.size > 0) {
    const total = [...triedPerRoute.values()].reduce((sum, n) => sum + n, 0);
    const lines = [...triedPerRoute].map(([route, n]) => `  ${String(n).padStart(4)}  ${route}`);
    console.log(
      `Bad-input sweep: ${total} cases over ${triedPerRoute.size} routes, ${heldToDocument} API answers held to the OpenAPI document\n${lines.join("\n")}`,
    );
  }
});

/** Someone with no right, or broken credentials, for a route that wants a session cookie. */
function wrongCookies(refusals: Refusal[] = ["to-login"]) {
  const tampered = world.investorCookie.slice(0, -3) + (world.investorCookie.endsWith("AAA") ? "BBB" : "AAA");
  return [
    { label: "no session", credentials: { kind: "none" } as Credentials, refusals },
    {
      label: "a garbage session cookie",
      credentials: { kind: "cookie", cookie: "__session=garbage" } as Credentials,
      refusals,
    },
    { label: "a tampered session cookie", credentials: { kind: "cookie", cookie: tampered } as Credentials, refusals },
    {
      label: "an expired session",
      credentials: { kind: "cookie", cookie: world.expiredCookie } as Credentials,
      refusals,
    },
    {
      label: "the refresh token as the session cookie",
      credentials: { kind: "cookie", cookie: `__session=${world.investorRefresh.split("=")[1]}` } as Credentials,
      refusals,
    },
    {
      label: "a bearer token instead of the cookie",
      credentials: { kind: "bearer", token: world.investorBearer } as Credentials,
      refusals,
    },
  ];
}

/** Someone with no right, or a broken token, for an API route that wants a bearer token. */
function wrongBearers(forAdministrators: boolean) {
  const flipped = (world.investorBearer[0] === "A" ? "B" : "A") + world.investorBearer.slice(1);
  const list: { label: string; credentials: Credentials }[] = [
    { label: "no token", credentials: { kind: "none" } },
    { label: "an empty bearer", credentials: { kind: "bearer", token: "" } },
    { label: "a garbage bearer", credentials: { kind: "bearer", token: "garbage" } },
    { label: "a tampered bearer", credentials: { kind: "bearer", token: flipped } },
    { label: "an expired bearer", credentials: { kind: "bearer", token: world.expiredBearer } },
    { label: "a revoked bearer", credentials: { kind: "bearer", token: world.revokedBearer } },
    {
      label: "the refresh token as a bearer",
      credentials: { kind: "bearer", token: world.investorRefresh.split("=")[1] },
    },
    { label: "SQL as a bearer", credentials: { kind: "bearer", token: SQL } },
    { label: "the session cookie instead of a bearer", credentials: { kind: "cookie", cookie: world.adminCookie } },
  ];
  if (forAdministrators)
    list.push({ label: "an investor's bearer", credentials: { kind: "bearer", token: world.investorBearer } });
  return list;
}

/** The routes under test, with a valid request each; built after the setup, which provides the ids and tokens. */
function routes(): (RouteUnderTest & { extraCases?: BadCase[] })[] {
  const contact = (path: string): RouteUnderTest & { extraCases?: BadCase[] } => {
    const route: RouteUnderTest = {
      name: `POST ${path}`,
      method: "POST",
      path,
      body: "form",
      fields: {
        firstName: { kind: "name", value: "Ada" },
        lastName: { kind: "name", value: "Lovelace" },
        email: { kind: "email", value: "ada@example.com" },
        message: { kind: "message", value: "Please send the fee schedule." },
      },
      hiddenFields: world.honeypot["/contact"],
      credentials: { kind: "none" },
      bodyLimit: PAGE_BODY_LIMIT_BYTES,
    };
    return { ...route, extraCases: honeypotCases(route, ["4xx"]) };
  };
  const emailRequest = (path: string): RouteUnderTest & { extraCases?: BadCase[] } => {
    const route: RouteUnderTest = {
      name: `POST ${path}`,
      method: "POST",
      path,
      body: "form",
      fields: { email: { kind: "email", value: "sweep-nobody@example.com" } },
      hiddenFields: world.honeypot[path],
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    };
    return { ...route, extraCases: honeypotCases(route, ["decoy"]) };
  };
  const signup: RouteUnderTest = {
    name: "POST /financing/signup",
    method: "POST",
    path: "/financing/signup",
    body: "form",
    fields: {
      email: { kind: "email", value: "sweep-new@example.com" },
      password: { kind: "new-password", value: PASSWORD },
      confirmPassword: { kind: "confirm-password", value: PASSWORD },
    },
    hiddenFields: world.honeypot["/financing/signup"],
    credentials: { kind: "none" },
    bodyLimit: AUTH_BODY_LIMIT_BYTES,
  };
  const resetPage: RouteUnderTest = {
    name: "POST /financing/resetpassword/:token",
    method: "POST",
    path: "/financing/resetpassword/:token",
    params: { token: { kind: "token", value: world.resetToken } },
    extraValues: { token: [{ label: "a verification token (wrong purpose)", value: world.verifyToken }] },
    body: "form",
    fields: {
      password: { kind: "new-password", value: "A-new-passphrase-for-sweep" },
      confirmPassword: { kind: "confirm-password", value: "A-new-passphrase-for-sweep" },
    },
    credentials: { kind: "none" },
    bodyLimit: AUTH_BODY_LIMIT_BYTES,
  };
  // The administrator's page actions: a session cookie, the investor in the path, failures sent back with a notice.
  const administratorPage = {
    method: "POST",
    body: "form",
    params: { id: { kind: "id", value: world.targetId } },
    extraValues: { id: [{ label: "an administrator's id", value: world.adminId }] },
    credentials: { kind: "cookie", cookie: world.adminCookie },
    wrongCredentials: [
      ...wrongCookies(),
      { label: "an investor's session", credentials: { kind: "cookie", cookie: world.investorCookie } },
    ],
    bodyLimit: AUTH_BODY_LIMIT_BYTES,
    fieldRefusals: ["error-notice"],
  } satisfies Partial<RouteUnderTest>;
  const ndaFlag = (path: string): RouteUnderTest => ({
    name: `POST ${path}`,
    method: "POST",
    path,
    body: "json",
    fields: { email: { kind: "email", value: TARGET.email }, state: { kind: "flag", value: true } },
    extraValues: {
      email: [
        { label: "an unknown address", value: "sweep-nobody@example.com" },
        { label: "an administrator's address", value: ADMIN.email },
      ],
    },
    credentials: { kind: "bearer", token: world.adminBearer },
    wrongCredentials: wrongBearers(true),
    bodyLimit: AUTH_BODY_LIMIT_BYTES,
  });

  return [
    contact("/contact"),
    contact("/contactus"),
    contact("/home"),
    contact("/?index"),
    { ...signup, extraCases: honeypotCases(signup, ["decoy"]) },
    {
      name: "POST /financing/login",
      method: "POST",
      path: "/financing/login",
      body: "form",
      fields: {
        email: { kind: "email", value: INVESTOR.email },
        password: { kind: "login-password", value: INVESTOR.password },
      },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    emailRequest("/financing/forgotpassword"),
    emailRequest("/financing/verify-email"),
    resetPage,
    {
      name: "POST /financing?index (name and address)",
      method: "POST",
      path: "/financing?index",
      body: "form",
      fields: {
        fullName: { kind: "name", value: "Sweep Investor" },
        addressLine1: { kind: "address-line", value: "1 Main Street" },
      },
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing?index (a correction of the details)",
      method: "POST",
      path: "/financing?index",
      body: "form",
      fields: {
        fullName: { kind: "name", value: "Sweep Details" },
        address: { kind: "address", value: "1 Sweep Street" },
      },
      hiddenFields: { intent: "correct" },
      credentials: { kind: "cookie", cookie: world.detailsCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/data (download my data)",
      method: "POST",
      path: "/financing/security/data",
      body: "form",
      fields: {},
      acceptsEmptyForm: true,
      credentials: { kind: "cookie", cookie: world.detailsCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      ...administratorPage,
      name: "POST /financing/investors/:id",
      path: "/financing/investors/:id",
      // The page's form that marks an NDA completed by hand takes a signed copy: a PDF's worth of body.
      bodyLimit: PDF_FORM_BODY_LIMIT_BYTES,
      fields: { intent: { kind: "choice", value: "nda-sent" }, state: { kind: "choice", value: "yes" } },
      // A malformed id is a bad address (400, said on the page); a bad field goes back with a notice.
      fieldRefusals: ["error-notice", "4xx"],
    },
    {
      ...administratorPage,
      name: "POST /financing/library (move)",
      path: "/financing/library",
      params: undefined,
      extraValues: undefined,
      fields: { intent: { kind: "choice", value: "down" }, documentId: { kind: "id", value: world.documentId } },
      fieldRefusals: ["4xx"],
    },
    {
      ...administratorPage,
      name: "POST /financing/library/:id (title and description)",
      path: "/financing/library/:id",
      params: { id: { kind: "id", value: world.documentId } },
      extraValues: undefined,
      fields: { intent: { kind: "choice", value: "details" }, title: { kind: "name", value: "Sweep title" } },
      fieldRefusals: ["4xx"],
    },
    {
      ...administratorPage,
      name: "POST /financing/library/:id (audience)",
      path: "/financing/library/:id",
      params: { id: { kind: "id", value: world.documentId } },
      extraValues: {
        chosen: [
          { label: "an administrator's address", value: ADMIN.email },
          { label: "an unknown address", value: "sweep-nobody@example.com" },
        ],
      },
      fields: {
        intent: { kind: "choice", value: "audience" },
        audience: { kind: "choice", value: "chosen" },
        chosen: { kind: "email", value: INVESTOR.email },
      },
      fieldRefusals: ["4xx"],
    },
    {
      ...administratorPage,
      name: "POST /financing/investors/:id/delete",
      path: "/financing/investors/:id/delete",
      fields: {},
      acceptsEmptyForm: true,
    },
    {
      name: "POST /financing/invitation/:token",
      method: "POST",
      path: "/financing/invitation/:token",
      params: { token: { kind: "token", value: world.invitationToken } },
      extraValues: { token: [{ label: "a reset token (another kind of link)", value: world.resetToken }] },
      body: "form",
      fields: {
        password: { kind: "new-password", value: "A-new-passphrase-for-sweep" },
        confirmPassword: { kind: "confirm-password", value: "A-new-passphrase-for-sweep" },
      },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/admins (invite)",
      method: "POST",
      path: "/financing/admins",
      body: "form",
      fields: {
        intent: { kind: "choice", value: "invite" },
        email: { kind: "email", value: "sweep-second-invitee@example.com" },
      },
      extraValues: {
        email: [
          { label: "an administrator's address", value: ADMIN.email },
          { label: "an investor's address", value: INVESTOR.email },
        ],
      },
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: [
        ...wrongCookies(),
        { label: "an investor's session", credentials: { kind: "cookie", cookie: world.investorCookie } },
      ],
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/admins (remove)",
      method: "POST",
      path: "/financing/admins",
      body: "form",
      fields: {
        intent: { kind: "choice", value: "remove" },
        id: { kind: "id", value: world.targetId },
        confirm: { kind: "choice", value: "remove" },
      },
      extraValues: { id: [{ label: "the last administrator's own id", value: world.adminId }] },
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: [
        ...wrongCookies(),
        { label: "an investor's session", credentials: { kind: "cookie", cookie: world.investorCookie } },
      ],
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/login/code",
      method: "POST",
      path: "/financing/login/code",
      body: "form",
      // Well-formed, so only the variants' own faults are refused (a wrong code would count towards the lock).
      fields: { code: { kind: "code", value: "123456" } },
      credentials: { kind: "cookie", cookie: world.codeStepCookie },
      // Without a pending step the action refuses (401); the page, rendered for a browser, sends the visitor to log in.
      wrongCredentials: [
        { label: "no pending step", credentials: { kind: "none" }, refusals: ["to-login"] },
        {
          label: "a garbage step cookie",
          credentials: { kind: "cookie", cookie: "__login_step=garbage" },
          refusals: ["to-login"],
        },
        {
          label: "the session id as the step cookie",
          credentials: { kind: "cookie", cookie: `__login_step=${world.investorCookie.split("=")[1]}` },
          refusals: ["to-login"],
        },
      ],
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security (confirm it's you)",
      method: "POST",
      path: "/financing/security",
      body: "form",
      // Well-formed, so only the variants' own faults are refused (a wrong code would count towards the lock).
      fields: {
        intent: { kind: "choice", value: "confirm" },
        password: { kind: "login-password", value: ADMIN.password },
        code: { kind: "code", value: "123456" },
      },
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security (a change it opens)",
      method: "POST",
      path: "/financing/security",
      body: "form",
      fields: {
        intent: { kind: "choice", value: "remove-passkey" },
        passkeyId: { kind: "id", value: "no-such-passkey" },
      },
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: [
        ...wrongCookies(),
        { label: "an investor without a second factor", credentials: { kind: "cookie", cookie: world.investorCookie } },
      ],
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/sessions",
      method: "POST",
      path: "/financing/security/sessions",
      body: "form",
      // A session id of no session of the account's: even the valid request changes nothing (404).
      fields: {
        intent: { kind: "choice", value: "sign-out" },
        sessionId: { kind: "id", value: "0".repeat(32) },
      },
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/login/passkey-options",
      method: "POST",
      path: "/financing/login/passkey-options",
      body: "json",
      fields: { secondStep: { kind: "flag", value: false, optional: true } },
      acceptsEmptyForm: true,
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/login/passkey",
      method: "POST",
      path: "/financing/login/passkey",
      body: "json",
      fields: PASSKEY_ANSWER_FIELDS,
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/authenticator",
      method: "POST",
      path: "/financing/security/authenticator",
      body: "form",
      fields: {
        intent: { kind: "choice", value: "enrol" },
        code: { kind: "code", value: "123456" },
      },
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/confirm-passkey-options",
      method: "POST",
      path: "/financing/security/confirm-passkey-options",
      body: "json",
      fields: {},
      acceptsEmptyForm: true,
      credentials: { kind: "cookie", cookie: world.adminCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/passkey-options",
      method: "POST",
      path: "/financing/security/passkey-options",
      body: "json",
      fields: {},
      acceptsEmptyForm: true,
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/passkeys",
      method: "POST",
      path: "/financing/security/passkeys",
      body: "json",
      fields: PASSKEY_ANSWER_FIELDS,
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/recovery-codes (continue)",
      method: "POST",
      path: "/financing/security/recovery-codes",
      body: "form",
      fields: {
        intent: { kind: "choice", value: "continue" },
        codes: { kind: "token", value: "abcde-fghjk mnpqr-stvwx" },
        next: { kind: "choice", value: "/financing" },
        saved: { kind: "choice", value: "on" },
      },
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/security/recovery-codes.txt",
      method: "POST",
      path: "/financing/security/recovery-codes.txt",
      body: "form",
      fields: { codes: { kind: "token", value: "abcde-fghjk mnpqr-stvwx" } },
      credentials: { kind: "cookie", cookie: world.investorCookie },
      wrongCredentials: wrongCookies(),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /financing/logout",
      method: "POST",
      path: "/financing/logout",
      body: "form",
      fields: {},
      bodyIgnored: true,
      credentials: { kind: "cookie", cookie: world.logoutCookie },
      // An expired session is deleted when it is presented, by design, so it is left out here.
      wrongCredentials: wrongCookies().filter((wrong) => wrong.label !== "an expired session"),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/auth/register",
      method: "POST",
      path: "/api/auth/register",
      body: "json",
      fields: {
        email: { kind: "email", value: "sweep-new@example.com" },
        password: { kind: "new-password", value: PASSWORD },
      },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/auth/login",
      method: "POST",
      path: "/api/auth/login",
      body: "json",
      fields: {
        email: { kind: "email", value: INVESTOR.email },
        password: { kind: "login-password", value: INVESTOR.password },
      },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/auth/refresh_token",
      method: "POST",
      path: "/api/auth/refresh_token",
      body: "json",
      fields: {},
      acceptsEmptyForm: true,
      credentials: { kind: "cookie", cookie: world.investorRefresh },
      wrongCredentials: [
        { label: "no refresh cookie", credentials: { kind: "none" } },
        { label: "a garbage refresh cookie", credentials: { kind: "cookie", cookie: "__refresh=garbage" } },
        {
          label: "the session cookie as the refresh cookie",
          credentials: { kind: "cookie", cookie: `__refresh=${world.investorCookie.split("=")[1]}` },
        },
        {
          label: "an access token as the refresh cookie",
          credentials: { kind: "cookie", cookie: `__refresh=${world.investorBearer}` },
        },
        { label: "a bearer instead of the cookie", credentials: { kind: "bearer", token: world.investorBearer } },
      ],
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/auth/logout",
      method: "POST",
      path: "/api/auth/logout",
      body: "json",
      fields: {},
      acceptsEmptyForm: true,
      credentials: { kind: "bearer", token: world.logoutBearer },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "GET /api/auth/verify/:token",
      method: "GET",
      path: "/api/auth/verify/:token",
      body: "none",
      params: { token: { kind: "token", value: world.verifyToken } },
      fields: {},
      extraValues: { token: [{ label: "a reset token (wrong purpose)", value: world.resetToken }] },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "GET /api/auth/forgot-password/:email",
      method: "GET",
      path: "/api/auth/forgot-password/:email",
      body: "none",
      params: { email: { kind: "email", value: "sweep-nobody@example.com" } },
      fields: {},
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/auth/reset-password",
      method: "POST",
      path: "/api/auth/reset-password",
      body: "json",
      fields: {
        newPasswordToken: { kind: "token", value: world.resetToken },
        newPassword: { kind: "new-password", value: "A-new-passphrase-for-sweep" },
      },
      extraValues: {
        newPasswordToken: [
          { label: "a verification token (wrong purpose)", value: world.verifyToken },
          { label: "an access token (wrong purpose)", value: world.investorBearer },
        ],
      },
      credentials: { kind: "none" },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "GET /api/user/get_investors",
      method: "GET",
      path: "/api/user/get_investors",
      body: "none",
      fields: {
        limit: { kind: "count", value: "50", optional: true },
        offset: { kind: "offset", value: "0", optional: true },
      },
      credentials: { kind: "bearer", token: world.adminBearer },
      wrongCredentials: wrongBearers(true),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "GET /api/user/get_investors (a cursor's page)",
      method: "GET",
      path: "/api/user/get_investors",
      body: "none",
      fields: {
        limit: { kind: "count", value: "2", optional: true },
        cursor: { kind: "cursor", value: world.investorCursor, optional: true },
      },
      credentials: { kind: "bearer", token: world.adminBearer },
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    {
      name: "POST /api/user/set_name_address",
      method: "POST",
      path: "/api/user/set_name_address",
      body: "json",
      fields: {
        email: { kind: "email", value: INVESTOR.email },
        full_name: { kind: "name", value: "Sweep Investor" },
        address: { kind: "address", value: "1 Main Street, Springfield" },
      },
      extraValues: { email: [{ label: "another investor's address", value: TARGET.email }] },
      credentials: { kind: "bearer", token: world.investorBearer },
      wrongCredentials: wrongBearers(false),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    ndaFlag("/api/user/update_nda_signed"),
    ndaFlag("/api/user/update_nda_sent"),
    {
      name: "POST /api/user/delete_investor",
      method: "POST",
      path: "/api/user/delete_investor",
      body: "json",
      fields: { id: { kind: "id", value: world.targetId } },
      extraValues: {
        id: [
          { label: "an administrator's id", value: world.adminId },
          { label: "65 characters", value: "i".repeat(65) },
        ],
      },
      credentials: { kind: "bearer", token: world.adminBearer },
      wrongCredentials: wrongBearers(true),
      bodyLimit: AUTH_BODY_LIMIT_BYTES,
    },
    // Not here: POST /api/materials and POST /api/materials/:id/versions. Their body is multipart/form-data
    // with a file, which this catalogue does not build; their bad input (a file not what it claims, empty,
    // unparsable, of the other kind or over the limit; each refused field; wrong tokens), each leaving no
    // blob, chunk, document or version, is tried in tests/integration/materials-api.test.ts and
    // tests/integration/material-upload.test.ts, and their refusals held to the document by the contract test.
  ];
}

/** The honeypot: a filled hidden field, missing fields, a forged timestamp. */
function honeypotCases(route: RouteUnderTest, refusals: Refusal[]): BadCase[] {
  const valid = Object.fromEntries(Object.entries(route.fields).map(([name, field]) => [name, String(field.value)]));
  const [nameField, timestampField] = Object.keys(route.hiddenFields ?? {}).sort((a) =>
    a.startsWith("name") ? -1 : 1,
  );
  const post = (fields: Record<string, string>) => ({ method: "POST", path: route.path, ...form(fields) });
  const cases: BadCase[] = [
    {
      label: "the honeypot filled",
      request: post({ ...route.hiddenFields, [nameField]: "http://spam.example", ...valid }),
      refusals,
    },
    {
      label: "a forged honeypot timestamp",
      request: post({ ...route.hiddenFields, [timestampField]: "U2FsdGVkX1+garbage==", ...valid }),
      refusals,
    },
    // A real stamp's time with a signature made under another secret.
    {
      label: "a honeypot timestamp of another key",
      request: post({
        ...route.hiddenFields,
        [timestampField]: `${Date.now() - 5_000}.${createHmac("sha256", "another secret").update("honeypot").digest("base64url")}`,
        ...valid,
      }),
      refusals,
    },
  ];
  // The contact form also turns away a submission without the honeypot; elsewhere its fields are optional.
  if (refusals.includes("4xx")) cases.push({ label: "no honeypot fields", request: post(valid), refusals });
  return cases;
}

type Verdict = { refusal: Refusal | null; problem: string | null; message: string };

/** How the server answered, and what is wrong with it for a case that must be refused in one of `refusals`. */
function judge(answer: RawAnswer, refusals: Refusal[]): Verdict {
  if (answer.status >= 500) return { refusal: null, problem: `a ${answer.status}`, message: answer.body.slice(0, 300) };
  if (answer.status >= 400) {
    const message = messageOf(answer);
    return message
      ? { refusal: "4xx", problem: refusals.includes("4xx") ? null : `an unexpected ${answer.status}`, message }
      : { refusal: "4xx", problem: `a ${answer.status} without a message`, message: answer.body.slice(0, 300) };
  }
  if (answer.status >= 300) {
    const location = String(answer.headers.location ?? "");
    if (!location.startsWith("/") || location.startsWith("//"))
      return { refusal: null, problem: `a redirect off the site (${location})`, message: "" };
    const toast = toastOf(answer);
    const refusal: Refusal | null =
      toast?.type === "error"
        ? "error-notice"
        : toast?.type === "success"
          ? "decoy"
          : new URL(location, server.url).pathname === "/financing/login"
            ? "to-login"
            : null;
    const message = toast?.message ?? location;
    if (refusal && refusals.includes(refusal)) return { refusal, problem: null, message };
    return {
      refusal,
      problem: `a ${answer.status} to ${location}${toast ? ` with a ${toast.type} notice` : ""}`,
      message,
    };
  }
  return { refusal: null, problem: `a ${answer.status}: the request was accepted`, message: answer.body.slice(0, 200) };
}

/** Runs every case of one route; collects every problem so that one run shows them all. */
async function sweep(route: RouteUnderTest & { extraCases?: BadCase[] }) {
  const cases = [...badCasesFor(route), ...(route.extraCases ?? [])];
  const problems: string[] = [];
  const mailsBefore = server.smtp.messages.length;
  for (const { label, request, refusals } of cases) {
    const before = digest.snapshot();
    const mailsBeforeCase = server.smtp.messages.length;
    const answer = await send(request);
    const verdict = judge(answer, refusals);
    const changed = digest.changes(before, digest.snapshot());
    if (verdict.problem) problems.push(`${label}: ${verdict.problem} — ${verdict.message}`);
    // A wrong method is no documented call (its 405 is checked by judge above); every other API answer is.
    if (contract.operationOf(request.method, request.path)) {
      heldToDocument += 1;
      problems.push(
        ...contract.problemsOf(request.method, request.path, answer).map((problem) => `${label}: ${problem}`),
      );
    }
    if (changed.length > 0) problems.push(`${label}: the database changed: ${changed.join(", ")}`);
    if (server.smtp.messages.length !== mailsBeforeCase) problems.push(`${label}: an e-mail was sent`);
  }
  // Account e-mails leave in the background, after the answer: give a stray one time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (server.smtp.messages.length !== mailsBefore)
    problems.push(`${server.smtp.messages.length - mailsBefore} e-mails were sent`);
  triedPerRoute.set(route.name, (triedPerRoute.get(route.name) ?? 0) + cases.length);
  return { tried: cases.length, problems };
}

test("every POST route and API endpoint refuses the catalogue: a 4xx with a message (or a page's redirect), no 5xx, no change, no mail", async () => {
  test.setTimeout(300_000);
  // One step a route, every problem of every route reported at once (a failure does not stop the sweep).
  for (const route of routes()) {
    await test.step(route.name, async () => {
      const { tried, problems } = await sweep(route);
      expect.soft(problems, `${route.name}: ${problems.length} of ${tried} cases went wrong`).toEqual([]);
    });
  }
  // Bad input is the client's mistake: not one error line in the server's log (a 500 would have written one).
  expect(server.logLines().filter((line) => line.level === "error")).toEqual([]);
});

test("extra fields never grant a role, a verification or an NDA flag", async () => {
  const privileged = () =>
    inDatabase((db) =>
      db.prepare("select email, role, is_nda_sent, is_nda_signed, email_verified_at from users order by email").all(),
    );
  const before = privileged();
  const extra = {
    role: "administrator",
    isNDASent: true,
    isNDASigned: true,
    is_nda_signed: 1,
    email_verified_at: 1,
    emailVerified: true,
  };
  const email = "sweep-extra@example.com";

  const registered = await send({
    method: "POST",
    path: "/api/auth/register",
    ...json({ email, password: PASSWORD, ...extra, role: { name: "administrator" } }),
  });
  expect(registered.status).toBe(201);
  const named = await send({
    method: "POST",
    path: "/api/user/set_name_address",
    ...json(
      {
        email: INVESTOR.email,
        full_name: `Robert'); DROP TABLE users; --`,
        address: `${SCRIPT} 1 Main Street`,
        ...extra,
      },
      { Authorization: `Bearer ${world.investorBearer}` },
    ),
  });
  expect(named.status, named.body).toBe(201);
  const signedUp = await send({
    method: "POST",
    path: "/financing/signup",
    ...form({
      ...world.honeypot["/financing/signup"],
      email: "sweep-extra-page@example.com",
      password: PASSWORD,
      confirmPassword: PASSWORD,
      role: "administrator",
      isNDASigned: "true",
    }),
  });
  expect(signedUp.status).toBe(302);

  const after = privileged() as {
    email: string;
    role: string;
    is_nda_sent: number;
    is_nda_signed: number;
    email_verified_at: number | null;
  }[];
  // Everyone who was there is as they were; the two new accounts are unverified investors without an NDA.
  expect(after.filter((row) => !row.email.startsWith("sweep-extra"))).toEqual(before);
  for (const row of after.filter((row) => row.email.startsWith("sweep-extra"))) {
    expect(row).toMatchObject({ role: "investor", is_nda_sent: 0, is_nda_signed: 0, email_verified_at: null });
  }
  // Hostile text is kept as text: stored verbatim, the table intact, and shown escaped to the administrator.
  const table = await send({
    method: "GET",
    path: `/financing?q=${encodeURIComponent("Robert")}`,
    headers: { Cookie: world.adminCookie },
  });
  expect(table.status).toBe(200);
  expect(table.body).toContain("Robert&#x27;); DROP TABLE users; --");
  expect(table.body).not.toContain(SCRIPT);
  expect(table.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt; 1 Main Street");
  triedPerRoute.set("extra fields and hostile text (accepted, no privilege)", 3);
});
