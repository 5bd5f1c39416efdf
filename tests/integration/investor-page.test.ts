/**
 * An investor's page (/financing/investors/:id): what it shows (account, NDA timeline, activity by
 * cursor), its actions (correction, verification e-mail, second factor reset, NDA flags) with their
 * refusals, e-mails and audit rows; the NDA refused for an investor not ready for one; "sudo mode".
 */
import { randomUUID } from "node:crypto";
import { sessionCookie } from "~/http/auth.server";
import { getToast } from "~/http/toast.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { hashSecretToken } from "~/models/account/secret-token.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { ACTIVITY_PAGE_SIZE } from "~/models/investors/investor-record.server";
import { replaceRecoveryCodes, spendRecoveryCode } from "~/models/second-factor/recovery-code.server";
import * as getInvestorRoute from "~/routes/api.user.get_investor";
import * as sentRoute from "~/routes/api.user.update_nda_sent";
import * as signedRoute from "~/routes/api.user.update_nda_signed";
import * as investorPage from "~/routes/financing.investors.$id";
import * as deletePage from "~/routes/financing.investors.$id_.delete";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, type RouteModule } from "../support/api-routes";
import { addPasskey, accessTokenFor, createSession, createUser, enrolTotp, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const page = investorPage as unknown as RouteModule;
const remove = deletePage as unknown as RouteModule;
const freshIp = addressSequence("10.31");

const { smtp } = useIntegration({ mail: true });

/** An administrator's session: confirmed ("sudo") unless told otherwise. */
async function administrator({ confirmed = true } = {}) {
  const admin = await createUser({ named: true, role: "administrator" });
  const { cookie } = await createSession(admin.id, { reauthenticated: confirmed });
  return { admin, cookie };
}

function visit(cookie: string, id: string, query = "") {
  return callRoute(page, { path: `/financing/investors/${id}${query}`, params: { id }, headers: { Cookie: cookie } });
}

function post(route: RouteModule, cookie: string, id: string, fields: Record<string, string>, path = "") {
  return callRoute(route, {
    method: "POST",
    ip: freshIp(),
    path: path || `/financing/investors/${id}`,
    params: { id },
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

const auditRows = (action: string, targetId: string) =>
  getDb()
    .selectFrom("audit_events")
    .selectAll()
    .where("action", "=", action)
    .where("target_id", "=", targetId)
    .execute();

async function toastOf(answer: Response) {
  const cookie = answer.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  return (await getToast(new Request("http://localhost:3000/", { headers: { Cookie: cookie } }))).toast;
}

const mailsTo = async (email: string) => {
  await settleAccountMail();
  return smtp.messages.filter((mail) => mail.to.includes(email));
};

describe("the investor's page", () => {
  it("shows who they are, the NDA's steps with when and by whom, and a count of live sessions", async () => {
    const { admin, cookie } = await administrator();
    const investor = await createUser({ named: true });
    await createSession(investor.id);
    await enrolTotp(investor.id);
    const token = await accessTokenFor(admin.id);
    const signed = await callRoute(signedRoute as unknown as RouteModule, {
      method: "POST",
      path: "/api/user/update_nda_signed",
      headers: { Authorization: `Bearer ${token}` },
      json: { email: investor.email, state: true },
    });
    expect(signed.status).toBe(201);

    const answer = await visit(cookie, investor.id);
    expect(answer.status).toBe(200);
    const { record } = await answer.json();
    expect(record).toMatchObject({
      email: investor.email,
      fullName: investor.full_name,
      emailVerified: true,
      isNDASent: true,
      isNDASigned: true,
      secondFactor: { authenticator: true, passkeys: 0 },
      sessionsOpen: 1,
      timeline: {
        // Given before the trail recorded it (a factory's row): done, with no when.
        details: { done: true, at: null, by: null, history: [] },
        sent: { done: true, by: admin.email, history: [] },
        signed: { done: true, by: admin.email, history: [] },
      },
    });
    expect(record.timeline.signed.at).toEqual(expect.any(String));
  });

  it("counts only live sessions, and shows the second factor's passkeys and unused recovery codes", async () => {
    const { cookie } = await administrator();
    const investor = await createUser({ named: true });
    await enrolTotp(investor.id);
    for (const name of ["Laptop", "Phone"]) await addPasskey(investor.id, { name, createdAt: Date.now() });
    const codes = await replaceRecoveryCodes(investor.id);
    expect(await spendRecoveryCode(investor.id, codes[0]!)).toBe(true);
    await createSession(investor.id);
    const idle = await createSession(investor.id);
    const expired = await createSession(investor.id);
    const longAgo = Date.now() - 24 * 60 * 60 * 1000;
    const [idleHash, expiredHash] = await Promise.all(
      [idle, expired].map(async ({ cookie: pair }) => hashSecretToken((await sessionCookie().parse(pair)) as string)),
    );
    await getDb().updateTable("sessions").set({ last_seen_at: longAgo }).where("id_hash", "=", idleHash!).execute();
    await getDb().updateTable("sessions").set({ expires_at: longAgo }).where("id_hash", "=", expiredHash!).execute();

    const { record } = await (await visit(cookie, investor.id)).json();
    expect(record.secondFactor).toEqual({ authenticator: true, passkeys: 2, recoveryCodesLeft: codes.length - 1 });
    expect(record.sessionsOpen).toBe(1);
  });

  it("answers 400 for a malformed id or cursor and 404 for an unknown id or an administrator", async () => {
    const { admin, cookie } = await administrator();
    expect((await visit(cookie, "not an id!")).status).toBe(400);
    expect((await visit(cookie, "x".repeat(65))).status).toBe(400);
    expect((await visit(cookie, randomUUID())).status).toBe(404);
    expect((await visit(cookie, admin.id)).status).toBe(404);
    const investor = await createUser({ named: true });
    for (const cursor of ["abc", "0", "-1", "1.5", "9".repeat(20)]) {
      expect((await visit(cookie, investor.id, `?before=${cursor}`)).status).toBe(400);
    }
  });

  it("lists the investor's views and downloads, newest first, a page at a time by cursor", async () => {
    const { cookie } = await administrator();
    const investor = await createUser({ named: true });
    const other = await createUser({ named: true });
    const total = ACTIVITY_PAGE_SIZE + 5;
    for (let n = 0; n < total; n++) {
      await recordAuditEvent({
        actorId: investor.id,
        actorEmail: investor.email,
        action: n % 2 ? "materials.view" : "file.download",
        details: n % 2 ? { page: `/financing/materials?n=${n}` } : { file: "deck.pdf", downloadId: String(n) },
      });
    }
    // Not activity: someone else's view, and the investor's own sign-in.
    await recordAuditEvent({ actorId: other.id, action: "materials.view", details: { page: "/financing/materials" } });
    await recordAuditEvent({ actorId: investor.id, action: "login.succeeded" });

    const first = await (await visit(cookie, investor.id)).json();
    expect(first.activity.entries).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first.activity.entries[0]).toMatchObject({ action: "file.download", detail: "deck.pdf" });
    const ids = first.activity.entries.map((entry: { id: number }) => entry.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(first.activity.nextCursor).toBe(String(ids[ids.length - 1]));

    const second = await (await visit(cookie, investor.id, `?before=${first.activity.nextCursor}`)).json();
    expect(second.activity.entries).toHaveLength(5);
    expect(second.activity.nextCursor).toBeNull();
    expect(second.activity.entries[4]).toMatchObject({ action: "file.download" });
  });
});

describe("correcting the name and address", () => {
  const correction = { intent: "correct", fullName: "Ada Lovelace", address: "12 St James's Square, London" };

  it("writes the new values, records old and new with the reason, and tells the investor", async () => {
    const { admin, cookie } = await administrator();
    const investor = await createUser({ fullName: "Ada Lovelance", address: "12 St James Square" });
    const answer = await post(page, cookie, investor.id, { ...correction, reason: "Typo reported by phone" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`/financing/investors/${investor.id}`);
    expect(await userRow(investor.id)).toMatchObject({
      full_name: "Ada Lovelace",
      address: "12 St James's Square, London",
    });
    const [row] = await auditRows("investor.corrected", investor.id);
    expect(row.actor_id).toBe(admin.id);
    expect(JSON.parse(row.details ?? "{}")).toEqual({
      reason: "Typo reported by phone",
      before: { fullName: "Ada Lovelance", address: "12 St James Square" },
      after: { fullName: "Ada Lovelace", address: "12 St James's Square, London" },
    });
    const [mail] = await mailsTo(investor.email);
    expect(mail.subject).toBe("Your name and address were corrected");
    expect(mail.text).toContain("Ada Lovelace");

    // Given before the trail recorded it; the correction is a line beneath, by the administrator.
    const { record } = await (await visit(cookie, investor.id)).json();
    expect(record.timeline.details).toEqual({
      done: true,
      at: null,
      by: null,
      history: [{ change: "corrected", at: new Date(row.at).toISOString(), by: admin.email }],
    });
  });

  it("refuses a missing or over-long reason and invisible characters: 400, nothing changed, no mail", async () => {
    const { cookie } = await administrator();
    const investor = await createUser({ named: true });
    const before = await userRow(investor.id);
    const bad: Record<string, string>[] = [
      { ...correction },
      { ...correction, reason: "   " },
      { ...correction, reason: "x".repeat(501) },
      { ...correction, reason: "typo\u200b" },
      { ...correction, fullName: "Ada\u202eecalevoL", reason: "typo" },
      { ...correction, fullName: "", reason: "typo" },
      { ...correction, reason: "typo\u0007" },
    ];
    for (const fields of bad) {
      const answer = await post(page, cookie, investor.id, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
    }
    expect(await userRow(investor.id)).toEqual(before);
    expect(await auditRows("investor.corrected", investor.id)).toEqual([]);
    expect(await mailsTo(investor.email)).toEqual([]);
  });

  it("answers 404 for an unknown investor and 400 for a malformed id", async () => {
    const { cookie } = await administrator();
    expect((await post(page, cookie, randomUUID(), { ...correction, reason: "typo" })).status).toBe(404);
    expect((await post(page, cookie, "bad id", { ...correction, reason: "typo" })).status).toBe(400);
  });
});

describe("sudo mode", () => {
  it("refuses the correction, the reset and the deletion without a fresh confirmation: 403, nothing changed, no mail", async () => {
    const { cookie } = await administrator({ confirmed: false });
    const investor = await createUser({ named: true });
    await enrolTotp(investor.id);
    await createSession(investor.id);
    const before = await userRow(investor.id);

    const corrected = await post(page, cookie, investor.id, {
      intent: "correct",
      fullName: "New Name",
      address: "New Address",
      reason: "typo",
    });
    expect(corrected.status).toBe(403);
    expect((await corrected.json()).message).toMatch(/Confirm it's you first/);
    const reset = await post(page, cookie, investor.id, { intent: "reset-factor" });
    expect(reset.status).toBe(403);
    const deleted = await post(remove, cookie, investor.id, { returnTo: "/financing" }, "/x");
    expect(deleted.status).toBe(403);

    expect(await userRow(investor.id)).toEqual(before);
    expect(
      await getDb().selectFrom("totp_credentials").select("user_id").where("user_id", "=", investor.id).execute(),
    ).toHaveLength(1);
    expect(
      await getDb().selectFrom("sessions").select("user_id").where("user_id", "=", investor.id).execute(),
    ).toHaveLength(1);
    expect(await mailsTo(investor.email)).toEqual([]);

    const view = await (await visit(cookie, investor.id)).json();
    expect(view.sudo).toEqual({
      until: null,
      confirmHref: `/financing/confirm?returnTo=${encodeURIComponent(`/financing/investors/${investor.id}`)}`,
    });
  });
});

describe("resetting the second factor", () => {
  it("removes the authenticator, passkeys and codes, ends every session and token, mails and records it", async () => {
    const { admin, cookie } = await administrator();
    const investor = await createUser({ named: true });
    await enrolTotp(investor.id);
    await createSession(investor.id);
    await accessTokenFor(investor.id);
    const answer = await post(page, cookie, investor.id, { intent: "reset-factor" });
    expect(answer.status).toBe(302);
    const count = async (table: "totp_credentials" | "sessions" | "passkeys" | "recovery_codes") =>
      (await getDb().selectFrom(table).select("user_id").where("user_id", "=", investor.id).execute()).length;
    expect(await count("totp_credentials")).toBe(0);
    expect(await count("passkeys")).toBe(0);
    expect(await count("recovery_codes")).toBe(0);
    expect(await count("sessions")).toBe(0);
    const live = await getDb()
      .selectFrom("api_tokens")
      .select("token_hash")
      .where("user_id", "=", investor.id)
      .where("revoked_at", "is", null)
      .execute();
    expect(live).toEqual([]);
    const [row] = await auditRows("investor.factor_reset", investor.id);
    expect(row).toMatchObject({ actor_id: admin.id, target_email: investor.email });
    const [mail] = await mailsTo(investor.email);
    expect(mail.subject).toBe("Your sign-in security was changed");
    expect(mail.text).toContain("reset your second factor");
  });
});

describe("the verification e-mail", () => {
  it("is sent again for an unverified address, refused for a verified one, throttled as the investor's own", async () => {
    const { cookie } = await administrator();
    const verified = await createUser({ named: true });
    const refused = await post(page, cookie, verified.id, { intent: "resend-verification" });
    expect(refused.status).toBe(409);

    const investor = await createUser({ verified: false });
    const sent = await post(page, cookie, investor.id, { intent: "resend-verification" });
    expect(sent.status).toBe(302);
    const [mail] = await mailsTo(investor.email);
    expect(mail.subject).toBe("Verify your email address");
    expect(await auditRows("investor.verification_resent", investor.id)).toHaveLength(1);

    let answer = sent;
    for (let n = 0; n < 5 && answer.status !== 429; n++) {
      answer = await post(page, cookie, investor.id, { intent: "resend-verification" });
    }
    expect(answer.status).toBe(429);
    expect(answer.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("marking the NDA", () => {
  it("is refused for an unverified or unnamed investor (409, nothing changed); unmarking stays allowed", async () => {
    const { admin, cookie } = await administrator();
    const token = await accessTokenFor(admin.id);
    const unverified = await createUser({ named: true, verified: false });
    const unnamed = await createUser();
    const call = (route: unknown, email: string, state: boolean) =>
      callRoute(route as RouteModule, {
        method: "POST",
        path: "/api/user/update_nda",
        headers: { Authorization: `Bearer ${token}` },
        json: { email, state },
      });
    for (const [investor, message] of [
      [unverified, /verified their e-mail/],
      [unnamed, /name and address/],
    ] as const) {
      for (const route of [sentRoute, signedRoute]) {
        const answer = await call(route, investor.email, true);
        expect(answer.status).toBe(409);
        expect((await answer.json()).message).toMatch(message);
      }
      expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });
      // The table's form: back to the table, with the reason.
      const web = await post(page, cookie, investor.id, { intent: "nda-sent", state: "yes", returnTo: "/financing" });
      expect(web.status).toBe(302);
      expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 0 });
    }
    expect(await auditRows("nda.sent.changed", unverified.id)).toEqual([]);

    const marked = await createUser({ named: true, verified: false, signed: true });
    expect((await call(signedRoute, marked.email, false)).status).toBe(201);
    expect((await call(sentRoute, marked.email, false)).status).toBe(201);
    expect(await userRow(marked.id)).toMatchObject({ is_nda_sent: 0, is_nda_signed: 0 });
  });

  it("says which flag changed and its new value beside the specification's words", async () => {
    const { cookie } = await administrator();
    const investor = await createUser({ fullName: "Grace Hopper", address: "1 Navy Yard" });
    const answer = await post(page, cookie, investor.id, {
      intent: "nda-signed",
      state: "yes",
      returnTo: "/financing",
    });
    expect(answer.status).toBe(302);
    expect(await toastOf(answer)).toMatchObject({
      type: "success",
      message: "NDA Sign state changed: NDA completed for Grace Hopper is now Yes; NDA sent is Yes too.",
    });
    const sent = await post(page, cookie, investor.id, { intent: "nda-sent", state: "yes", returnTo: "/financing" });
    // The sent flag's notice names the sent flag; the specification's words are the completed flag's.
    expect(await toastOf(sent)).toMatchObject({
      type: "success",
      message: "NDA sent state changed: NDA sent for Grace Hopper is now Yes.",
    });
    const refused = await post(page, cookie, (await createUser()).id, {
      intent: "nda-sent",
      state: "yes",
      returnTo: "/financing",
    });
    expect(await toastOf(refused)).toMatchObject({ type: "error", message: expect.stringMatching(/name and address/) });
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
  });
});

describe("GET /api/user/get_investor", () => {
  const get = (query: string, headers: Record<string, string> = {}) =>
    callRoute(getInvestorRoute as unknown as RouteModule, { path: `/api/user/get_investor${query}`, headers });

  it("answers the page's data to an administrator, and refuses the rest in the API's envelope", async () => {
    const { admin } = await administrator();
    const auth = { Authorization: `Bearer ${await accessTokenFor(admin.id)}` };
    const investor = await createUser({ named: true });
    await recordAuditEvent({
      actorId: investor.id,
      action: "materials.view",
      details: { page: "/financing/materials" },
    });

    const answer = await get(`?id=${investor.id}`, auth);
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.investor).toMatchObject({ id: investor.id, email: investor.email, sessionsOpen: 0 });
    expect(body.activity).toMatchObject({
      entries: [{ action: "materials.view", detail: "/financing/materials" }],
      nextCursor: null,
    });

    for (const query of ["", "?id=", "?id=not%20an%20id", `?id=${investor.id}&activityCursor=x`]) {
      const refused = await get(query, auth);
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toMatchObject({ message: expect.any(String) });
    }
    const unknown = await get(`?id=${randomUUID()}`, auth);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "No investor has this id." });
    expect((await get(`?id=${investor.id}`)).status).toBe(401);
    const ownToken = { Authorization: `Bearer ${await accessTokenFor(investor.id)}` };
    expect((await get(`?id=${investor.id}`, ownToken)).status).toBe(403);
  });
});
