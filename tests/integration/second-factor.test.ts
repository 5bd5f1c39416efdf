/**
 * The second factor against a real SQLite file and a real SMTP catcher: the login's code step, the
 * administrator's enforced set-up, recovery codes, changes that need the password, and the API.
 */
import { sessionCookie } from "~/http/auth.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { authenticateAccessToken, issueApiTokens, refreshApiTokens } from "~/models/account/api-token.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { replaceRecoveryCodes, spendRecoveryCode } from "~/models/second-factor/recovery-code.server";
import { checkSecondFactorCode } from "~/models/second-factor/second-factor.server";
import { pendingTotpSecret } from "~/models/second-factor/totp.server";
import * as loginApi from "~/routes/api.auth.login";
import * as portalHome from "~/routes/financing._index";
import * as auditPage from "~/routes/financing.audit/route";
import * as loginPage from "~/routes/financing.login";
import * as codePage from "~/routes/financing.login_.code";
import * as passkeySignIn from "~/routes/financing.login_.passkey";
import * as passkeyOptions from "~/routes/financing.login_.passkey-options";
import * as securityPage from "~/routes/financing.security/route";
import * as authenticatorPage from "~/routes/financing.security_.authenticator";
import { now, testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import {
  addressSequence,
  callRoute,
  cookiesFrom,
  formPost,
  type RouteCall,
  type RouteModule,
  routeModules,
} from "../support/api-routes";
import { addPasskey, createUser, createSession } from "../support/factories";
import { useIntegration } from "../support/integration";
import { newTotpSecret, totpCode } from "../support/totp";

const routes = routeModules({
  login: loginPage,
  code: codePage,
  enrol: authenticatorPage,
  security: securityPage,
  home: portalHome,
  audit: auditPage,
  api: loginApi,
  passkeyOptions: passkeyOptions,
  passkey: passkeySignIn,
});

const PASSWORD = "correct horse battery";
const freshIp = addressSequence("10.9");
const { smtp, investor, administrator } = useIntegration({ mail: true, clockAt: Date.UTC(2026, 10, 25, 12, 0, 10) });

function call(route: RouteModule, request: RouteCall) {
  return callRoute(route, { ip: freshIp(), ...request });
}

/** A page form's POST, urlencoded as a browser sends it. */
function post(route: RouteModule, path: string, fields: Record<string, string>, cookie = "") {
  return call(route, formPost(path, fields, cookie));
}

async function formErrorOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { result?: { error?: Record<string, string[]> } };
  return Object.values(body.result?.error ?? {}).flat()[0];
}

/** A verified account that logs in with PASSWORD, with an authenticator app set up unless `totp` is false. */
async function account({ role = "investor" as "investor" | "administrator", totp = true } = {}) {
  const fields = { password: PASSWORD, factor: totp };
  const user = role === "administrator" ? await administrator(fields) : await investor("verified", fields);
  return { ...user, secret: user.secret ?? newTotpSecret() };
}

async function passwordStep(email: string, password = PASSWORD) {
  return post(routes.login, "/financing/login", { email, password });
}

async function sessionRow(cookie: string) {
  const id = (await sessionCookie().parse(cookie)) as string;
  return getDb().selectFrom("sessions").selectAll().where("id_hash", "=", hashSecretToken(id)).executeTakeFirst();
}

async function auditActions(userId: string) {
  const rows = await getDb().selectFrom("audit_events").select("action").where("target_id", "=", userId).execute();
  return rows.map((row) => row.action);
}

