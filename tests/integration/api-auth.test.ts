/**
 * The /api/auth resource routes, called with real Requests against a real
 * SQLite file and a real SMTP catcher (the HTTP layer of server.js, with its
 * Origin check and body limits, is covered by tests/e2e/api-auth.http.spec.ts).
 */
import {
  requireApiUser,
  refreshCookie,
  resetSessionCookieForTests,
  sessionCookie as sessionCookieOf,
} from "~/http/auth.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { issueApiTokens, refreshApiTokens, revokeApiTokens } from "~/models/account/api-token.server";
import * as forgotRoute from "~/routes/api.auth.forgot-password.$email";
import * as loginRoute from "~/routes/api.auth.login";
import * as logoutRoute from "~/routes/api.auth.logout";
import * as refreshRoute from "~/routes/api.auth.refresh_token";
import * as registerRoute from "~/routes/api.auth.register";
import * as resetRoute from "~/routes/api.auth.reset-password";
import * as verifyRoute from "~/routes/api.auth.verify.$token";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import {
  addressSequence,
  cookiesFrom,
  callRoute,
  type RouteCall,
  type RouteModule,
  routeModules,
} from "../support/api-routes";
import { createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { linkIn, tokenIn } from "../support/mail-links";
import type { CaughtMail } from "../support/smtp-catcher";

const routes = routeModules({
  register: registerRoute,
  login: loginRoute,
  refresh: refreshRoute,
  verify: verifyRoute,
  forgot: forgotRoute,
  reset: resetRoute,
  logout: logoutRoute,
});

/** Everything the app wrote to stdout and stderr during this file: scanned for secrets at the end. */
const logged: string[] = [];
/** Every secret this file handled: none may appear in a log line or a JSON body. */
const secrets = new Set<string>();
const bodies: string[] = [];
const originalWrites = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};

/** A new client address per call, so the 10-a-minute limit only bites where a test means it to. */
const freshIp = addressSequence("10.2");
let emailCounter = 0;
const freshEmail = (label = "user") => `${label}.${++emailCounter}@example.com`;

const { smtp } = useIntegration({ mail: true });
beforeAll(async () => {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(String(chunk));
    return originalWrites.out(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(String(chunk));
    return originalWrites.err(chunk, ...rest);
  }) as typeof process.stderr.write;
});
afterAll(async () => {
  process.stdout.write = originalWrites.out;
  process.stderr.write = originalWrites.err;
});

const PASSWORD = "correct horse battery";
secrets.add(PASSWORD);

