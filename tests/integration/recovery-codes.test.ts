/**
 * Recovery codes with every second factor (issue 30): the first passkey brings ten, a second keeps
 * them; an account with a passkey and no codes is offered a set right after its sign-in, and only
 * then; the page that shows a set asks "I have saved these codes" before it moves on, and gives the
 * codes back as a .txt file; the code step takes pasted codes with spaces or a hyphen; a used code
 * that leaves three says so by e-mail; the last passkey removed takes the codes with it. Against a
 * real database and a real SMTP catcher.
 */
import type * as SimpleWebAuthn from "@simplewebauthn/server";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { sessionCookie } from "~/http/auth.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { passkeyRegistrationOptions, registerPasskey, removePasskey } from "~/models/second-factor/passkey.server";
import {
  issueRecoveryCodesIfNone,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from "~/models/second-factor/recovery-code.server";
import { needsRecoveryCodes } from "~/models/second-factor/second-factor.server";
import * as loginPage from "~/routes/financing.login";
import * as codePage from "~/routes/financing.login_.code";
import * as recoveryCodesPage from "~/routes/financing.security_.recovery-codes";
import * as recoveryCodesFile from "~/routes/financing.security_.recovery-codes[.]txt";
import { now, testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import {
  addressSequence,
  callRoute,
  cookiesFrom,
  type RouteCall,
  type RouteModule,
  routeModules,
} from "../support/api-routes";
import { addPasskey, createSession, enrolTotp } from "../support/factories";
import { useIntegration } from "../support/integration";
import { totpCode } from "../support/totp";

// The browser's WebAuthn ceremony is Playwright's (second-factor.spec.ts); here the registration's
// signature check stands aside, so the rule around it (which registration brings codes) is what is tested.
vi.mock("@simplewebauthn/server", async (original) => ({
  ...(await original<typeof SimpleWebAuthn>()),
  verifyRegistrationResponse: vi.fn(async ({ response }: { response: { id: string } }) => ({
    verified: true,
    registrationInfo: { credential: { id: response.id, publicKey: new Uint8Array([1, 2, 3]), counter: 0 } },
  })),
}));

const routes = routeModules({
  login: loginPage,
  code: codePage,
  page: recoveryCodesPage,
  file: recoveryCodesFile,
});

const PASSWORD = "correct horse battery";
const PAGE = "/financing/security/recovery-codes";
const FILE = "/financing/security/recovery-codes.txt";
const SHOWN_CODE = /^[0-9a-z]{5}-[0-9a-z]{5}$/;
const freshIp = addressSequence("10.17");
const { smtp, investor: makeInvestor } = useIntegration({ mail: true, clockAt: Date.UTC(2026, 10, 27, 1, 0, 10) });

function call(route: RouteModule, request: RouteCall) {
  return callRoute(route, { ip: freshIp(), ...request });
}

function post(route: RouteModule, path: string, fields: Record<string, string>, cookie = "") {
  return call(route, {
    method: "POST",
    path,
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

const investor = () => makeInvestor("verified", { password: PASSWORD });

async function sessionIdHashOf(cookie: string) {
  return hashSecretToken((await sessionCookie().parse(cookie)) as string);
}

/** A passkey stored as the browser's registration would store it. */
async function addPasskeyRow(userId: string, id = `passkey-${userId}`) {
  await addPasskey(userId, { id });
}

/** A registration through the model, with the browser's answer standing in (its check is mocked above). */
async function registerOne(user: { id: string; email: string }, cookie: string, credentialId: string) {
  const { challengeId } = await passkeyRegistrationOptions(user);
  const response = {
    id: credentialId,
    rawId: credentialId,
    type: "public-key",
    response: { clientDataJSON: "e30", attestationObject: "e30" },
    clientExtensionResults: {},
  } as RegistrationResponseJSON;
  return registerPasskey({
    user,
    sessionIdHash: await sessionIdHashOf(cookie),
    challengeId,
    response,
    ip: freshIp(),
    userAgent: null,
  });
}

const codeRows = (userId: string) =>
  getDb().selectFrom("recovery_codes").selectAll().where("user_id", "=", userId).execute();

async function auditActions(userId: string) {
  const rows = await getDb().selectFrom("audit_events").select("action").where("target_id", "=", userId).execute();
  return rows.map((row) => row.action);
}

describe("codes with the first second factor of any kind", () => {
  it("gives the first passkey ten codes, keeps them when a second is added, and says so in the e-mail", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id, { authMethod: "password" });

    const first = await registerOne(user, cookie, "first-passkey");
    expect(first.ok).toBe(true);
    const codes = first.ok ? first.recoveryCodes : null;
    expect(codes).toHaveLength(10);
    expect(codes!.every((code) => SHOWN_CODE.test(code))).toBe(true);
    expect(await codeRows(user.id)).toHaveLength(10);
    expect((await smtp.mailTo(user.email, "Your sign-in security was changed")).text).toContain(
      "with ten recovery codes",
    );

    // One spent, then a second passkey: the set stays, the spent one too.
    expect(await spendRecoveryCode(user.id, codes![0])).toBe(true);
    const before = (await codeRows(user.id)).map((row) => row.code_hash).sort();
    const second = await registerOne(user, cookie, "second-passkey");
    expect(second).toEqual({ ok: true, recoveryCodes: null });
    expect((await codeRows(user.id)).map((row) => row.code_hash).sort()).toEqual(before);
    expect(await spendRecoveryCode(user.id, codes![1])).toBe(true);
  });

  it("makes one set when two are asked for at once, and none over a set whose codes are all used", async () => {
    const user = await investor();
    const both = await Promise.all([issueRecoveryCodesIfNone(user.id), issueRecoveryCodesIfNone(user.id)]);
    expect(both.filter((codes) => codes !== null)).toHaveLength(1);
    expect(await codeRows(user.id)).toHaveLength(10);

    const other = await investor();
    const set = await replaceRecoveryCodes(other.id);
    for (const code of set) await spendRecoveryCode(other.id, code);
    expect(await issueRecoveryCodesIfNone(other.id)).toBeNull();
  });

  it("removes the codes with the last passkey, and keeps them while another factor remains", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id);
    const sessionIdHash = await sessionIdHashOf(cookie);
    await addPasskeyRow(user.id, "kept-a");
    await addPasskeyRow(user.id, "kept-b");
    await replaceRecoveryCodes(user.id);

    expect(await removePasskey({ user, sessionIdHash, passkeyId: "kept-a", ip: freshIp() })).toBe(true);
    expect(await codeRows(user.id)).toHaveLength(10);
    expect(await removePasskey({ user, sessionIdHash, passkeyId: "kept-b", ip: freshIp() })).toBe(true);
    expect(await codeRows(user.id)).toHaveLength(0);
  });
});

describe("the sign-in's offer of a first set", () => {
  /** An investor with a passkey and an app, and no codes: the code step can be passed with the app's code. */
  async function passkeyWithoutCodes() {
    const user = await investor();
    const secret = await enrolTotp(user.id);
    await addPasskeyRow(user.id);
    return { ...user, secret };
  }

  async function signIn(user: { email: string; secret: string }) {
    const step = cookiesFrom(await post(routes.login, "/financing/login", { email: user.email, password: PASSWORD }));
    return post(routes.code, "/financing/login/code", { code: totpCode(user.secret, now()) }, step);
  }

  it("sends a passkey account without codes to the offer, makes the set once, and then signs in to the portal", async () => {
    const user = await passkeyWithoutCodes();
    expect(await needsRecoveryCodes(user.id)).toBe(true);
    const signedIn = await signIn(user);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe(PAGE);
    const cookie = cookiesFrom(signedIn)
      .split("; ")
      .find((pair) => pair.startsWith("__session="))!;

    // Arriving makes nothing: the page's form does.
    const offered = await call(routes.page, { path: PAGE, headers: { Cookie: cookie } });
    expect(await offered.json()).toEqual({ offer: true, fresh: true });
    expect(await codeRows(user.id)).toHaveLength(0);

    const issued = await post(routes.page, PAGE, { intent: "issue" }, cookie);
    expect(issued.status).toBe(200);
    expect(issued.headers.get("Cache-Control")).toBe("private, no-store");
    const { codes, continueTo } = (await issued.json()) as { codes: string[]; continueTo: string };
    expect(codes).toHaveLength(10);
    expect(continueTo).toBe("/financing");
    expect(await needsRecoveryCodes(user.id)).toBe(false);
    expect(await auditActions(user.id)).toContain("mfa.recovery_codes_issued");
    expect((await smtp.mailTo(user.email, "Your sign-in security was changed")).text).toContain(
      "Ten recovery codes were made",
    );

    // Asked again (a second tab, a replay): the set is never made, or shown, twice.
    const again = await post(routes.page, PAGE, { intent: "issue" }, cookie);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { codes: unknown }).codes).toBeNull();

    // The next sign-in (the app's next code) goes straight to the portal.
    testClock.advance(30_000);
    expect((await signIn(user)).headers.get("Location")).toBe("/financing");
  });

  it("makes no set for a session signed in long ago, which the owner may not hold", async () => {
    const user = await passkeyWithoutCodes();
    const { cookie } = await createSession(user.id, { authMethod: "passkey", reauthenticated: false });
    testClock.advance(11 * 60_000);
    const offered = await call(routes.page, { path: PAGE, headers: { Cookie: cookie } });
    expect(await offered.json()).toEqual({ offer: true, fresh: false });
    const refused = await post(routes.page, PAGE, { intent: "issue" }, cookie);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: string[] }).errors[0]).toMatch(/only just after you sign in/);
    expect(await codeRows(user.id)).toHaveLength(0);
  });

  it("offers nothing to an account without a passkey", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id);
    const refused = await post(routes.page, PAGE, { intent: "issue" }, cookie);
    expect(refused.status).toBe(409);
    expect(await codeRows(user.id)).toHaveLength(0);
  });
});

