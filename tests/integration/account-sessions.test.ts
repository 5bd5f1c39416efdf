/**
 * The account's own sign-ins against a real database and a real SMTP catcher: where it is signed in
 * (web sessions and API access, each with its client), signing one or all others out, the password's
 * change while signed in, and the passkeys' names. Each bad input gets its 4xx and changes nothing.
 */
import type { Kysely } from "kysely";
import { sessionCookie } from "~/http/auth.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { authenticateAccessToken, refreshApiTokens } from "~/models/account/api-token.server";
import { describeUserAgent, deviceName, USER_AGENT_MAX_LENGTH } from "~/models/account/client-device.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { logIn } from "~/models/account/sign-in.server";
import { pruneExpiredRows } from "~/models/housekeeping.server";
import { loginStanding, MINUTE_MS } from "~/models/throttle.server";
import * as loginApi from "~/routes/api.auth.login";
import * as securityPage from "~/routes/financing.security/route";
import * as passwordPage from "~/routes/financing.security_.password";
import * as sessionsPage from "~/routes/financing.security_.sessions";
import { now, testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, type RouteCall, type RouteModule, routeModules } from "../support/api-routes";
import { addPasskey, createSession, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  sessions: sessionsPage,
  password: passwordPage,
  security: securityPage,
  apiLogin: loginApi,
});

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";
const CHROME_ON_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const freshIp = addressSequence("10.30");
const { smtp, database, investor } = useIntegration({ mail: true, clockAt: Date.UTC(2026, 10, 27, 9, 0, 0) });

function call(route: RouteModule, request: RouteCall) {
  return callRoute(route, { ip: freshIp(), ...request });
}