async function call(route: RouteModule, request: RouteCall) {
  const response = await callRoute(route, { ip: freshIp(), ...request });
  const text = await response.clone().text();
  bodies.push(text);
  return { response, status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** The token of the e-mailed link to `path`, a link built from APP_URL; kept among the secrets. */
function tokenFromLink(mail: CaughtMail, path: string) {
  expect(linkIn(mail, path).startsWith(`http://localhost:3000${path}`)).toBe(true);
  const token = tokenIn(mail, path);
  secrets.add(token);
  return token;
}

async function register(email: string, password = PASSWORD) {
  return call(routes.register, { path: "/api/auth/register", json: { email, password } });
}

/** Registers through the API, follows the e-mailed link, and returns the address. */
async function verifiedAccount(label = "verified", password = PASSWORD) {
  const email = freshEmail(label);
  expect((await register(email, password)).status).toBe(201);
  const token = tokenFromLink(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
  expect((await call(routes.verify, { path: `/api/auth/verify/${token}`, params: { token } })).status).toBe(200);
  return email;
}

async function login(email: string, password = PASSWORD) {
  const result = await call(routes.login, { path: "/api/auth/login", json: { email, password } });
  if (result.status === 200) {
    secrets.add(result.body!.accessToken as string);
    await rememberRefreshToken(result.response);
  }
  return result;
}

async function refresh(cookie: string | null) {
  const result = await call(routes.refresh, {
    method: "POST",
    path: "/api/auth/refresh_token",
    headers: cookie ? { Cookie: cookie } : {},
  });
  if (result.status === 200) {
    secrets.add((result.body!.accessToken as { access_token: string }).access_token);
    await rememberRefreshToken(result.response);
  }
  return result;
}

async function rememberRefreshToken(response: Response) {
  const token: unknown = await refreshCookie().parse(cookiesFrom(response));
  if (typeof token === "string" && token) secrets.add(token);
}

const bearer = (token: string) =>
  new Request("http://localhost:3000/api/user/anything", { headers: { Authorization: `Bearer ${token}` } });

async function authenticatesAs(token: string) {
  try {
    return (await requireApiUser(bearer(token))).email;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

async function tableCounts() {
  const db = getDb();
  const count = async (table: "users" | "one_time_tokens" | "sessions" | "api_tokens") =>
    Number((await db.selectFrom(table).select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  return {
    users: await count("users"),
    one_time_tokens: await count("one_time_tokens"),
    sessions: await count("sessions"),
    api_tokens: await count("api_tokens"),
  };
}

describe("POST /api/auth/register", () => {
  it("answers 201, stores an unverified investor and e-mails a verification link built from APP_URL", async () => {
    const email = freshEmail("signup");
    const { status, body } = await register(email.toUpperCase());
    expect(status).toBe(201);
    expect(body).toEqual({ message: "Verification Email Sent" });
    const row = await getDb().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: "investor", email_verified_at: null, is_nda_sent: 0, is_nda_signed: 0 });
    secrets.add(row.password_hash);
    tokenFromLink(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
  });

  it("ignores fields a caller may not set: role, verification, NDA flags", async () => {
    const email = freshEmail("sneaky");
    const { status } = await call(routes.register, {
      path: "/api/auth/register",
      json: {
        email,
        password: PASSWORD,
        role: "administrator",
        role_name: { name: "administrator" },
        isNDASent: true,
        isNDASigned: true,
        email_verified_at: 1,
        emailVerified: true,
      },
    });
    expect(status).toBe(201);
    const row = await getDb().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: "investor", email_verified_at: null, is_nda_sent: 0, is_nda_signed: 0 });
  });

  it("answers a registered address exactly the same, mails its owner instead, and changes nothing", async () => {
    const email = await verifiedAccount("taken");
    const before = await getDb().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    const { status, body } = await register(email, "another long password");
    expect(status).toBe(201);
    expect(body).toEqual({ message: "Verification Email Sent" });
    const notice = await smtp.mailTo(email, "You already have an account");
    expect(notice.text).toContain("http://localhost:3000/financing/forgotpassword");
    const after = await getDb().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await login(email)).status).toBe(200);
  });

  it("refuses a common password and a short one with field issues", async () => {
    const common = await register(freshEmail(), "Password123");
    expect(common.status).toBe(400);
    expect(common.body).toEqual({
      message: "This password is too common. Choose another.",
      issues: { password: ["This password is too common. Choose another."] },
    });
    const short = await register(freshEmail(), "short");
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ issues: { password: ["Password must be at least 8 characters"] } });
  });

  it("keeps the account and answers the same when the mail server refuses", async () => {
    const email = freshEmail("mailfail");
    smtp.refuse(true);
    try {
      const { status, body } = await register(email);
      expect(status).toBe(201);
      expect(body).toEqual({ message: "Verification Email Sent" });
      await settleAccountMail();
    } finally {
      smtp.refuse(false);
    }
    expect(await getDb().selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeDefined();
    // The link can be had again: signing up once more sends a fresh one to the owner.
    expect((await register(email)).status).toBe(201);
    const token = tokenFromLink(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
    expect((await call(routes.verify, { path: `/api/auth/verify/${token}`, params: { token } })).status).toBe(200);
  });
});

describe("GET /api/auth/verify/{token}", () => {
  it("verifies once; the link is then spent", async () => {
    const email = freshEmail("verify");
    await register(email);
    const token = tokenFromLink(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
    const first = await call(routes.verify, { path: `/api/auth/verify/${token}`, params: { token } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: "Your email address has been successfully verified." });
    const again = await call(routes.verify, { path: `/api/auth/verify/${token}`, params: { token } });
    expect(again.status).toBe(400);
    expect(typeof again.body!.message).toBe("string");
  });

  it("is valid for 24 hours to the second, and a newer link voids the older", async () => {
    const email = freshEmail("verify-expiry");
    testClock.freeze(Date.UTC(2025, 0, 1));
    await register(email);
    const first = tokenFromLink(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
    await register(email);
    const second = tokenFromLink(
      await smtp.waitFor(
        (m) => m.to.includes(email) && m.subject === "Verify your email address" && !m.text.includes(first),
      ),
      "/auth/verify/",
    );
    expect(second).not.toBe(first);
    expect((await call(routes.verify, { path: `/api/auth/verify/${first}`, params: { token: first } })).status).toBe(
      400,
    );

    testClock.advance(24 * 3600_000 + 1000);
    expect((await call(routes.verify, { path: `/api/auth/verify/${second}`, params: { token: second } })).status).toBe(
      400,
    );
    testClock.advance(-1000);
    expect((await call(routes.verify, { path: `/api/auth/verify/${second}`, params: { token: second } })).status).toBe(
      200,
    );
  });
});

describe("POST /api/auth/login", () => {
  it("answers { accessToken, user, expiresIn } and sets the refresh cookie: HttpOnly, Path=/api/auth, SameSite=Strict", async () => {
    const email = await verifiedAccount("login");
    const { status, body, response } = await login(email);
    expect(status).toBe(200);
    expect(Object.keys(body!).sort()).toEqual(["accessToken", "expiresIn", "user"]);
    expect(body!.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body!.expiresIn).toBe(900);
    const user = body!.user as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual([
      "address",
      "createdAt",
      "email",
      "fullName",
      "id",
      "isNDASent",
      "isNDASigned",
      "role",
    ]);
    expect(user).toMatchObject({
      email,
      fullName: "",
      address: "",
      isNDASent: false,
      isNDASigned: false,
      role: { name: "investor" },
    });
    expect(new Date(user.createdAt as string).toISOString()).toBe(user.createdAt);

    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const [cookie] = cookies;
    expect(cookie).toMatch(/^__refresh=/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Path=\/api\/auth(;|$)/);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).not.toMatch(/; Secure/i);
    expect(await authenticatesAs(body!.accessToken as string)).toBe(email);
  });

  it("answers a wrong password and an unknown address alike: 401 with WWW-Authenticate: Bearer", async () => {
    const email = await verifiedAccount("wrongpw");
    const wrong = await login(email, "not the password");
    const unknown = await login(freshEmail("nobody"), "not the password");
    for (const result of [wrong, unknown]) {
      expect(result.status).toBe(401);
      expect(result.response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(result.response.headers.getSetCookie()).toEqual([]);
    }
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ message: "Invalid email or password" });
  });

  it("refuses an unverified account with 403, but only after the right password", async () => {
    const email = freshEmail("unverified");
    await register(email);
    const right = await login(email);
    expect(right.status).toBe(403);
    expect(right.body!.message).toMatch(/verify your email/i);
    expect((await login(email, "not the password")).status).toBe(401);
  });

  it("locks an address for 15 minutes after 20 failures in an hour, with a notice; a reset lifts it", async () => {
    const email = await verifiedAccount("lockout");
    testClock.freeze(Date.UTC(2025, 1, 1, 9));
    for (let i = 1; i < 20; i++) expect((await login(email, `wrong password ${i}`)).status).toBe(401);
    const twentieth = await login(email, "wrong password 20");
    expect(twentieth.status).toBe(423);
    expect(twentieth.response.headers.get("Retry-After")).toBe("900");
    await smtp.mailTo(email, "Your account is temporarily locked");

    const rightButLocked = await login(email);
    expect(rightButLocked.status).toBe(423);
    testClock.advance(15 * 60_000 - 1000);
    expect((await login(email)).status).toBe(423);
    testClock.advance(1000);
    expect((await login(email)).status).toBe(200);

    // Locked again, then unlocked at once by a password reset.
    for (let i = 1; i <= 20; i++) await login(email, `wrong again ${i}`);
    expect((await login(email)).status).toBe(423);
    expect((await call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email } })).status).toBe(
      200,
    );
    const token = tokenFromLink(await smtp.mailTo(email, "Reset your password"), "/financing/resetpassword/");
    expect(
      (
        await call(routes.reset, {
          path: "/api/auth/reset-password",
          json: { newPasswordToken: token, newPassword: "unlocked new secret" },
        })
      ).status,
    ).toBe(200);
    expect((await login(email, "unlocked new secret")).status).toBe(200);

    const audit = await getDb().selectFrom("audit_events").select("action").where("target_email", "=", email).execute();
    const actions = audit.map((event) => event.action);
    expect(actions.filter((action) => action === "account.locked")).toHaveLength(2);
    expect(actions).toContain("password.reset");
    expect(actions.filter((action) => action === "login.failed").length).toBeGreaterThanOrEqual(40);
  });

  it("forgets an address's failures at its next successful login", async () => {
    const email = await verifiedAccount("forgiven");
    testClock.freeze(Date.UTC(2025, 1, 3, 9));
    for (let i = 1; i < 20; i++) expect((await login(email, `wrong password ${i}`)).status).toBe(401);
    expect((await login(email)).status).toBe(200);
    for (let i = 1; i < 20; i++) expect((await login(email, `wrong again ${i}`)).status).toBe(401);
    expect((await login(email)).status).toBe(200);
  });

  it("locks an unknown address the same way, so a lock reveals nothing", async () => {
    const email = freshEmail("ghost");
    testClock.freeze(Date.UTC(2025, 1, 2, 9));
    for (let i = 1; i < 20; i++) expect((await login(email, "guess")).status).toBe(401);
    expect((await login(email, "guess")).status).toBe(423);
    expect((await login(email, "guess")).status).toBe(423);
  });
});