/** The authenticator page's loader: its set-up, or the confirmation it asks for first. */
async function enrolPage(cookie: string) {
  const page = await call(routes.enrol, { path: "/financing/security/authenticator", headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  return (await page.json()) as {
    setUp: { secret: string; qrSvg: string; replacing: boolean } | null;
    reauthentication: { asksForCode: boolean } | null;
    mustEnrol: boolean;
  };
}

const enrol = (cookie: string, code: string) =>
  post(routes.enrol, "/financing/security/authenticator", { intent: "enrol", code }, cookie);

/** "Confirm it's you" on the security page. */
const confirmIdentity = (cookie: string, fields: Record<string, string>) =>
  post(routes.security, "/financing/security", { intent: "confirm", ...fields }, cookie);

/** The page a session reaches at /financing: 200, or a redirect (to the login page once it ended). */
const portalFor = (cookie: string) => call(routes.home, { path: "/financing", headers: { Cookie: cookie } });

function sessionCookieOf(response: Response) {
  return cookiesFrom(response)
    .split("; ")
    .find((pair) => pair.startsWith("__session="))!;
}

describe("the login's code step", () => {
  it("opens no session after the password: the code step follows, and the right code opens one", async () => {
    const user = await account();
    const first = await passwordStep(user.email);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/financing/login/code");
    const cookie = cookiesFrom(first);
    expect(cookie).toMatch(/^__login_step=/);
    expect(cookie).not.toContain("__session=");
    expect(await getDb().selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute()).toHaveLength(0);

    expect((await call(routes.code, { path: "/financing/login/code", headers: { Cookie: cookie } })).status).toBe(200);
    const done = await post(routes.code, "/financing/login/code", { code: totpCode(user.secret, now()) }, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/financing");
    const session = await sessionRow(cookiesFrom(done));
    expect(session?.auth_method).toBe("password+totp");
    expect(done.headers.getSetCookie().some((c) => c.startsWith("__login_step=;"))).toBe(true);
  });

  it("refuses a code already used within its step, and the same pending step after it was completed", async () => {
    const user = await account();
    const code = totpCode(user.secret, now());
    const cookie = cookiesFrom(await passwordStep(user.email));
    expect((await post(routes.code, "/financing/login/code", { code }, cookie)).status).toBe(302);

    const replayedStep = await post(routes.code, "/financing/login/code", { code }, cookie);
    expect(replayedStep.status).toBe(401);
    const again = cookiesFrom(await passwordStep(user.email));
    const replayed = await post(routes.code, "/financing/login/code", { code }, again);
    expect(replayed.status).toBe(401);
    expect(await formErrorOf(replayed)).toMatch(/not right/);
    expect(await auditActions(user.id)).toContain("mfa.failed");
  });

  it.each([
    ["empty", "", 400, /Enter the 6-digit code/],
    ["over-long", "1".repeat(40), 400, /A code is 6 digits/],
    ["non-numeric", "12ab56", 400, /A code is 6 digits/],
    ["wrong", "000000", 401, /not right/],
  ])("answers a %s code with %i and a message, and opens no session", async (_label, code, status, message) => {
    const user = await account();
    const cookie = cookiesFrom(await passwordStep(user.email));
    // A wrong code must not be the current one by chance.
    const typed = code === "000000" && totpCode(user.secret, now()) === "000000" ? "111111" : code;
    const response = await post(routes.code, "/financing/login/code", { code: typed }, cookie);
    expect(response.status).toBe(status);
    expect(await formErrorOf(response)).toMatch(message);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
  });

  it("refuses a second step with no pending first step, with or without a forged cookie", async () => {
    const user = await account();
    const code = totpCode(user.secret, now());
    for (const cookie of ["", "__login_step=forged", `__login_step=${"a".repeat(43)}`]) {
      const response = await post(routes.code, "/financing/login/code", { code }, cookie);
      expect(response.status).toBe(401);
      expect(await formErrorOf(response)).toMatch(/expired or was not started/);
    }
    const page = await call(routes.code, { path: "/financing/login/code" });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/financing/login");
  });

  it("locks the step after five wrong codes: even the right one is refused, with Retry-After", async () => {
    const user = await account();
    const cookie = cookiesFrom(await passwordStep(user.email));
    const right = totpCode(user.secret, now());
    const wrong = right === "999999" ? "999998" : "999999";
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post(routes.code, "/financing/login/code", { code: wrong }, cookie)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    const locked = await post(routes.code, "/financing/login/code", { code: right }, cookie);
    expect(locked.status).toBe(423);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await auditActions(user.id)).toContain("mfa.locked");
  });

  it("checks at most five codes of a burst sent at once, as from many addresses on several instances", async () => {
    const user = await account();
    const right = totpCode(user.secret, now());
    const wrong = right === "999999" ? "999998" : "999999";
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        checkSecondFactorCode({ user, code: { kind: "totp", value: wrong }, ip: `10.77.0.${i + 1}` }),
      ),
    );
    const statuses = results.map((result) => (result.ok ? 200 : result.status)).sort();
    expect(statuses).toEqual([...Array(4).fill(401), ...Array(8).fill(423)]);
    expect((await auditActions(user.id)).filter((action) => action === "mfa.failed")).toHaveLength(5);
    const after = await checkSecondFactorCode({ user, code: { kind: "totp", value: right }, ip: "10.77.1.1" });
    expect(after).toMatchObject({ ok: false, status: 423 });
  });

  it("takes each recovery code once, and tells the account by e-mail", async () => {
    const user = await account({ totp: false });
    // Set up through the page, which makes the ten codes.
    const sessionCookie = (await createSession(user.id, { authMethod: "password" })).cookie;
    const { setUp } = await enrolPage(sessionCookie);
    const enrolled = await enrol(sessionCookie, totpCode(setUp!.secret, now()));
    expect(enrolled.status).toBe(200);
    const { recoveryCodes } = (await enrolled.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await getDb()
      .selectFrom("recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(stored.map((row) => row.code_hash).some((hash) => recoveryCodes.some((code) => hash.includes(code)))).toBe(
      false,
    );

    const cookie = cookiesFrom(await passwordStep(user.email));
    const used = await post(routes.code, "/financing/login/code", { code: recoveryCodes[0].toUpperCase() }, cookie);
    expect(used.status).toBe(302);
    expect((await sessionRow(cookiesFrom(used)))?.auth_method).toBe("password+recovery_code");
    await settleAccountMail();
    const notice = await smtp.waitFor(
      (mail) => mail.to.includes(user.email) && mail.text.includes("recovery code was used"),
    );
    expect(notice.text).toContain("9 recovery codes are left");

    const again = cookiesFrom(await passwordStep(user.email));
    const reused = await post(routes.code, "/financing/login/code", { code: recoveryCodes[0] }, again);
    expect(reused.status).toBe(401);
    expect(await auditActions(user.id)).toEqual(
      expect.arrayContaining(["mfa.totp_enrolled", "mfa.recovery_code_used", "mfa.failed"]),
    );
  });

  it("answers the password step alike for an unknown address and a wrong password of an account with a second factor", async () => {
    const user = await account();
    const unknown = await passwordStep("nobody.here@example.com");
    const wrong = await passwordStep(user.email, "not the password");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(await formErrorOf(unknown)).toBe(await formErrorOf(wrong));
    expect(cookiesFrom(unknown)).toBe("");
    expect(cookiesFrom(wrong)).toBe("");
  });
});

describe("the authenticator app's set-up", () => {
  it("shows one secret to set-up pages opened at once in one session: the one stored, encrypted", async () => {
    const user = await account({ totp: false });
    const { cookie } = await createSession(user.id, { authMethod: "password" });
    const idHash = (await sessionRow(cookie))!.id_hash;
    const secrets = await Promise.all([0, 1, 2].map(() => pendingTotpSecret(user.id, idHash)));
    expect(new Set(secrets).size).toBe(1);
    const stored = await getDb()
      .selectFrom("totp_enrolments")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(stored.session_id_hash).toBe(idHash);
    expect(stored.secret).not.toContain(secrets[0]);
    expect(stored.secret).toMatch(/^v1\./);
  });
});

describe("recovery codes", () => {
  it("are ten per user, however many replacements run at once", async () => {
    const user = await createUser();
    const sets = await Promise.all([0, 1, 2].map(() => replaceRecoveryCodes(user.id)));
    const kept = await getDb()
      .selectFrom("recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(kept).toHaveLength(10);
    // The ten kept are one replacement's: its codes work, the others' do not.
    const working = [];
    for (const codes of sets) working.push(await spendRecoveryCode(user.id, codes[0]));
    expect(working.filter(Boolean)).toHaveLength(1);
  });
});

describe("an administrator's second factor", () => {
  it("sends an administrator without one to the set-up, and lets them reach nothing else until done", async () => {
    const admin = await account({ role: "administrator", totp: false });
    const login = await passwordStep(admin.email);
    expect(login.status).toBe(302);
    expect(login.headers.get("Location")).toBe("/financing/security/authenticator");
    const cookie = sessionCookieOf(login);
    expect((await sessionRow(cookie))?.auth_method).toBe("password");

    for (const [route, path] of [
      [routes.home, "/financing"],
      [routes.audit, "/financing/audit"],
      [routes.security, "/financing/security"],
    ] as const) {
      const refused = await call(route, { path, headers: { Cookie: cookie } });
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("Location"), path).toBe("/financing/security/authenticator");
    }

    // The login itself was the confirmation: the set-up shows at once.
    const { setUp, mustEnrol } = await enrolPage(cookie);
    expect(setUp?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setUp?.qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    expect(mustEnrol).toBe(true);

    expect((await enrol(cookie, "12345")).status).toBe(400);
    const done = await enrol(cookie, totpCode(setUp!.secret, now()));
    expect(done.status).toBe(200);
    expect((await sessionRow(cookie))?.auth_method).toBe("password+totp");
    expect((await portalFor(cookie)).status).toBe(200);
    await settleAccountMail();
    expect((await smtp.mailTo(admin.email, "Your sign-in security was changed")).text).toContain(
      "authenticator app was set up",
    );
  });

  it("ends a password-only administrator session 15 minutes after it began; a completed set-up lifts the limit", async () => {
    const admin = await account({ role: "administrator", totp: false });
    const idle = sessionCookieOf(await passwordStep(admin.email));
    const enrolling = sessionCookieOf(await passwordStep(admin.email));
    const { setUp } = await enrolPage(enrolling);
    expect((await enrol(enrolling, totpCode(setUp!.secret, now()))).status).toBe(200);

    testClock.advance(15 * 60_000 + 1_000);
    const ended = await call(routes.enrol, { path: "/financing/security/authenticator", headers: { Cookie: idle } });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe("/financing/login");
    expect((await portalFor(enrolling)).status).toBe(200);
  });

  it("binds the set-up's secret to the session that asked: another session of the account never sees it, nor confirms it", async () => {
    // The owner and someone who has the administrator's password, each signed in with it alone.
    const admin = await account({ role: "administrator", totp: false });
    const owner = sessionCookieOf(await passwordStep(admin.email));
    const intruder = sessionCookieOf(await passwordStep(admin.email));

    const ownerSecret = (await enrolPage(owner)).setUp!.secret;
    const intruderPage = await enrolPage(intruder);
    expect(intruderPage.setUp!.secret).not.toBe(ownerSecret);
    expect(JSON.stringify(intruderPage)).not.toContain(ownerSecret);
    // The owner's page shows the owner's secret again, not the one the intruder's page made.
    expect((await enrolPage(owner)).setUp!.secret).toBe(ownerSecret);

    // The owner's secret confirmed in the intruder's session is refused, and stores nothing.
    const stolen = await enrol(intruder, totpCode(ownerSecret, now()));
    expect(stolen.status).toBe(401);
    expect(await getDb().selectFrom("totp_credentials").selectAll().where("user_id", "=", admin.id).execute()).toEqual(
      [],
    );

    // The owner confirms: the intruder's session ends with the set-up, and its own secret signs nobody in.
    testClock.advance(30_000);
    expect((await enrol(owner, totpCode(ownerSecret, now()))).status).toBe(200);
    expect((await portalFor(intruder)).headers.get("Location")).toBe("/financing/login");
    const step = cookiesFrom(await passwordStep(admin.email));
    const withIntruderSecret = await post(
      routes.code,
      "/financing/login/code",
      { code: totpCode(intruderPage.setUp!.secret, now()) },
      step,
    );
    expect(withIntruderSecret.status).toBe(401);
  });

  it("cannot turn the factor off, and nothing changes", async () => {
    const admin = await account({ role: "administrator" });
    const { cookie } = await createSession(admin.id);
    const refused = await post(routes.security, "/financing/security", { intent: "remove" }, cookie);
    expect(refused.status).toBe(403);
    expect(await formErrorOf(refused)).toMatch(/cannot turn the second factor off/);
    expect(
      await getDb().selectFrom("totp_credentials").selectAll().where("user_id", "=", admin.id).executeTakeFirst(),
    ).toBeDefined();
  });
});

describe("changes need the password and the second factor, confirmed within the last 10 minutes", () => {
  it("refuses a change in a session that has not confirmed, and the password alone does not confirm", async () => {
    const user = await account();
    const { cookie } = await createSession(user.id, { reauthenticated: false });
    const codesOf = () => getDb().selectFrom("recovery_codes").selectAll().where("user_id", "=", user.id).execute();

    const refused = await post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie);
    expect(refused.status).toBe(403);
    expect(await formErrorOf(refused)).toMatch(/Confirm it's you first/);
    expect(await codesOf()).toHaveLength(0);

    const passwordAlone = await confirmIdentity(cookie, { password: PASSWORD });
    expect(passwordAlone.status).toBe(400);
    expect(await formErrorOf(passwordAlone)).toMatch(/as well as your password/);
    const wrongPassword = await confirmIdentity(cookie, { password: "nope nope", code: totpCode(user.secret, now()) });
    expect(wrongPassword.status).toBe(401);
    const wrongCode = await confirmIdentity(cookie, { password: PASSWORD, code: "000000" });
    expect(wrongCode.status).toBe(401);
    expect((await sessionRow(cookie))?.reauthenticated_at).toBeNull();
    expect((await post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie)).status).toBe(
      403,
    );

    const confirmed = await confirmIdentity(cookie, { password: PASSWORD, code: totpCode(user.secret, now()) });
    expect(confirmed.status).toBe(302);
    expect((await sessionRow(cookie))?.reauthenticated_at).toBe(now());
    const made = await post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie);
    expect(made.status).toBe(200);
    expect(((await made.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    expect(await auditActions(user.id)).toEqual(
      expect.arrayContaining([
        "password.confirm_failed",
        "mfa.failed",
        "account.reauthenticated",
        "mfa.recovery_codes_regenerated",
      ]),
    );

    // Ten minutes later the changes close again.
    testClock.advance(10 * 60_000);
    expect((await post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie)).status).toBe(
      403,
    );
  });

  it("takes a recovery code in place of the app's code", async () => {
    const user = await account();
    const [code] = await replaceRecoveryCodes(user.id);
    const { cookie } = await createSession(user.id, { reauthenticated: false });
    expect((await confirmIdentity(cookie, { password: PASSWORD, code })).status).toBe(302);
    expect((await post(routes.security, "/financing/security", { intent: "remove" }, cookie)).status).toBe(302);
  });

  it("asks an account without a second factor for its password alone", async () => {
    const user = await account({ totp: false });
    const { cookie } = await createSession(user.id, { authMethod: "password", reauthenticated: false });
    const before = await enrolPage(cookie);
    expect(before.setUp).toBeNull();
    expect(before.reauthentication).toMatchObject({ asksForCode: false });
    expect((await enrol(cookie, "123456")).status).toBe(403);
    const confirmed = await post(
      routes.enrol,
      "/financing/security/authenticator",
      { intent: "confirm", password: PASSWORD },
      cookie,
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/financing/security/authenticator");
    expect((await enrolPage(cookie)).setUp?.secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it("lets an investor turn the factor off, and tells them", async () => {
    const user = await account();
    const { cookie } = await createSession(user.id);
    const removed = await post(routes.security, "/financing/security", { intent: "remove" }, cookie);
    expect(removed.status).toBe(302);
    expect(
      await getDb().selectFrom("totp_credentials").selectAll().where("user_id", "=", user.id).executeTakeFirst(),
    ).toBeUndefined();
    await settleAccountMail();
    expect((await smtp.mailTo(user.email, "Your sign-in security was changed")).text).toContain("turned off");
    // The next login asks for the password only.
    const login = await passwordStep(user.email);
    expect(login.headers.get("Location")).toBe("/financing");
  });

  it("refuses an unknown change with 400", async () => {
    const user = await account();
    const { cookie } = await createSession(user.id);
    const response = await post(routes.security, "/financing/security", { intent: "format-disk" }, cookie);
    expect(response.status).toBe(400);
    expect(await formErrorOf(response)).toMatch(/not one the security settings make/);
  });
});

describe("every change of a factor ends the account's other sessions and API tokens, and tells it", () => {
  /** A passkey row as registration stores it (the ceremony itself needs a browser: tests/e2e/second-factor.spec.ts). */
  const givePasskey = (userId: string) => addPasskey(userId, { id: `passkey-${userId.slice(0, 8)}` });

  const changes: [
    string,
    { totp: boolean },
    (cookie: string, user: { id: string; secret: string }) => Promise<Response>,
  ][] = [
    [
      "making new recovery codes",
      { totp: true },
      (cookie) => post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie),
    ],
    [
      "turning the factor off",
      { totp: true },
      (cookie) => post(routes.security, "/financing/security", { intent: "remove" }, cookie),
    ],
    [
      "setting up a first authenticator app",
      { totp: false },
      async (cookie) => enrol(cookie, totpCode((await enrolPage(cookie)).setUp!.secret, now())),
    ],
    [
      "replacing the authenticator app",
      { totp: true },
      async (cookie) => {
        const { setUp } = await enrolPage(cookie);
        expect(setUp?.replacing).toBe(true);
        return enrol(cookie, totpCode(setUp!.secret, now()));
      },
    ],
    [
      "removing a passkey",
      { totp: true },
      async (cookie, user) =>
        post(
          routes.security,
          "/financing/security",
          { intent: "remove-passkey", passkeyId: await givePasskey(user.id) },
          cookie,
        ),
    ],
  ];

  it.each(changes)(
    "%s: an older session and API token stop working; this session goes on",
    async (_change, shape, make) => {
      const user = await account(shape);
      const older = await createSession(user.id, { reauthenticated: false });
      const tokens = await issueApiTokens(user.id);
      const { cookie } = await createSession(user.id);

      const made = await make(cookie, user);
      expect(made.status).toBeLessThan(400);

      expect((await portalFor(older.cookie)).headers.get("Location")).toBe("/financing/login");
      expect(await authenticateAccessToken(tokens.accessToken)).toBeNull();
      expect(await refreshApiTokens(tokens.refreshToken)).toMatchObject({ ok: false });
      expect((await portalFor(cookie)).status).toBe(200);
      await settleAccountMail();
      expect((await smtp.mailTo(user.email, "Your sign-in security was changed")).text).toContain(
        "Every other sign-in to your account, in a browser or an app, was ended.",
      );
    },
  );
});

describe("the audit trail says how a sign-in went", () => {
  async function trail(userId: string) {
    const rows = await getDb()
      .selectFrom("audit_events")
      .select(["action", "details"])
      .where("target_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map((row) => [row.action, row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null]);
  }

  it("writes login.succeeded only when the session is issued, after the code, with the method", async () => {
    const user = await account();
    const step = cookiesFrom(await passwordStep(user.email));
    expect((await trail(user.id)).map(([action]) => action)).toEqual(["login.password_verified"]);
    expect(
      (await post(routes.code, "/financing/login/code", { code: totpCode(user.secret, now()) }, step)).status,
    ).toBe(302);
    expect(await trail(user.id)).toEqual([
      ["login.password_verified", { next: "second factor", via: "web" }],
      ["login.succeeded", { method: "password+totp", via: "web" }],
    ]);
  });

  it("writes no success for a right password whose code step fails and locks, and tells the account", async () => {
    const user = await account();
    const step = cookiesFrom(await passwordStep(user.email));
    const right = totpCode(user.secret, now());
    const wrong = right === "999999" ? "999998" : "999999";
    for (let i = 0; i < 5; i++) await post(routes.code, "/financing/login/code", { code: wrong }, step);
    const actions = (await trail(user.id)).map(([action]) => action);
    expect(actions).toEqual(["login.password_verified", ...Array(5).fill("mfa.failed"), "mfa.locked"]);
    await settleAccountMail();
    const notice = await smtp.mailTo(user.email, "Too many wrong codes after your password");
    expect(notice.text).toContain("If it was not you, your password is known to someone else: reset it now");
    expect(notice.text).toContain("http://localhost:3000/financing/forgotpassword");
  });

  it("names the method of each kind of sign-in: the password alone, a recovery code, and the API's", async () => {
    const plain = await account({ totp: false });
    await passwordStep(plain.email);
    expect(await trail(plain.id)).toEqual([["login.succeeded", { method: "password", via: "web" }]]);

    const user = await account();
    const [recovery] = await replaceRecoveryCodes(user.id);
    const step = cookiesFrom(await passwordStep(user.email));
    await post(routes.code, "/financing/login/code", { code: recovery }, step);
    expect((await trail(user.id)).at(-1)).toEqual([
      "login.succeeded",
      { method: "password+recovery_code", via: "web" },
    ]);

    const api = await account();
    await call(routes.api, { path: "/api/auth/login", json: { email: api.email, password: PASSWORD } });
    expect(await trail(api.id)).toEqual([["login.password_verified", { next: "second factor", via: "api" }]]);
    const code = totpCode(api.secret, now());
    await call(routes.api, { path: "/api/auth/login", json: { email: api.email, password: PASSWORD, code } });
    expect((await trail(api.id)).at(-1)).toEqual(["login.succeeded", { method: "password+totp", via: "api" }]);
  });
});

describe("POST /api/auth/login with a second factor", () => {
  const login = (json: unknown) => call(routes.api, { path: "/api/auth/login", json });

  it("asks for the code, refuses a wrong or replayed one, and answers tokens for the right one", async () => {
    const user = await account();
    const missing = await login({ email: user.email, password: PASSWORD });
    expect(missing.status).toBe(401);
    const missingBody = (await missing.json()) as Record<string, unknown>;
    expect(missingBody.mfaRequired).toBe(true);
    expect(missingBody.message).toMatch(/second factor/);
    expect(missing.headers.getSetCookie()).toEqual([]);

    const code = totpCode(user.secret, now());
    const wrongCode = code === "123456" ? "654321" : "123456";
    const wrong = await login({ email: user.email, password: PASSWORD, code: wrongCode });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Record<string, unknown>).mfaRequired).toBeUndefined();

    const ok = await login({ email: user.email, password: PASSWORD, code });
    expect(ok.status).toBe(200);
    expect(Object.keys((await ok.json()) as object).sort()).toEqual(["accessToken", "expiresIn", "user"]);

    expect((await login({ email: user.email, password: PASSWORD, code })).status).toBe(401);
  });

  it("refuses malformed codes with 400, and a wrong password before any code is looked at", async () => {
    const user = await account();
    for (const code of ["", "x".repeat(64), "12 34 5", 123456, null]) {
      const response = await login({ email: user.email, password: PASSWORD, code });
      expect(response.status, JSON.stringify(code)).toBe(400);
    }
    const wrongPassword = await login({
      email: user.email,
      password: "wrong wrong",
      code: totpCode(user.secret, now()),
    });
    expect(wrongPassword.status).toBe(401);
    expect(((await wrongPassword.json()) as Record<string, unknown>).message).toBe("Invalid email or password");
  });

  it("refuses an administrator without a second factor with 403, and answers an account without one as before", async () => {
    const admin = await account({ role: "administrator", totp: false });
    const refused = await login({ email: admin.email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /set up a second factor on the website first/,
    );

    const investor = await account({ totp: false });
    const ok = await login({ email: investor.email, password: PASSWORD, code: "123456" });
    expect(ok.status).toBe(200);
    expect(Object.keys((await ok.json()) as object).sort()).toEqual(["accessToken", "expiresIn", "user"]);
  });

  it("takes a recovery code in `code`, once", async () => {
    const user = await account();
    const { cookie } = await createSession(user.id);
    const made = await post(routes.security, "/financing/security", { intent: "regenerate-codes" }, cookie);
    const [code] = ((await made.json()) as { recoveryCodes: string[] }).recoveryCodes;
    expect((await login({ email: user.email, password: PASSWORD, code })).status).toBe(200);
    expect((await login({ email: user.email, password: PASSWORD, code })).status).toBe(401);
  });
});

describe("passkey answers that are not right", () => {
  it("refuses a garbled answer with 400 and an unknown challenge with 400, changing nothing", async () => {
    const sessionsBefore = (await getDb().selectFrom("sessions").selectAll().execute()).length;
    const options = await call(routes.passkeyOptions, { path: "/financing/login/passkey-options", json: {} });
    expect(options.status).toBe(200);
    const { challengeId } = (await options.json()) as { challengeId: string };

    const garbled = await call(routes.passkey, {
      path: "/financing/login/passkey",
      json: { challengeId, response: { id: "%%%" } },
    });
    expect(garbled.status).toBe(400);

    const forged = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
      clientExtensionResults: {},
    };
    const unknown = await call(routes.passkey, {
      path: "/financing/login/passkey",
      json: { challengeId: "b".repeat(43), response: forged },
    });
    expect(unknown.status).toBe(400);
    const unknownKey = await call(routes.passkey, {
      path: "/financing/login/passkey",
      json: { challengeId, response: forged },
    });
    expect(unknownKey.status).toBe(401);
    // The challenge was spent by that answer: the same one again is refused as expired.
    const replayed = await call(routes.passkey, {
      path: "/financing/login/passkey",
      json: { challengeId, response: forged },
    });
    expect(replayed.status).toBe(400);
    expect(await getDb().selectFrom("sessions").selectAll().execute()).toHaveLength(sessionsBefore);
  });

  it("refuses the second step's options without a pending login", async () => {
    const response = await call(routes.passkeyOptions, {
      path: "/financing/login/passkey-options",
      json: { secondStep: true },
    });
    expect(response.status).toBe(401);
  });
});