describe("the page that shows a set", () => {
  const codes = ["abcde-fghjk", "mnpqr-stvwx", "01234-56789"];

  it("moves on only once 'I have saved these codes' is ticked, showing the codes again until then", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id);
    const unticked = await post(
      routes.page,
      PAGE,
      { intent: "continue", codes: codes.join(" "), next: "/financing/security" },
      cookie,
    );
    expect(unticked.status).toBe(400);
    expect(await unticked.json()).toEqual({
      codes,
      continueTo: "/financing/security",
      errors: [expect.stringContaining("I have saved these codes")],
    });

    const ticked = await post(
      routes.page,
      PAGE,
      { intent: "continue", codes: codes.join(" "), next: "/financing/security", saved: "on" },
      cookie,
    );
    expect(ticked.status).toBe(302);
    expect(ticked.headers.get("Location")).toBe("/financing/security");
  });

  it("goes nowhere but the portal's own pages, and refuses what are not codes", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id);
    const attempts: Record<string, string>[] = [
      { intent: "continue", codes: codes.join(" "), next: "https://evil.example/", saved: "on" },
      { intent: "continue", codes: "<script>", next: "/financing", saved: "on" },
      { intent: "continue", codes: Array(11).fill(codes[0]).join(" "), next: "/financing", saved: "on" },
      { intent: "something-else" },
    ];
    for (const fields of attempts) {
      const refused = await post(routes.page, PAGE, fields, cookie);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(((await refused.json()) as { codes: unknown }).codes).toBeNull();
    }
  });

  it("gives the codes back as a .txt file to save, and nothing else", async () => {
    const user = await investor();
    const { cookie } = await createSession(user.id);
    const file = await post(routes.file, FILE, { codes: codes.join(" ") }, cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(file.headers.get("Content-Disposition")).toBe('attachment; filename="recovery-codes.txt"');
    expect(file.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await file.text();
    expect(text.split("\n").filter((line) => SHOWN_CODE.test(line))).toEqual(codes);
    // No set on record: whose codes, without a date the server cannot give.
    expect(text).toContain(`Recovery codes for ${user.email}.\n`);

    // A set on record: the file says when it was made.
    await replaceRecoveryCodes(user.id);
    const dated = await (await post(routes.file, FILE, { codes: codes.join(" ") }, cookie)).text();
    expect(dated).toContain(
      `Recovery codes for ${user.email}, made on ${formatRegistrationTime(new Date(now()).toISOString())}.\n`,
    );

    const refused = await post(routes.file, FILE, { codes: "not codes at all" }, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/not recovery codes/);
    // Signed out: the login page, no file.
    expect((await post(routes.file, FILE, { codes: codes.join(" ") })).status).toBe(302);
    expect((await call(routes.file, { path: FILE })).status).toBe(405);
  });
});