describe("requireApiUser (the guard of every later API route)", () => {
  it("accepts an access token for 15 minutes to the second", async () => {
    const email = await verifiedAccount("expiry");
    testClock.freeze(Date.UTC(2025, 2, 1, 12));
    const { body } = await login(email);
    const token = body!.accessToken as string;
    testClock.advance(15 * 60_000);
    expect(await authenticatesAs(token)).toBe(email);
    testClock.advance(1000);
    expect(await authenticatesAs(token)).toBe(401);
  });

  it("answers 401 with WWW-Authenticate: Bearer for a missing, malformed or tampered token, and 403 for a wrong role", async () => {
    const email = await verifiedAccount("guard");
    const token = (await login(email)).body!.accessToken as string;
    const tampered = (token[0] === "A" ? "B" : "A") + token.slice(1);
    const requests = [
      new Request("http://localhost:3000/api/x"),
      new Request("http://localhost:3000/api/x", { headers: { Authorization: "Bearer" } }),
      new Request("http://localhost:3000/api/x", { headers: { Authorization: `Basic ${btoa("a:b")}` } }),
      new Request("http://localhost:3000/api/x", { headers: { Authorization: "Bearer not-a-token" } }),
      bearer(tampered),
      bearer(`${token}' OR '1'='1`),
    ];
    for (const request of requests) {
      const error = await requireApiUser(request).then(
        () => null,
        (thrown: unknown) => thrown as Response,
      );
      expect(error?.status).toBe(401);
      expect(error?.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(await error?.json()).toEqual({ message: expect.any(String) });
    }
    const forbidden = await requireApiUser(bearer(token), { role: "administrator" }).then(
      () => null,
      (thrown: unknown) => thrown as Response,
    );
    expect(forbidden?.status).toBe(403);
    expect((await requireApiUser(bearer(token), { role: "investor" })).email).toBe(email);
  });
});

describe("POST /api/auth/refresh_token", () => {
  it("rotates: a new access token and a new refresh cookie, both working", async () => {
    const email = await verifiedAccount("rotate");
    const first = await login(email);
    const cookie = cookiesFrom(first.response);
    const { status, body, response } = await refresh(cookie);
    expect(status).toBe(200);
    expect(body).toEqual({
      accessToken: { access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_in: 900 },
    });
    const rotated = cookiesFrom(response);
    expect(rotated).toMatch(/^__refresh=/);
    expect(rotated).not.toBe(cookie);
    expect(response.headers.getSetCookie()[0]).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i);
    const access = (body!.accessToken as { access_token: string }).access_token;
    expect(access).not.toBe(first.body!.accessToken);
    expect(await authenticatesAs(access)).toBe(email);
    expect((await refresh(rotated)).status).toBe(200);
  });

  it("tolerates a second use within the 10 s grace; after it, reuse revokes the whole family", async () => {
    const email = await verifiedAccount("reuse");
    testClock.freeze(Date.UTC(2025, 3, 1, 8));
    const loggedIn = await login(email);
    const original = cookiesFrom(loggedIn.response);
    const rotated = await refresh(original);
    expect(rotated.status).toBe(200);

    testClock.advance(10_000);
    const raced = await refresh(original);
    expect(raced.status).toBe(200);

    testClock.advance(1000);
    const stolen = await refresh(original);
    expect(stolen.status).toBe(401);
    expect(stolen.response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(stolen.response.headers.getSetCookie()[0]).toMatch(/^__refresh=;.*Max-Age=0/);

    // Every token of the family is dead now: the rotated cookies and all access tokens.
    expect((await refresh(cookiesFrom(rotated.response))).status).toBe(401);
    expect((await refresh(cookiesFrom(raced.response))).status).toBe(401);
    expect(await authenticatesAs(loggedIn.body!.accessToken as string)).toBe(401);
    expect(await authenticatesAs((rotated.body!.accessToken as { access_token: string }).access_token)).toBe(401);
    // Another login (another family) is untouched.
    expect((await login(email)).status).toBe(200);
  });

  it("refuses a missing, garbage or forged cookie, and a family older than 12 hours", async () => {
    expect((await refresh(null)).status).toBe(401);
    expect((await refresh("__refresh=garbage")).status).toBe(401);
    expect((await refresh(`__refresh=${btoa(JSON.stringify("A".repeat(43)))}`)).status).toBe(401);

    const email = await verifiedAccount("family-age");
    testClock.freeze(Date.UTC(2025, 4, 1, 6));
    let cookie = cookiesFrom((await login(email)).response);
    for (let hour = 1; hour <= 11; hour++) {
      testClock.advance(3600_000);
      const next = await refresh(cookie);
      expect(next.status).toBe(200);
      cookie = cookiesFrom(next.response);
    }
    testClock.advance(3600_000);
    const atTheLimit = await refresh(cookie);
    expect(atTheLimit.status).toBe(200);
    testClock.advance(1000);
    expect((await refresh(cookiesFrom(atTheLimit.response))).status).toBe(401);
  });

  it("never leaves a live token in a family revoked while one of its tokens was being rotated", async () => {
    const user = await createUser();
    for (let round = 0; round < 15; round++) {
      const { refreshToken } = await issueApiTokens(user.id);
      // A rotation and a password reset's revocation at once, as on two instances.
      await Promise.all([refreshApiTokens(refreshToken), revokeApiTokens({ userId: user.id })]);
      const live = await getDb()
        .selectFrom("api_tokens")
        .select("kind")
        .where("user_id", "=", user.id)
        .where("revoked_at", "is", null)
        .execute();
      // Either the revocation came first (nothing was issued) or the rotation did (and its tokens were revoked).
      expect(live, `round ${round}`).toEqual([]);
    }
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the access token and the refresh cookie, and clears the cookie", async () => {
    const email = await verifiedAccount("logout");
    const { body, response } = await login(email);
    const cookie = cookiesFrom(response);
    const result = await call(routes.logout, {
      method: "POST",
      path: "/api/auth/logout",
      headers: { Cookie: cookie, Authorization: `Bearer ${body!.accessToken as string}` },
    });
    expect(result.status).toBe(200);
    expect(result.response.headers.getSetCookie()[0]).toMatch(/^__refresh=;.*Max-Age=0.*Path=\/api\/auth/);
    expect(await authenticatesAs(body!.accessToken as string)).toBe(401);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it("revokes with only the bearer token too, and answers 200 without any", async () => {
    const email = await verifiedAccount("logout-bearer");
    const { body, response } = await login(email);
    const token = body!.accessToken as string;
    expect(
      (
        await call(routes.logout, {
          method: "POST",
          path: "/api/auth/logout",
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
    expect(await authenticatesAs(token)).toBe(401);
    expect((await refresh(cookiesFrom(response))).status).toBe(401);
    expect((await call(routes.logout, { method: "POST", path: "/api/auth/logout" })).status).toBe(200);
  });
});

describe("forgot and reset password", () => {
  it("answers 'Reset Email Sent' for known and unknown addresses; only the owner gets a link, which resets once", async () => {
    const email = await verifiedAccount("forgot");
    const known = await call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email } });
    const stranger = freshEmail("stranger");
    const unknown = await call(routes.forgot, {
      path: `/api/auth/forgot-password/${stranger}`,
      params: { email: stranger },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ message: "Reset Email Sent" });
    expect(unknown.body).toEqual(known.body);

    // A web session and an API login exist before the reset; both end with it.
    const apiLogin = await login(email);
    const userId = (apiLogin.body!.user as { id: string }).id;
    await createSession(userId);
    expect((await tableCounts()).sessions).toBeGreaterThan(0);

    const token = tokenFromLink(await smtp.mailTo(email, "Reset your password"), "/financing/resetpassword/");
    const reset = await call(routes.reset, {
      path: "/api/auth/reset-password",
      json: { newPasswordToken: token, newPassword: "a new long secret" },
    });
    secrets.add("a new long secret");
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: "Password has been reset" });
    await smtp.mailTo(email, "Your password was changed");

    expect(await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", userId).execute()).toEqual([]);
    expect(await authenticatesAs(apiLogin.body!.accessToken as string)).toBe(401);
    expect((await refresh(cookiesFrom(apiLogin.response))).status).toBe(401);
    expect((await login(email)).status).toBe(401);
    expect((await login(email, "a new long secret")).status).toBe(200);

    const again = await call(routes.reset, {
      path: "/api/auth/reset-password",
      json: { newPasswordToken: token, newPassword: "yet another secret" },
    });
    expect(again.status).toBe(400);
    await settleAccountMail();
    expect(smtp.messages.some((m) => m.to.includes(stranger))).toBe(false);
  });

  it("keeps a reset link for one hour to the second; a verify link does not reset, nor a reset link verify", async () => {
    const email = await verifiedAccount("reset-expiry");
    testClock.freeze(Date.UTC(2025, 5, 1, 10));
    await call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email } });
    const token = tokenFromLink(await smtp.mailTo(email, "Reset your password"), "/financing/resetpassword/");

    expect((await call(routes.verify, { path: `/api/auth/verify/${token}`, params: { token } })).status).toBe(400);
    const other = freshEmail("purpose");
    await register(other);
    const verifyToken = tokenFromLink(await smtp.mailTo(other, "Verify your email address"), "/auth/verify/");
    expect(
      (
        await call(routes.reset, {
          path: "/api/auth/reset-password",
          json: { newPasswordToken: verifyToken, newPassword: "purpose bound secret" },
        })
      ).status,
    ).toBe(400);

    testClock.advance(3600_000 + 1000);
    const late = await call(routes.reset, {
      path: "/api/auth/reset-password",
      json: { newPasswordToken: token, newPassword: "too late secret" },
    });
    expect(late.status).toBe(400);
    expect(late.body!.message).toMatch(/invalid or has expired/);
    testClock.advance(-1000);
    expect(
      (
        await call(routes.reset, {
          path: "/api/auth/reset-password",
          json: { newPasswordToken: token, newPassword: "just in time secret" },
        })
      ).status,
    ).toBe(200);
  });

  it("sends at most 3 reset e-mails per address an hour, known or not (429 with Retry-After)", async () => {
    const known = await verifiedAccount("reset-limit");
    const unknown = freshEmail("reset-limit-unknown");
    testClock.freeze(Date.UTC(2025, 6, 1, 10));
    for (const email of [known, unknown]) {
      for (let i = 0; i < 3; i++)
        expect(
          (await call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email } })).status,
        ).toBe(200);
      const fourth = await call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email } });
      expect(fourth.status).toBe(429);
      expect(fourth.response.headers.get("Retry-After")).toBe("3600");
    }
    await settleAccountMail();
    expect(smtp.messages.filter((m) => m.to.includes(known) && m.subject === "Reset your password")).toHaveLength(3);
    testClock.advance(3600_000);
    expect(
      (await call(routes.forgot, { path: `/api/auth/forgot-password/${known}`, params: { email: known } })).status,
    ).toBe(200);
  });
});

