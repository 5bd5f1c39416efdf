import argon2 from "argon2";
import type { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "~/content/constants";
import {
  createUserSession,
  getSessionUser,
  logOut,
  requireAnonymous,
  requireUser,
  sessionCookie,
} from "~/http/auth.server";
import { fieldErrorsOf } from "~/http/form-submission.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { newAccountSchema } from "~/models/account/account-schemas.server";
import { createOneTimeToken } from "~/models/account/one-time-token.server";
import { requestPasswordReset, resetPassword } from "~/models/account/password-reset.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { deleteUserSessions } from "~/models/account/session.server";
import { logIn } from "~/models/account/sign-in.server";
import { registerAccount, resendVerificationEmail, verifyEmail } from "~/models/account/sign-up.server";
import { getUserByEmail } from "~/models/account/user.server";
import { createOrPromoteAdministrator } from "~/models/administrators/create-admin.server";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { addressSequence } from "../support/api-routes";
import { createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { linkIn, tokenIn } from "../support/mail-links";

/** Each call a new client address, so the 10-a-minute limit only bites where a test means it to. */
const freshIp = addressSequence("10.1");

const { smtp } = useIntegration({ mail: true });

const PASSWORD = "correct horse battery";

describe("sign-up, verification and login", () => {
  it("creates an unverified investor, mails the link, verifies once and then logs in", async () => {
    const email = "new.investor@example.com";
    const input = newAccountSchema.parse({ email: " New.Investor@Example.com ", password: PASSWORD });
    expect(await registerAccount({ ...input, ip: freshIp() })).toEqual({ ok: true });
    const user = await getUserByEmail(email);
    expect(user).toMatchObject({
      email,
      role: { name: "investor" },
      isNDASent: false,
      isNDASigned: false,
      fullName: "",
      address: "",
    });

    const login = await logIn({ email, password: PASSWORD, ip: freshIp() });
    expect(login).toMatchObject({ ok: false, status: 403, code: "unverified" });

    const mail = await smtp.mailTo(email, "Verify your email address");
    const link = linkIn(mail, "/auth/verify/");
    expect(link.startsWith("http://localhost:3000/auth/verify/")).toBe(true);
    const token = link.split("/").pop();
    expect(await verifyEmail(token)).toEqual({ ok: true });
    expect(await verifyEmail(token)).toMatchObject({ ok: false });

    const ok = await logIn({ email, password: PASSWORD, ip: freshIp() });
    expect(ok).toMatchObject({ ok: true, user: { email } });
  });

  it("answers two sign-ups of the same new address at once alike: one account, and neither fails", async () => {
    const email = "twice.at.once@example.com";
    const results = await Promise.all(
      [0, 1, 2].map(() => registerAccount({ email, password: PASSWORD, ip: freshIp() })),
    );
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(await getDb().selectFrom("users").select("id").where("email", "=", email).execute()).toHaveLength(1);
  });

  it("reports a lock once when failed logins at once cross the line together", async () => {
    const user = await createUser({ password: PASSWORD });
    const results = await Promise.all(
      Array.from({ length: 24 }, () => logIn({ email: user.email, password: "Not-the-passphrase-0", ip: freshIp() })),
    );
    expect(results.every((result) => !result.ok)).toBe(true);
    const locks = await getDb()
      .selectFrom("audit_events")
      .select("id")
      .where("action", "=", "account.locked")
      .where("target_email", "=", user.email)
      .execute();
    expect(locks).toHaveLength(1);
  });

  it("keeps one live link of a kind per user, however many are made at once", async () => {
    const user = await createUser();
    const tokens = await Promise.all([0, 1, 2, 3].map(() => createOneTimeToken(user.id, "reset")));
    const live = await getDb()
      .selectFrom("one_time_tokens")
      .select("token_hash")
      .where("user_id", "=", user.id)
      .where("purpose", "=", "reset")
      .execute();
    expect(live).toHaveLength(1);
    expect(tokens.map(hashSecretToken)).toContain(live[0].token_hash);
  });
});

describe("password reset", () => {
  it("mails a link that sets a new password once", async () => {
    const email = "reset.me@example.com";
    await registerAccount({ email, password: PASSWORD, ip: freshIp() });
    expect(await requestPasswordReset({ email, ip: freshIp() })).toEqual({ ok: true });
    const token = tokenIn(await smtp.mailTo(email, "Reset your password"), "/financing/resetpassword/");
    expect(await resetPassword({ token, password: "a brand new secret", ip: freshIp() })).toEqual({ ok: true });
    expect(await logIn({ email, password: PASSWORD, ip: freshIp() })).toMatchObject({ ok: false, status: 401 });
    expect(await logIn({ email, password: "a brand new secret", ip: freshIp() })).toMatchObject({ ok: true });
    await smtp.mailTo(email, "Your password was changed");
    expect(await resendVerificationEmail({ email, ip: freshIp() })).toEqual({ ok: true });
    const row = await getDb()
      .selectFrom("users")
      .select("email_verified_at")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
  });
});

const pageRequest = (cookie?: string) =>
  new Request("http://localhost:3000/financing", { headers: cookie ? { Cookie: cookie } : {} });

async function thrownBy(run: () => Promise<unknown>) {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe("web sessions", () => {
  it("logs in with a redirect that sets an HttpOnly, SameSite=Lax, Path=/ cookie holding only a random id", async () => {
    const user = await createUser({ email: "session.cookie@example.com" });
    const { response, setCookie, cookie } = await createSession(user.id);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing");
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    expect(setCookie).not.toMatch(/; Secure/i);

    const id = (await sessionCookie().parse(cookie)) as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(id).not.toContain(user.id);
    const rows = await getDb().selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute();
    expect(rows.map((r) => r.id_hash)).toEqual([hashSecretToken(id)]);
    expect((await getSessionUser(pageRequest(cookie)))?.email).toBe(user.email);
  });

  it("carries a notice with the redirect when asked", async () => {
    const user = await createUser({ email: "session.toast@example.com" });
    const response = await createUserSession({
      user,
      authMethod: "password",
      ip: "127.0.0.1",
      request: pageRequest(),
      redirectTo: "/financing",
      toast: { message: "Log in success", type: "success" },
    });
    const names = response.headers.getSetCookie().map((c) => c.split("=")[0]);
    expect(names).toContain("__session");
    expect(names).toContain("__toast");
  });

  it("issues a new id at login and forgets the one the browser had", async () => {
    const user = await createUser({ email: "session.fixation@example.com" });
    const first = await createSession(user.id);
    const second = await createSession(user.id, { cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect(await getSessionUser(pageRequest(first.cookie))).toBeNull();
    expect((await getSessionUser(pageRequest(second.cookie)))?.id).toBe(user.id);
  });

  it("ends after 30 idle minutes (valid at the limit, gone a second later); each visit slides the window", async () => {
    const user = await createUser({ email: "session.idle@example.com" });
    testClock.freeze(Date.UTC(2025, 0, 10, 9));
    const { cookie } = await createSession(user.id);
    testClock.advance(30 * 60_000);
    expect(await getSessionUser(pageRequest(cookie))).not.toBeNull();
    testClock.advance(30 * 60_000);
    expect(await getSessionUser(pageRequest(cookie))).not.toBeNull();
    testClock.advance(30 * 60_000 + 1000);
    expect(await getSessionUser(pageRequest(cookie))).toBeNull();
    expect(await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("moves the idle window at most once a minute, so it never ends later than 30 minutes after a visit", async () => {
    const user = await createUser({ email: "session.touch@example.com" });
    testClock.freeze(Date.UTC(2025, 0, 10, 14));
    const { cookie } = await createSession(user.id);
    testClock.advance(59_000);
    expect(await getSessionUser(pageRequest(cookie))).not.toBeNull();
    // That visit came within the minute: the window still runs from the login.
    testClock.advance(30 * 60_000 - 59_000 + 1000);
    expect(await getSessionUser(pageRequest(cookie))).toBeNull();
  });

  it("ends 12 hours after login however busy (valid at the limit, gone a second later)", async () => {
    const user = await createUser({ email: "session.absolute@example.com" });
    testClock.freeze(Date.UTC(2025, 0, 11, 6));
    const { cookie } = await createSession(user.id);
    for (let minutes = 20; minutes <= 12 * 60; minutes += 20) {
      testClock.advance(20 * 60_000);
      expect(await getSessionUser(pageRequest(cookie)), `after ${minutes} minutes`).not.toBeNull();
    }
    testClock.advance(1000);
    expect(await getSessionUser(pageRequest(cookie))).toBeNull();
  });

  it("refuses a tampered or foreign cookie", async () => {
    const user = await createUser({ email: "session.tamper@example.com" });
    const { cookie } = await createSession(user.id);
    const [name, value] = cookie.split("=");
    const tampered = `${name}=${value.slice(0, 10)}${value[10] === "A" ? "B" : "A"}${value.slice(11)}`;
    expect(await getSessionUser(pageRequest(tampered))).toBeNull();
    expect(await getSessionUser(pageRequest("__session=whatever"))).toBeNull();
    expect(await getSessionUser(pageRequest(`__session=${user.id}`))).toBeNull();
  });

  it("logs out: the row is deleted and the cookie cleared", async () => {
    const user = await createUser({ email: "session.logout@example.com" });
    const { cookie } = await createSession(user.id);
    const headers = await logOut(pageRequest(cookie));
    expect(headers.get("Set-Cookie")).toMatch(/^__session=;.*Max-Age=0/);
    expect(await getSessionUser(pageRequest(cookie))).toBeNull();
    expect(await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("guards pages: requireUser sends strangers to the login page, requireAnonymous sends users to the portal", async () => {
    const user = await createUser({ email: "session.guards@example.com" });
    const { cookie } = await createSession(user.id);
    expect((await requireUser(pageRequest(cookie))).email).toBe(user.email);
    const toLogin = await thrownBy(() => requireUser(pageRequest()));
    expect(toLogin?.status).toBe(302);
    expect(toLogin?.headers.get("Location")).toBe("/financing/login");
    const stale = await thrownBy(() => requireUser(pageRequest("__session=stale")));
    expect(stale?.headers.get("Set-Cookie")).toMatch(/^__session=;/);
    const toPortal = await thrownBy(() => requireAnonymous(pageRequest(cookie)));
    expect(toPortal?.headers.get("Location")).toBe("/financing");
    expect(await thrownBy(() => requireAnonymous(pageRequest()))).toBeNull();
  });

  it("deleteUserSessions ends every session of the user, and a password reset does too", async () => {
    const user = await createUser({ email: "session.all@example.com" });
    const a = await createSession(user.id);
    const b = await createSession(user.id);
    await deleteUserSessions(user.id);
    expect(await getSessionUser(pageRequest(a.cookie))).toBeNull();
    expect(await getSessionUser(pageRequest(b.cookie))).toBeNull();

    const c = await createSession(user.id);
    await requestPasswordReset({ email: user.email, ip: freshIp() });
    const token = tokenIn(await smtp.mailTo(user.email, "Reset your password"), "/financing/resetpassword/");
    expect(await resetPassword({ token, password: "reset ends sessions", ip: freshIp() })).toEqual({ ok: true });
    expect(await getSessionUser(pageRequest(c.cookie))).toBeNull();
  });
});

describe("the use cases, as the pages call them", () => {
  it("resends a verification link only to an unverified account, answering the same for any address", async () => {
    const unverified = "resend.unverified@example.com";
    await registerAccount({ email: unverified, password: PASSWORD, ip: freshIp() });
    const verified = (await createUser({ email: "resend.verified@example.com" })).email;
    await settleAccountMail();
    const before = smtp.messages.length;
    for (const email of [unverified, verified, "resend.nobody@example.com"]) {
      expect(await resendVerificationEmail({ email, ip: freshIp() })).toEqual({ ok: true });
    }
    await settleAccountMail();
    const sent = smtp.messages.slice(before);
    expect(sent.map((m) => [m.to[0], m.subject])).toEqual([[unverified, "Verify your email address"]]);
  });

  it("answers 429 with Retry-After when throttled", async () => {
    testClock.freeze(Date.UTC(2025, 0, 12, 9));
    const ip = "198.51.100.7";
    for (let i = 0; i < 10; i++) await logIn({ email: "throttled@example.com", password: "x", ip });
    expect(await logIn({ email: "throttled@example.com", password: "x", ip })).toMatchObject({
      ok: false,
      status: 429,
      code: "throttled",
      retryAfterSeconds: 60,
    });
    expect(await registerAccount({ email: "throttled@example.com", password: PASSWORD, ip })).toMatchObject({
      status: 429,
    });
    expect(await requestPasswordReset({ email: "throttled@example.com", ip })).toMatchObject({ status: 429 });
    expect(await resendVerificationEmail({ email: "throttled@example.com", ip })).toMatchObject({ status: 429 });
    expect(await resetPassword({ token: "x", password: PASSWORD, ip })).toMatchObject({ status: 429 });
  });

  it("upgrades a hash made with older parameters at the next login", async () => {
    const user = await createUser({ email: "rehash@example.com", password: PASSWORD });
    const weak = await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await getDb().updateTable("users").set({ password_hash: weak }).where("id", "=", user.id).execute();
    expect(await logIn({ email: user.email, password: PASSWORD, ip: freshIp() })).toMatchObject({ ok: true });
    const { password_hash } = await getDb()
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await logIn({ email: user.email, password: PASSWORD, ip: freshIp() })).toMatchObject({ ok: true });
  });

  it("records sign-ups, verifications and failed logins in the audit log, without secrets; a right password alone is no sign-in yet", async () => {
    const email = "audited@example.com";
    // Signed up and verified through the use cases, as a visitor would: both steps are audited.
    await registerAccount({ email, password: PASSWORD, ip: freshIp() });
    const verifyToken = tokenIn(await smtp.mailTo(email, "Verify your email address"), "/auth/verify/");
    expect(await verifyEmail(verifyToken)).toEqual({ ok: true });
    const user = (await getUserByEmail(email))!;
    await logIn({ email, password: PASSWORD, ip: "203.0.113.5" });
    await logIn({ email, password: "wrong password", ip: "203.0.113.5" });
    const events = await getDb()
      .selectFrom("audit_events")
      .selectAll()
      .where("target_email", "=", email)
      .orderBy("id")
      .execute();
    // The sign-in is recorded where its session or tokens are issued (web and API tests), not by the check.
    expect(events.map((e) => e.action)).toEqual(["account.registered", "account.verified", "login.failed"]);
    expect(events[0]).toMatchObject({ actor_id: user.id, target_id: user.id });
    expect(events[2]).toMatchObject({ target_id: user.id, ip: "203.0.113.5" });
    expect(JSON.parse(events[2].details ?? "{}")).toEqual({ reason: "wrong_password" });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect(JSON.stringify(events)).not.toContain("wrong password");
  });
});

describe("the account schemas, which every page, API call and create-admin parses with once", () => {
  const errorsOf = (result: { success: boolean; error?: z.ZodError }) =>
    result.error ? fieldErrorsOf(result.error) : {};

  it("normalises an address and refuses a bad one", () => {
    expect(newAccountSchema.parse({ email: " Boss@Example.com ", password: PASSWORD }).email).toBe("boss@example.com");
    expect(errorsOf(newAccountSchema.safeParse({ email: "x", password: "" }))).toEqual({
      email: ["Email address is invalid"],
      password: ["Password cannot be empty"],
    });
  });

  it("refuses a short, a common and a control-character password with the policy's words", () => {
    expect(errorsOf(newAccountSchema.safeParse({ email: "a@example.com", password: "short" }))).toEqual({
      password: [`Password must be at least ${PASSWORD_MIN_LENGTH} characters`],
    });
    expect(errorsOf(newAccountSchema.safeParse({ email: "a@example.com", password: "iloveyou2" }))).toEqual({
      password: ["This password is too common. Choose another."],
    });
    expect(errorsOf(newAccountSchema.safeParse({ email: "a@example.com", password: "tab\there1" }))).toEqual({
      password: ["Password cannot contain control characters"],
    });
  });
});

describe("createOrPromoteAdministrator", () => {
  it("creates a verified administrator who can log in", async () => {
    const result = await createOrPromoteAdministrator({ email: "boss@example.com", password: "administrator secret" });
    expect(result).toMatchObject({
      created: true,
      user: { email: "boss@example.com", role: { name: "administrator" } },
    });
    expect(await logIn({ email: "boss@example.com", password: "administrator secret", ip: freshIp() })).toMatchObject({
      ok: true,
      user: { role: { name: "administrator" } },
    });
    const audit = await getDb()
      .selectFrom("audit_events")
      .select("action")
      .where("target_email", "=", "boss@example.com")
      .execute();
    expect(audit.map((a) => a.action)).toContain("admin.created");
  });

  it("promotes an existing (even unverified) investor, sets the new password, ends their sessions and tells them", async () => {
    await registerAccount({ email: "promote.me@example.com", password: PASSWORD, ip: freshIp() });
    const before = await getUserByEmail("promote.me@example.com");
    const result = await createOrPromoteAdministrator({ email: "promote.me@example.com", password: "promoted secret" });
    expect(result).toMatchObject({
      created: false,
      user: { id: before!.id, role: { name: "administrator" } },
    });
    expect(await logIn({ email: "promote.me@example.com", password: PASSWORD, ip: freshIp() })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await logIn({ email: "promote.me@example.com", password: "promoted secret", ip: freshIp() })).toMatchObject({
      ok: true,
    });
    const notice = await smtp.mailTo("promote.me@example.com", "Your password and second factor were reset");
    expect(notice.text).toContain("reset your account on the firm's server");
    expect(notice.text).not.toContain("promoted secret");
  });
});