describe("codes as people type and paste them", () => {
  it("takes the app's code with a space or a hyphen, and a recovery code with spaces, in capitals", async () => {
    const user = await investor();
    const secret = await enrolTotp(user.id);
    const [recovery] = await replaceRecoveryCodes(user.id);
    const signIn = async (code: string) => {
      const step = cookiesFrom(await post(routes.login, "/financing/login", { email: user.email, password: PASSWORD }));
      return post(routes.code, "/financing/login/code", { code }, step);
    };
    const app = totpCode(secret, now());
    expect((await signIn(`${app.slice(0, 3)} ${app.slice(3)}`)).status).toBe(302);
    testClock.advance(30_000);
    const next = totpCode(secret, now());
    expect((await signIn(`${next.slice(0, 3)}-${next.slice(3)}`)).status).toBe(302);
    expect((await signIn(` ${recovery.replace("-", " ").toUpperCase()} `)).status).toBe(302);
  });
});

describe("running low", () => {
  it("says so, with the way to a new set, when a used code leaves three", async () => {
    const user = await investor();
    await enrolTotp(user.id);
    const codes = await replaceRecoveryCodes(user.id);
    for (const code of codes.slice(0, 6)) expect(await spendRecoveryCode(user.id, code)).toBe(true);
    const step = cookiesFrom(await post(routes.login, "/financing/login", { email: user.email, password: PASSWORD }));
    expect((await post(routes.code, "/financing/login/code", { code: codes[6] }, step)).status).toBe(302);
    const mail = await smtp.mailTo(user.email, "A recovery code was used: 3 left");
    expect(mail.text).toContain("3 recovery codes are left");
    expect(mail.text).toContain("running low");
    expect(mail.text).toMatch(/\/financing\/security\n/);
    expect(mail.text).toContain("If this was not you");
  });
});