describe("throttling: 10 auth requests a minute per IP", () => {
  it("answers the 11th with 429 and Retry-After, across endpoints, per address, until the minute ends", async () => {
    testClock.freeze(Date.UTC(2025, 7, 1, 10));
    const ip = "192.0.2.10";
    const email = freshEmail("throttle");
    const attempts: Array<() => Promise<{ status: number }>> = [
      () => call(routes.login, { path: "/api/auth/login", json: { email, password: "whatever1" }, ip }),
      () =>
        call(routes.register, { path: "/api/auth/register", json: { email: freshEmail("t"), password: PASSWORD }, ip }),
      () => call(routes.forgot, { path: `/api/auth/forgot-password/${email}`, params: { email: freshEmail("t") }, ip }),
    ];
    for (let i = 0; i < 10; i++) expect((await attempts[i % 3]()).status).not.toBe(429);
    const limited = await call(routes.login, { path: "/api/auth/login", json: { email, password: "whatever1" }, ip });
    expect(limited.status).toBe(429);
    expect(limited.response.headers.get("Retry-After")).toBe("60");
    expect(limited.body).toEqual({ message: expect.stringMatching(/too many requests/i) });
    expect((await call(routes.refresh, { method: "POST", path: "/api/auth/refresh_token", ip })).status).toBe(429);
    expect(
      (await call(routes.login, { path: "/api/auth/login", json: { email, password: "whatever1" }, ip: "192.0.2.11" }))
        .status,
    ).toBe(401);
    testClock.advance(60_000);
    expect(
      (await call(routes.login, { path: "/api/auth/login", json: { email, password: "whatever1" }, ip })).status,
    ).toBe(401);
  });
});