function post(route: RouteModule, path: string, fields: Record<string, string>, cookie: string) {
  return call(route, {
    method: "POST",
    path,
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}

const account = (fields: { password?: string } = {}) => investor("verified", fields);

/** A session opened as a browser's login opens it, from `userAgent` and `ip`. */
async function browserSession(userId: string, userAgent: string, ip = "203.0.113.7") {
  const { cookie } = await createSession(userId);
  const idHash = hashSecretToken((await sessionCookie().parse(cookie)) as string);
  await getDb().updateTable("sessions").set({ user_agent: userAgent, ip }).where("id_hash", "=", idHash).execute();
  return { cookie, idHash };
}

async function sessionHashes(userId: string) {
  const rows = await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", userId).execute();
  return rows.map((row) => row.id_hash).sort();
}

async function auditActions(userId: string) {
  const rows = await getDb().selectFrom("audit_events").select("action").where("target_id", "=", userId).execute();
  return rows.map((row) => row.action);
}

type SessionsPage = {
  sessions: { id: string; device: string; ip: string | null; current: boolean }[];
  apiAccess: { id: string; device: string; ip: string | null; signedInAt: string; lastSeenAt: string }[];
};

async function sessionsOf(cookie: string): Promise<SessionsPage> {
  const page = await call(routes.sessions, { path: "/financing/security/sessions", headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  return (await page.json()) as SessionsPage;
}

/** An API sign-in through POST /api/auth/login, as a program with `userAgent`. */
async function apiSignIn(email: string, userAgent: string, ip: string) {
  const response = await call(routes.apiLogin, {
    path: "/api/auth/login",
    ip,
    json: { email, password: PASSWORD },
    headers: { "User-Agent": userAgent },
  });
  expect(response.status).toBe(200);
  const refresh = response.headers.getSetCookie()[0].split(";")[0];
  const { accessToken } = (await response.json()) as { accessToken: string };
  return { accessToken, refreshCookie: refresh };
}

/** The wrong passwords counted against the address's login lock. */
async function failuresOf(email: string) {
  const standing = await loginStanding(email);
  return standing.locked ? Infinity : standing.failures;
}

function noMailTo(address: string) {
  return smtp.messages.filter((mail) => mail.to.includes(address));
}

describe("the clients a sign-in is recorded with", () => {
  it("names a browser and system, a program by what it calls itself, and an old row Unknown", () => {
    expect(deviceName(CHROME_ON_MAC)).toBe("Chrome on macOS");
    expect(deviceName(SAFARI_ON_IPHONE)).toBe("Safari on iOS");
    expect(deviceName("curl/8.4.0")).toBeNull();
    expect(describeUserAgent("curl/8.4.0")).toBe("curl/8.4.0");
    expect(describeUserAgent(null)).toBe("Unknown");
  });

  it("records a login's User-Agent, cut short, and its address with the session", async () => {
    const user = await account({ password: PASSWORD });
    const response = await call(
      { action: (await import("~/routes/financing.login")).action } as unknown as RouteModule,
      {
        method: "POST",
        path: "/financing/login",
        ip: "198.51.100.4",
        body: new URLSearchParams({ email: user.email, password: PASSWORD }).toString(),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "User-Agent": `${CHROME_ON_MAC} ${"x".repeat(900)}`,
        },
      },
    );
    expect(response.status).toBe(302);
    const row = await getDb()
      .selectFrom("sessions")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe("198.51.100.4");
    expect(row.user_agent).toHaveLength(USER_AGENT_MAX_LENGTH);
    expect(row.public_id).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("where the account is signed in", () => {
  it("lists each browser with its client, marks this one, and never shows a session's hash", async () => {
    const user = await account();
    const phone = await browserSession(user.id, SAFARI_ON_IPHONE, "198.51.100.9");
    const laptop = await browserSession(user.id, CHROME_ON_MAC);
    const page = await sessionsOf(laptop.cookie);
    expect(page.sessions.map((session) => [session.device, session.ip, session.current])).toEqual(
      expect.arrayContaining([
        ["Chrome on macOS", "203.0.113.7", true],
        ["Safari on iOS", "198.51.100.9", false],
      ]),
    );
    const text = JSON.stringify(page);
    for (const hash of [phone.idHash, laptop.idHash]) expect(text).not.toContain(hash);
  });

  it("signs out one other session, audited, and leaves this one", async () => {
    const user = await account();
    const phone = await browserSession(user.id, SAFARI_ON_IPHONE);
    const laptop = await browserSession(user.id, CHROME_ON_MAC);
    const phoneId = (await sessionsOf(laptop.cookie)).sessions.find((session) => !session.current)!.id;
    const answer = await post(
      routes.sessions,
      "/financing/security/sessions",
      { intent: "sign-out", sessionId: phoneId },
      laptop.cookie,
    );
    expect(answer.status).toBe(302);
    expect(await sessionHashes(user.id)).toEqual([laptop.idHash]);
    expect(await auditActions(user.id)).toContain("session.signed_out");
    expect(phone.idHash).not.toBe(laptop.idHash);
  });

  it("answers 404 for another account's session, or this one, and ends nothing", async () => {
    const owner = await account();
    const other = await account();
    const ownerSession = await browserSession(owner.id, CHROME_ON_MAC);
    const otherSession = await browserSession(other.id, SAFARI_ON_IPHONE);
    const otherId = (await sessionsOf(otherSession.cookie)).sessions[0].id;
    const ownId = (await sessionsOf(ownerSession.cookie)).sessions[0].id;
    for (const sessionId of [otherId, ownId, "0".repeat(32), otherSession.idHash]) {
      const answer = await post(
        routes.sessions,
        "/financing/security/sessions",
        { intent: "sign-out", sessionId },
        ownerSession.cookie,
      );
      expect(answer.status, sessionId).toBe(404);
      expect(((await answer.json()) as { message: string }).message).toBe(
        "There is no such session on your account. It may have ended already.",
      );
    }
    expect(await sessionHashes(other.id)).toEqual([otherSession.idHash]);
    expect(await sessionHashes(owner.id)).toEqual([ownerSession.idHash]);
    expect(await auditActions(owner.id)).not.toContain("session.signed_out");
  });

  it("answers 400 for a malformed change and changes nothing", async () => {
    const user = await account();
    const { cookie, idHash } = await browserSession(user.id, CHROME_ON_MAC);
    const other = await browserSession(user.id, SAFARI_ON_IPHONE);
    const malformed: Record<string, string>[] = [
      { intent: "explode" },
      { intent: "sign-out", sessionId: "x".repeat(65) },
      { intent: "sign-out" },
    ];
    for (const fields of malformed) {
      const answer = await post(routes.sessions, "/financing/security/sessions", fields, cookie);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
    }
    expect(await sessionHashes(user.id)).toEqual([idHash, other.idHash].sort());
  });

  it("lists API sign-ins with their client, revokes one (another account's: 404), and signs out everywhere else", async () => {
    const user = await account({ password: PASSWORD });
    const other = await account({ password: PASSWORD });
    const { cookie, idHash } = await browserSession(user.id, CHROME_ON_MAC);
    const phone = await browserSession(user.id, SAFARI_ON_IPHONE);
    const script = await apiSignIn(user.email, "reporting-script/2.1", "192.0.2.10");
    testClock.freeze(now() + 1000);
    const second = await apiSignIn(user.email, "curl/8.4.0", "192.0.2.11");
    const othersApi = await apiSignIn(other.email, "curl/8.4.0", "192.0.2.12");

    let page = await sessionsOf(cookie);
    expect(page.apiAccess.map((family) => [family.device, family.ip])).toEqual([
      ["curl/8.4.0", "192.0.2.11"],
      ["reporting-script/2.1", "192.0.2.10"],
    ]);
    // A use of the access token moves its family's last use, at most once a minute.
    const scriptFamily = page.apiAccess[1];
    testClock.freeze(now() + 2 * MINUTE_MS);
    expect(await authenticateAccessToken(script.accessToken)).toMatchObject({ id: user.id });
    page = await sessionsOf(cookie);
    expect(Date.parse(page.apiAccess[1].lastSeenAt)).toBeGreaterThan(Date.parse(scriptFamily.lastSeenAt));

    const othersFamily = (
      await getDb()
        .selectFrom("api_token_families")
        .select("id")
        .where("user_id", "=", other.id)
        .executeTakeFirstOrThrow()
    ).id;
    const refused = await post(
      routes.sessions,
      "/financing/security/sessions",
      { intent: "revoke", familyId: othersFamily },
      cookie,
    );
    expect(refused.status).toBe(404);
    expect(await authenticateAccessToken(othersApi.accessToken)).toMatchObject({ id: other.id });

    const revoked = await post(
      routes.sessions,
      "/financing/security/sessions",
      { intent: "revoke", familyId: scriptFamily.id },
      cookie,
    );
    expect(revoked.status).toBe(302);
    expect(await authenticateAccessToken(script.accessToken)).toBeNull();
    expect(await authenticateAccessToken(second.accessToken)).toMatchObject({ id: user.id });
    expect((await sessionsOf(cookie)).apiAccess).toHaveLength(1);
    expect(await auditActions(user.id)).toContain("api_access.revoked");

    const everywhere = await post(
      routes.sessions,
      "/financing/security/sessions",
      { intent: "sign-out-others" },
      cookie,
    );
    expect(everywhere.status).toBe(302);
    expect(await sessionHashes(user.id)).toEqual([idHash]);
    expect(phone.idHash).not.toBe(idHash);
    expect(await authenticateAccessToken(second.accessToken)).toBeNull();
    const refreshToken = await sessionCookieValue(second.refreshCookie);
    expect(await refreshApiTokens(refreshToken)).toMatchObject({ ok: false });
    expect((await sessionsOf(cookie)).apiAccess).toEqual([]);
    expect(await auditActions(user.id)).toContain("session.others_signed_out");
    expect(await authenticateAccessToken(othersApi.accessToken)).toMatchObject({ id: other.id });
  });
});

describe("the housekeeping", () => {
  it("prunes an API sign-in once its twelve hours are over, with its tokens", async () => {
    const user = await account({ password: PASSWORD });
    await apiSignIn(user.email, "curl/8.4.0", "192.0.2.30");
    const families = () =>
      getDb().selectFrom("api_token_families").select("id").where("user_id", "=", user.id).execute();
    expect(await families()).toHaveLength(1);
    testClock.freeze(now() + 12 * 60 * MINUTE_MS + 1000);
    expect((await pruneExpiredRows()).apiTokenFamilies).toBeGreaterThanOrEqual(1);
    expect(await families()).toEqual([]);
  });
});

/** The refresh token a refresh cookie pair holds. */
async function sessionCookieValue(pair: string): Promise<string> {
  const { refreshCookie } = await import("~/http/auth.server");
  return (await refreshCookie().parse(pair)) as string;
}

describe("the password's change while signed in", () => {
  const change = (cookie: string, fields: Record<string, string>) =>
    post(routes.password, "/financing/security/password", fields, cookie);

  it("keeps this session, ends every other and all API access, is audited and e-mailed", async () => {
    const user = await account({ password: PASSWORD });
    const { cookie, idHash } = await browserSession(user.id, CHROME_ON_MAC);
    await browserSession(user.id, SAFARI_ON_IPHONE);
    const api = await apiSignIn(user.email, "curl/8.4.0", "192.0.2.20");
    const answer = await change(cookie, {
      currentPassword: PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/financing/security");
    expect(await sessionHashes(user.id)).toEqual([idHash]);
    expect(await authenticateAccessToken(api.accessToken)).toBeNull();
    expect(await auditActions(user.id)).toContain("password.changed");
    expect(await logIn({ email: user.email, password: NEW_PASSWORD, ip: freshIp() })).toMatchObject({ ok: true });
    expect(await logIn({ email: user.email, password: PASSWORD, ip: freshIp() })).toMatchObject({ ok: false });
    const mail = await smtp.mailTo(user.email, "Your password was changed");
    expect(mail.text).toContain("Every other browser and all API access were signed out.");
    expect(mail.text).toContain("If it was not you");
    expect(mail.text).toContain("/financing/forgotpassword");
  });

  it("refuses a wrong current password with 401, counted towards the login's lock, and changes nothing", async () => {
    const user = await account({ password: PASSWORD });
    const { cookie } = await browserSession(user.id, CHROME_ON_MAC);
    const other = await browserSession(user.id, SAFARI_ON_IPHONE);
    const before = (await userRow(user.id))!.password_hash;
    const failuresBefore = await failuresOf(user.email);
    const answer = await change(cookie, {
      currentPassword: "not the password",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(answer.status).toBe(401);
    const body = (await answer.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(body.result.error.currentPassword).toEqual(["The password is not right."]);
    expect(body.result.initialValue).toEqual({});
    expect(await failuresOf(user.email)).toBe(failuresBefore + 1);
    expect((await userRow(user.id))!.password_hash).toBe(before);
    expect(await sessionHashes(user.id)).toContain(other.idHash);
    expect(await auditActions(user.id)).toContain("password.confirm_failed");
    expect(await auditActions(user.id)).not.toContain("password.changed");
    await settleAccountMail();
    expect(noMailTo(user.email)).toEqual([]);
  });

  it("holds the new password to sign-up's rules: 400 with the field's message, nothing changed", async () => {
    const user = await account({ password: PASSWORD });
    const { cookie } = await browserSession(user.id, CHROME_ON_MAC);
    const other = await browserSession(user.id, SAFARI_ON_IPHONE);
    const before = (await userRow(user.id))!.password_hash;
    const cases: [Record<string, string>, string, string][] = [
      [{ password: "short", confirmPassword: "short" }, "password", "Password must be at least 8 characters"],
      [{ password: "password123", confirmPassword: "password123" }, "password", ""],
      [{ password: NEW_PASSWORD, confirmPassword: "something else" }, "confirmPassword", "Passwords doesn't match"],
      [{ password: "", confirmPassword: "" }, "password", "Password cannot be empty"],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await change(cookie, { currentPassword: PASSWORD, ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const { result } = (await answer.json()) as { result: { error: Record<string, string[]> } };
      expect(result.error[field]?.[0], JSON.stringify(fields)).toBeTruthy();
      if (message) expect(result.error[field]?.[0]).toBe(message);
    }
    const missing = await change(cookie, { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect((await userRow(user.id))!.password_hash).toBe(before);
    expect(await sessionHashes(user.id)).toContain(other.idHash);
    expect(await failuresOf(user.email)).toBe(0);
    await settleAccountMail();
    expect(noMailTo(user.email)).toEqual([]);
  });
});

describe("the passkeys' names", () => {
  const passkeyOf = (userId: string, name: string | null = null) =>
    addPasskey(userId, { id: `passkey-${userId}-${Math.random().toString(36).slice(2)}`, name });
  const nameOf = async (id: string) =>
    (await getDb().selectFrom("passkeys").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;
  const rename = (cookie: string, passkeyId: string, name: string) =>
    post(routes.security, "/financing/security", { intent: "rename-passkey", passkeyId, name }, cookie);

  it("renames a passkey, trimmed, audited, and lists it with its dates", async () => {
    const user = await account();
    const passkeyId = await passkeyOf(user.id, "Chrome on macOS");
    const { cookie } = await createSession(user.id, { authMethod: "password+passkey" });
    const answer = await rename(cookie, passkeyId, "  Work   laptop ");
    expect(answer.status).toBe(302);
    expect(await nameOf(passkeyId)).toBe("Work laptop");
    expect(await auditActions(user.id)).toContain("mfa.passkey_renamed");
    const page = await call(routes.security, { path: "/financing/security", headers: { Cookie: cookie } });
    const { passkeys } = (await page.json()) as { passkeys: { name: string; createdAt: string; lastUsedAt: null }[] };
    expect(passkeys).toEqual([
      { id: passkeyId, name: "Work laptop", createdAt: new Date(now()).toISOString(), lastUsedAt: null },
    ]);
  });

  it("refuses an empty, too long or invisible name with 400 beside the field, and stores nothing", async () => {
    const user = await account();
    const passkeyId = await passkeyOf(user.id, "Chrome on macOS");
    const { cookie } = await createSession(user.id, { authMethod: "password+passkey" });
    const cases: [string, string][] = [
      ["", "Give the passkey a name."],
      ["   ", "Give the passkey a name."],
      ["x".repeat(65), "A passkey's name can be at most 64 characters."],
      ["Work\u200blaptop", "invisible"],
      ["\u202eelif.exe", "invisible"],
      ["Work\u2066laptop", "invisible"],
      ["Work\u0007laptop", "invisible"],
      ["\ufeffWork", "invisible"],
    ];
    for (const [name, message] of cases) {
      const answer = await rename(cookie, passkeyId, name);
      expect(answer.status, JSON.stringify(name)).toBe(400);
      const { result } = (await answer.json()) as { result: { error: Record<string, string[]> } };
      expect(result.error.name?.[0], JSON.stringify(name)).toContain(message);
    }
    expect(await rename(cookie, passkeyId, "é".repeat(64))).toHaveProperty("status", 302);
    expect(await nameOf(passkeyId)).toBe("é".repeat(64));
    expect((await auditActions(user.id)).filter((action) => action === "mfa.passkey_renamed")).toHaveLength(1);
  });

  it("needs the confirmation, and refuses another account's passkey with 404", async () => {
    const user = await account();
    const other = await account();
    const own = await passkeyOf(user.id, "Mine");
    const theirs = await passkeyOf(other.id, "Theirs");
    const stale = await createSession(user.id, { authMethod: "password+passkey", reauthenticated: false });
    expect((await rename(stale.cookie, own, "Renamed")).status).toBe(403);
    const { cookie } = await createSession(user.id, { authMethod: "password+passkey" });
    expect((await rename(cookie, theirs, "Renamed")).status).toBe(404);
    expect(await nameOf(own)).toBe("Mine");
    expect(await nameOf(theirs)).toBe("Theirs");
  });
});

describe("migration 015 on a database in use", () => {
  it("gives every session a public id and copies each token family, live or revoked, without a client", async () => {
    const migration =
      database.engine === "postgres"
        ? await import("../../migrations/postgres/015_sessions_and_devices.js")
        : await import("../../migrations/015_sessions_and_devices.js");
    const user = await account();
    const db = getDb();
    await db.deleteFrom("api_token_families").execute();
    await migration.down(db);
    const at = now();
    const oldDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    for (const idHash of ["a".repeat(64), "b".repeat(64)]) {
      await oldDb
        .insertInto("sessions")
        .values({ id_hash: idHash, user_id: user.id, created_at: at, last_seen_at: at, expires_at: at + 3_600_000 })
        .execute();
    }
    const token = (hash: string, family: string, createdAt: number, revokedAt: number | null) => ({
      token_hash: hash,
      kind: "refresh",
      user_id: user.id,
      family_id: family,
      created_at: createdAt,
      expires_at: at + 3_600_000,
      used_at: null,
      revoked_at: revokedAt,
    });
    await oldDb
      .insertInto("api_tokens")
      .values([
        token("t1", "live-family", at - 5000, at - 10),
        token("t2", "live-family", at - 10, null),
        token("t3", "revoked-family", at - 5000, at - 1),
      ])
      .execute();
    await migration.up(db);

    const sessions = await db
      .selectFrom("sessions")
      .select(["public_id", "user_agent", "ip"])
      .where("user_id", "=", user.id)
      .execute();
    expect(sessions).toHaveLength(2);
    expect(new Set(sessions.map((session) => session.public_id)).size).toBe(2);
    for (const session of sessions)
      expect(session).toMatchObject({ public_id: expect.stringMatching(/^[0-9a-f]{32}$/), user_agent: null, ip: null });
    const families = await db
      .selectFrom("api_token_families")
      .selectAll()
      .where("user_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(families).toEqual([
      {
        id: "live-family",
        user_id: user.id,
        user_agent: null,
        ip: null,
        created_at: at - 5000,
        last_used_at: at - 10,
        expires_at: at + 3_600_000,
        revoked_at: null,
      },
      {
        id: "revoked-family",
        user_id: user.id,
        user_agent: null,
        ip: null,
        created_at: at - 5000,
        last_used_at: at - 5000,
        expires_at: at + 3_600_000,
        revoked_at: at - 1,
      },
    ]);
    const { cookie } = await browserSession(user.id, CHROME_ON_MAC);
    const page = await sessionsOf(cookie);
    expect(page.sessions.filter((session) => session.device === "Unknown")).toHaveLength(2);
    expect(page.apiAccess.map((family) => [family.id, family.device])).toEqual([["live-family", "Unknown"]]);
  });
});