describe("the bad-input catalogue (docs/requirements.md): a clear 4xx, nothing stored, no mail", () => {
  const big = "x".repeat(17 * 1024);
  const jsonHeaders = { "Content-Type": "application/json" };
  type Case = [name: string, route: keyof typeof routes, call: RouteCall, status: number];

  const postRoutes: Array<{ key: keyof typeof routes; path: string; valid: Record<string, unknown> }> = [
    { key: "register", path: "/api/auth/register", valid: { email: "valid.shape@example.com", password: PASSWORD } },
    { key: "login", path: "/api/auth/login", valid: { email: "valid.shape@example.com", password: PASSWORD } },
    {
      key: "reset",
      path: "/api/auth/reset-password",
      valid: { newPasswordToken: "A".repeat(43), newPassword: PASSWORD },
    },
  ];
  const bodyRoutes = [
    ...postRoutes,
    { key: "refresh" as const, path: "/api/auth/refresh_token", valid: {} },
    { key: "logout" as const, path: "/api/auth/logout", valid: {} },
  ];

  const cases: Case[] = [];
  for (const { key, path } of bodyRoutes) {
    cases.push(
      [
        `${key}: body over 16 KiB (declared)`,
        key,
        { method: "POST", path, body: big, headers: { ...jsonHeaders, "Content-Length": String(big.length) } },
        413,
      ],
      [
        `${key}: body over 16 KiB (undeclared)`,
        key,
        { method: "POST", path, body: JSON.stringify({ email: big }), headers: jsonHeaders },
        413,
      ],
      [`${key}: text/plain`, key, { method: "POST", path, body: "{}", headers: { "Content-Type": "text/plain" } }, 415],
      [
        `${key}: a form body`,
        key,
        {
          method: "POST",
          path,
          body: "email=a%40b.com",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        },
        415,
      ],
      [
        `${key}: JSON in latin-1`,
        key,
        { method: "POST", path, body: "{}", headers: { "Content-Type": "application/json; charset=iso-8859-1" } },
        415,
      ],
      [`${key}: malformed JSON`, key, { method: "POST", path, body: '{"email": ', headers: jsonHeaders }, 400],
      [
        `${key}: invalid UTF-8`,
        key,
        { method: "POST", path, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: jsonHeaders },
        400,
      ],
      [`${key}: null`, key, { method: "POST", path, body: "null", headers: jsonHeaders }, 400],
      [`${key}: an array`, key, { method: "POST", path, body: "[]", headers: jsonHeaders }, 400],
      [`${key}: a string`, key, { method: "POST", path, body: '"hello"', headers: jsonHeaders }, 400],
      [`${key}: a number`, key, { method: "POST", path, body: "42", headers: jsonHeaders }, 400],
      [
        `${key}: a repeated field`,
        key,
        {
          method: "POST",
          path,
          body: '{"email":"a@example.com","email":"b@example.com","password":"x","newPassword":"y"}',
          headers: jsonHeaders,
        },
        400,
      ],
      [`${key}: GET`, key, { method: "GET", path }, 405],
    );
  }
  for (const { key, path, valid } of postRoutes) {
    cases.push([`${key}: empty body`, key, { method: "POST", path, body: "", headers: jsonHeaders }, 400]);
    cases.push([`${key}: no fields`, key, { path, json: {} }, 400]);
    for (const field of Object.keys(valid)) {
      const without = { ...valid };
      delete without[field];
      cases.push([`${key}: ${field} missing`, key, { path, json: without }, 400]);
      for (const [label, value] of [
        ["empty", ""],
        ["null", null],
        ["a number", 12345678],
        ["a boolean", true],
        ["an array", [valid[field]]],
        ["an object", { value: valid[field] }],
        ["very long", "a".repeat(300) + "@example.com"],
      ] as const) {
        cases.push([`${key}: ${field} ${label}`, key, { path, json: { ...valid, [field]: value } }, 400]);
      }
    }
  }
  for (const key of ["register", "login"] as const) {
    const path = `/api/auth/${key}`;
    for (const [label, email] of [
      ["SQL in the e-mail", "' OR 1=1; DROP TABLE users; --"],
      ["a script in the e-mail", "<script>alert(1)</script>@example.com"],
      ["a NUL in the e-mail", "nul\u0000byte@example.com"],
      ["a newline in the e-mail", "line@example.com\r\nBcc: victim@example.com"],
      ["an e-mail of 255 characters", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.com`],
      ["two addresses", "a@example.com,b@example.com"],
    ] as const) {
      cases.push([`${key}: ${label}`, key, { path, json: { email, password: PASSWORD } }, 400]);
    }
    cases.push([
      `${key}: a password of 129 characters`,
      key,
      { path, json: { email: "long.pw@example.com", password: "p".repeat(129) } },
      400,
    ]);
  }
  cases.push([
    "register: a control character in the password",
    "register",
    { path: "/api/auth/register", json: { email: "ctl@example.com", password: "bell\u0007password" } },
    400,
  ]);
  cases.push([
    "reset: a control character in the password",
    "reset",
    { path: "/api/auth/reset-password", json: { newPasswordToken: "A".repeat(43), newPassword: "tab\tpassword" } },
    400,
  ]);
  cases.push([
    "reset: a well-formed but unknown token",
    "reset",
    { path: "/api/auth/reset-password", json: { newPasswordToken: "A".repeat(43), newPassword: PASSWORD } },
    400,
  ]);
  cases.push([
    "reset: a garbage token",
    "reset",
    {
      path: "/api/auth/reset-password",
      json: { newPasswordToken: "'; DROP TABLE one_time_tokens; --", newPassword: PASSWORD },
    },
    400,
  ]);
  cases.push([
    "reset: a blank token",
    "reset",
    { path: "/api/auth/reset-password", json: { newPasswordToken: "   ", newPassword: PASSWORD } },
    400,
  ]);
  for (const [label, token] of [
    ["garbage", "garbage"],
    ["well-formed but unknown", "B".repeat(43)],
    ["a script", "<script>alert(1)</script>"],
    ["SQL", "' OR '1'='1"],
    ["very long", "x".repeat(5000)],
    ["missing", undefined],
  ] as const) {
    cases.push([
      `verify: a ${label} token`,
      "verify",
      { path: `/api/auth/verify/${encodeURIComponent(token ?? "")}`, params: { token } },
      400,
    ]);
  }
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    cases.push([
      `verify: ${method}`,
      "verify",
      {
        method,
        path: `/api/auth/verify/${"A".repeat(43)}`,
        params: { token: "A".repeat(43) },
        body: "{}",
        headers: jsonHeaders,
      },
      405,
    ]);
    cases.push([
      `forgot: ${method}`,
      "forgot",
      {
        method,
        path: "/api/auth/forgot-password/a@example.com",
        params: { email: "a@example.com" },
        body: "{}",
        headers: jsonHeaders,
      },
      405,
    ]);
  }
  for (const [label, email] of [
    ["not an address", "not-an-address"],
    ["empty", ""],
    ["SQL", "' OR 1=1 --"],
    ["a script", "<script>alert(1)</script>"],
    ["a NUL", "a\u0000@example.com"],
    ["over-long", `${"a".repeat(250)}@example.com`],
    ["missing", undefined],
  ] as const) {
    cases.push([
      `forgot: ${label}`,
      "forgot",
      { path: `/api/auth/forgot-password/${encodeURIComponent(email ?? "")}`, params: { email } },
      400,
    ]);
  }

  it.each(cases)("%s", async (_name, key, request, expected) => {
    const before = await tableCounts();
    const mailsBefore = smtp.messages.length;
    const { status, body, response } = await call(routes[key], request);
    expect(status).toBe(expected);
    expect(body).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect((body!.message as string).length).toBeGreaterThan(0);
    if (status === 405) expect(response.headers.get("Allow")).toMatch(/^(GET|POST)$/);
    if (status === 400 && body!.issues) {
      for (const messages of Object.values(body!.issues as Record<string, string[]>))
        expect(messages.every((m) => typeof m === "string")).toBe(true);
    }
    await settleAccountMail();
    expect(await tableCounts()).toEqual(before);
    expect(smtp.messages.length).toBe(mailsBefore);
  });

  it("field issues say what is wrong in the words of the validation rules", async () => {
    const { body } = await call(routes.register, { path: "/api/auth/register", json: { email: "nope", password: "" } });
    expect(body).toEqual({
      message: "Email address is invalid",
      issues: { email: ["Email address is invalid"], password: ["Password cannot be empty"] },
    });
  });
});

describe("Secure cookies under https", () => {
  it("marks the refresh and session cookies Secure when APP_URL is https", async () => {
    const email = await verifiedAccount("https");
    process.env.APP_URL = "https://portal.example.com";
    resetEnvForTests();
    resetSessionCookieForTests();
    try {
      const { response, body } = await login(email);
      const refreshCookie = response.headers.getSetCookie()[0];
      expect(refreshCookie).toMatch(/; Secure/i);
      expect(refreshCookie).toMatch(/; HttpOnly/i);
      expect(refreshCookie).toMatch(/; SameSite=Strict/i);
      expect(refreshCookie).toMatch(/; Path=\/api\/auth/);

      const { setCookie: sessionCookie, cookie } = await createSession((body!.user as { id: string }).id);
      const sessionId: unknown = await sessionCookieOf().parse(cookie);
      secrets.add(String(sessionId));
      expect(sessionCookie).toMatch(/; Secure/i);
      expect(sessionCookie).toMatch(/; HttpOnly/i);
      expect(sessionCookie).toMatch(/; SameSite=Lax/i);
      expect(sessionCookie).toMatch(/; Path=\/(;|$)/);
    } finally {
      process.env.APP_URL = "http://localhost:3000";
      resetEnvForTests();
      resetSessionCookieForTests();
    }
  });
});

describe("secrets stay secret", () => {
  it("no password, token or hash appears in a log line or a JSON body", async () => {
    await settleAccountMail();
    const hashes = await getDb().selectFrom("users").select("password_hash").execute();
    for (const { password_hash } of hashes) secrets.add(password_hash);
    for (const { token_hash } of await getDb().selectFrom("api_tokens").select("token_hash").execute())
      secrets.add(token_hash);
    for (const { token_hash } of await getDb().selectFrom("one_time_tokens").select("token_hash").execute())
      secrets.add(token_hash);
    for (const { id_hash } of await getDb().selectFrom("sessions").select("id_hash").execute()) secrets.add(id_hash);
    expect(secrets.size).toBeGreaterThan(20);
    expect(logged.length).toBeGreaterThan(0);

    const logText = logged.join("");
    const leakedToLog = [...secrets].filter((secret) => secret.length >= 8 && logText.includes(secret));
    expect(leakedToLog).toEqual([]);

    // Access tokens are meant to be in the login and refresh answers; nothing else may be.
    const issued = new Set(
      bodies.flatMap((text) => [...text.matchAll(/"(?:accessToken|access_token)":"([^"]+)"/g)].map((m) => m[1])),
    );
    const bodyText = bodies.join("\n");
    const leakedToBody = [...secrets].filter(
      (secret) => secret.length >= 8 && !issued.has(secret) && bodyText.includes(secret),
    );
    expect(leakedToBody).toEqual([]);
    expect(bodyText).not.toMatch(/argon2|password_hash|passwordHash|token_hash/);
  });
});
