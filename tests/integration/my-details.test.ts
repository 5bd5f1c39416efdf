/**
 * The investor's own details and data (issue 30, items 7 to 9): the status screens' NDA steps with their
 * dates, the correction of the name and address until the NDA is sent (audited with the old and new
 * values, the firm's mailbox told), the same rule on the API, and "Download my data" in sudo mode
 * (its content, never the title of a document the investor was refused, its refusal without a fresh
 * confirmation, its audit row and e-mail). A real database
 * (SQLite, or PostgreSQL through the postgres project) and a real SMTP catcher.
 */
import { myDataContent, myDetailsContent } from "~/content/my-details";
import { nameAddressMessages } from "~/content/portal";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { issueApiTokens, revokeApiTokens } from "~/models/account/api-token.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { investorRecord } from "~/models/investors/investor-record.server";
import { setAudience } from "~/models/library/library-audience.server";
import { editDocument } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import * as setNameRoute from "~/routes/api.user.set_name_address";
import * as pageRoute from "~/routes/financing._index";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as dataRoute from "~/routes/financing.security_.data";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import { bearerHeaders, createSession, createUser, sessionHeaders, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  page: pageRoute,
  data: dataRoute,
  setName: setNameRoute,
  document: documentRoute,
});
const FIRM_MAILBOX = "firm-details@example.com";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

let made = 0;

const { smtp } = useIntegration({ mail: true, env: { CONTACT_EMAIL: FIRM_MAILBOX } });

async function investor(fields: Parameters<typeof createUser>[0] = {}) {
  made += 1;
  return createUser({ email: `details.${made}@example.com`, ...fields });
}

/** The rows about the user, but the sign-ins the tests' sessions record. */
const auditRowsOf = (userId: string) =>
  getDb()
    .selectFrom("audit_events")
    .selectAll()
    .where("target_id", "=", userId)
    .where("action", "!=", "login.succeeded")
    .orderBy("id")
    .execute();

function postCorrection(cookie: { Cookie: string }, entries: Record<string, string>) {
  return callRoute(routes.page, {
    method: "POST",
    path: "/financing?index",
    body: new URLSearchParams(entries).toString(),
    headers: { ...cookie, ...FORM },
    ip: "10.30.0.1",
  });
}

describe("the status screens", () => {
  it("show the details as stored and the three steps with the dates the trail holds, never who took them", async () => {
    testClock.freeze(Date.UTC(2026, 10, 20, 9, 0, 0));
    const jane = await investor({
      fullName: "Jane Roe",
      address: "1 Main St Springfield",
      addressLines: "1 Main St\nSpringfield",
    });
    await recordAuditEvent({ actorId: jane.id, action: "profile.name_address.set", targetId: jane.id });
    const given = await (
      await callRoute(routes.page, { path: "/financing", headers: await sessionHeaders(jane.id) })
    ).json();
    expect(given).toEqual({
      screen: "thank-you",
      table: null,
      progress: {
        details: {
          fullName: "Jane Roe",
          address: "1 Main St Springfield",
          addressLines: "1 Main St\nSpringfield",
          correctable: true,
        },
        steps: {
          details: { done: true, at: "2026-11-20T09:00:00.000Z" },
          sent: { done: false, at: null },
          signed: { done: false, at: null },
        },
      },
    });

    testClock.freeze(Date.UTC(2026, 10, 22, 15, 30, 0));
    await getDb().updateTable("users").set({ is_nda_sent: 1 }).where("id", "=", jane.id).execute();
    await recordAuditEvent({
      actorId: "some-admin",
      actorEmail: "admin@example.com",
      action: "nda.sent.changed",
      targetId: jane.id,
      details: { state: true },
    });
    const pending = await (
      await callRoute(routes.page, { path: "/financing", headers: await sessionHeaders(jane.id) })
    ).json();
    expect(pending.screen).toBe("nda-pending");
    expect(pending.progress.details.correctable).toBe(false);
    expect(pending.progress.steps.sent).toEqual({ done: true, at: "2026-11-22T15:30:00.000Z" });
    expect(JSON.stringify(pending)).not.toContain("admin@example.com");
  });

  it("say a step done before the trail recorded it is done, without a date", async () => {
    const old = await investor({ fullName: "Old Timer", address: "2 Elm St", sent: true });
    const data = await (
      await callRoute(routes.page, { path: "/financing", headers: await sessionHeaders(old.id) })
    ).json();
    expect(data.progress.steps).toEqual({
      details: { done: true, at: null },
      sent: { done: true, at: null },
      signed: { done: false, at: null },
    });
  });
});

describe("correcting the name and address", () => {
  it("is allowed until the NDA is sent: stored, audited with the old and new values, the firm told", async () => {
    const jane = await investor({ fullName: "Jane Reo", address: "1 Mian St" });
    const response = await postCorrection(await sessionHeaders(jane.id), {
      intent: "correct",
      fullName: "  Jane   Roe ",
      address: "1 Main St  Springfield IL",
      role: "administrator",
      isNDASent: "true",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing");
    expect(await userRow(jane.id)).toMatchObject({
      full_name: "Jane Roe",
      address: "1 Main St Springfield IL",
      role: "investor",
      is_nda_sent: 0,
    });

    const rows = await auditRowsOf(jane.id);
    const row = rows[rows.length - 1];
    expect(row).toMatchObject({
      action: "profile.name_address.corrected",
      actor_id: jane.id,
      actor_email: jane.email,
      ip: "10.30.0.1",
    });
    expect(JSON.parse(row.details ?? "{}")).toEqual({
      before: { fullName: "Jane Reo", address: "1 Mian St" },
      after: { fullName: "Jane Roe", address: "1 Main St Springfield IL" },
    });

    const mail = await smtp.waitFor((m) => m.to.includes(FIRM_MAILBOX) && m.subject.includes("corrected: Jane Roe"));
    expect(mail.replyTo).toContain(jane.email);
    expect(mail.text).toContain("Full name: Jane Reo\nAddress: 1 Mian St");
    expect(mail.text).toContain("Full name: Jane Roe\nAddress: 1 Main St Springfield IL");

    // The details stay dated by their giving (here before the trail began); the correction is a line of its own.
    expect((await investorRecord(jane.id))?.timeline.details).toEqual({
      done: true,
      at: null,
      by: null,
      history: [{ change: "corrected", at: new Date(row.at).toISOString(), by: jane.email }],
    });
  });

  it("the same details again change nothing: no audit row, no mail", async () => {
    const jane = await investor({ fullName: "Jane Same", address: "3 Oak St" });
    const mails = smtp.messages.length;
    const response = await postCorrection(await sessionHeaders(jane.id), {
      intent: "correct",
      fullName: "Jane Same",
      address: " 3 Oak  St ",
    });
    expect(response.status).toBe(302);
    expect(await auditRowsOf(jane.id)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.length).toBe(mails);
  });

  it("is refused once the NDA is sent: 409 with the reason, nothing stored, no row, no mail", async () => {
    for (const state of [{ sent: true }, { signed: true }]) {
      const jane = await investor({ fullName: "Jane Fixed", address: "4 Pine St", ...state });
      const mails = smtp.messages.length;
      const response = await postCorrection(await sessionHeaders(jane.id), {
        intent: "correct",
        fullName: "Someone Else",
        address: "Elsewhere",
      });
      expect(response.status).toBe(409);
      expect(JSON.stringify(await response.json())).toContain(myDetailsContent.fixed);
      expect(await userRow(jane.id)).toMatchObject({ full_name: "Jane Fixed", address: "4 Pine St" });
      expect(await auditRowsOf(jane.id)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smtp.messages.length).toBe(mails);
    }
  });

  it("refuses bad input with the field's message, and stores nothing", async () => {
    const jane = await investor({ fullName: "Jane Bad", address: "5 Ash St" });
    const cookie = await sessionHeaders(jane.id);
    const cases: [Record<string, string>, string][] = [
      [{ fullName: " ", address: "5 Ash St" }, nameAddressMessages.fullNameRequired],
      [{ fullName: "Jane Bad", address: "" }, nameAddressMessages.addressRequired],
      [{ fullName: "Jane\u202eBad", address: "5 Ash St" }, nameAddressMessages.invisibleCharacters],
      [{ fullName: "x".repeat(201), address: "5 Ash St" }, nameAddressMessages.tooLong(200)],
      [{ fullName: "Jane Bad", address: "y".repeat(603) }, nameAddressMessages.tooLong(602)],
    ];
    for (const [entries, message] of cases) {
      const response = await postCorrection(cookie, { intent: "correct", ...entries });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(message);
    }
    expect(await userRow(jane.id)).toMatchObject({ full_name: "Jane Bad", address: "5 Ash St" });
    expect(await auditRowsOf(jane.id)).toEqual([]);
  });

  it("the first form sent again once the details are given is refused (409, pointing to the correction), changing nothing", async () => {
    const jane = await investor({ fullName: "Jane Twice", address: "6 Birch St" });
    const response = await postCorrection(await sessionHeaders(jane.id), {
      fullName: "Other Name",
      addressLine1: "Other St",
    });
    expect(response.status).toBe(409);
    expect(JSON.stringify(await response.json())).toContain("Correct my details");
    expect(await userRow(jane.id)).toMatchObject({ full_name: "Jane Twice", address: "6 Birch St" });
  });

  it("the API keeps its contract: an investor's own correction before the NDA is sent is recorded as one; after, 409", async () => {
    const jane = await investor({ fullName: "Api Jane", address: "7 Cedar St" });
    const headers = await bearerHeaders(jane.id);
    const ok = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers,
      json: { email: jane.email, full_name: "Api Jane Roe", address: "7 Cedar Street" },
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ fullName: "Api Jane Roe", address: "7 Cedar Street" });
    const rows = await auditRowsOf(jane.id);
    expect(rows.map((row) => row.action)).toEqual(["profile.name_address.corrected"]);
    await smtp.waitFor((m) => m.to.includes(FIRM_MAILBOX) && m.subject.includes("corrected: Api Jane Roe"));

    await getDb().updateTable("users").set({ is_nda_sent: 1 }).where("id", "=", jane.id).execute();
    const refused = await callRoute(routes.setName, {
      path: "/api/user/set_name_address",
      headers,
      json: { email: jane.email, full_name: "Too Late", address: "8 Cedar St" },
    });
    expect(refused.status).toBe(409);
    expect(await userRow(jane.id)).toMatchObject({ full_name: "Api Jane Roe" });
    expect(await auditRowsOf(jane.id)).toHaveLength(1);
  });
});

describe("Download my data", () => {
  const download = (cookie: string, accept = "*/*") =>
    callRoute(routes.data, {
      method: "POST",
      path: "/financing/security/data",
      body: "",
      headers: { Cookie: cookie, Accept: accept, ...FORM },
      ip: "10.30.1.1",
    });

  it("gives the account's data as a JSON attachment, audited and e-mailed", async () => {
    testClock.freeze(Date.UTC(2026, 10, 24, 10, 0, 0));
    const jane = await investor({ fullName: "Data Jane", address: "9 Data St" });
    await recordAuditEvent({
      actorId: jane.id,
      actorEmail: jane.email,
      action: "profile.name_address.set",
      targetId: jane.id,
      ip: "10.30.9.9",
    });
    await recordAuditEvent({
      actorId: "an-admin",
      actorEmail: "boss@example.com",
      action: "nda.sent.changed",
      targetId: jane.id,
      targetEmail: jane.email,
      details: { state: true },
      ip: "10.99.99.99",
    });
    await getDb().updateTable("users").set({ is_nda_sent: 1 }).where("id", "=", jane.id).execute();
    const other = await createSession(jane.id);
    const { cookie } = await createSession(jane.id);
    const tokens = await issueApiTokens(jane.id);
    await issueApiTokens(jane.id, { userAgent: "curl/8.4.0", ip: "192.0.2.7" });
    await revokeApiTokens({ tokens: [tokens.accessToken] });

    const response = await download(cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${myDataContent.fileName}"`);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await response.text();
    const data = JSON.parse(text);

    expect(data.exportedAt).toBe("2026-11-24T10:00:00.000Z");
    expect(data.account).toMatchObject({
      id: jane.id,
      email: jane.email,
      role: "investor",
      fullName: "Data Jane",
      address: "9 Data St",
    });
    expect(data.nda).toEqual({
      detailsGiven: { done: true, at: "2026-11-24T10:00:00.000Z", by: myDataContent.by.you, history: [] },
      sent: { done: true, at: "2026-11-24T10:00:00.000Z", by: myDataContent.by.administrator, history: [] },
      signed: { done: false, at: null, by: null, history: [] },
    });
    expect(data.secondFactor).toEqual({ authenticator: false, passkeys: 0, recoveryCodesLeft: 0 });
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(data.sessions[0]).toEqual({
      current: expect.any(Boolean),
      device: "Unknown",
      ip: "127.0.0.1",
      signedInAt: "2026-11-24T10:00:00.000Z",
      lastSeenAt: "2026-11-24T10:00:00.000Z",
      expiresAt: "2026-11-24T22:00:00.000Z",
      signedInWith: "password+totp",
    });
    expect(data.apiTokenFamilies).toHaveLength(2);
    expect(data.apiTokenFamilies.map((family: { active: boolean }) => family.active).sort()).toEqual([false, true]);
    expect(data.apiTokenFamilies).toContainEqual(
      expect.objectContaining({ device: "curl/8.4.0", ip: "192.0.2.7", active: true, revokedAt: null }),
    );

    const events = data.activity.map((entry: { code: string }) => entry.code);
    expect(events).toEqual(
      expect.arrayContaining(["profile.name_address.set", "nda.sent.changed", "account.data_exported"]),
    );
    const byFirm = data.activity.find((entry: { code: string }) => entry.code === "nda.sent.changed");
    expect(byFirm).toMatchObject({
      event: `Marked the NDA sent for ${jane.email}`,
      by: myDataContent.by.administrator,
      ip: null,
      details: { state: true },
    });
    const own = data.activity.find((entry: { code: string }) => entry.code === "profile.name_address.set");
    expect(own).toMatchObject({ by: myDataContent.by.you, ip: "10.30.9.9" });

    // No secret, digest or other person's address leaves.
    expect(text).not.toMatch(/password_hash|id_hash|token_hash|family_id|boss@example\.com|10\.99\.99\.99/);
    expect(text).not.toContain(other.cookie.split("=")[1]);

    const rows = await auditRowsOf(jane.id);
    expect(rows[rows.length - 1]).toMatchObject({
      action: "account.data_exported",
      actor_id: jane.id,
      ip: "10.30.1.1",
    });
    await settleAccountMail();
    const mail = await smtp.mailTo(jane.email, "A copy of your data was downloaded");
    expect(mail.text).toContain("If it was not you");
  });

  it("never names a document the investor was refused; the documents they opened keep their titles", async () => {
    const jane = await investor({ signed: true, fullName: "Reader Jane", address: "4 Library St" });
    const chosen = await investor({ signed: true, fullName: "Chosen Joe", address: "5 Library St" });
    const firm = { user: await createUser({ role: "administrator", email: `curator.${made}@example.com` }), ip: null };
    const library = await listLibrary();
    const deck = library.find((document) => document.title === "Slide deck")!;
    const secret = library.find((document) => document.title === "Offering details")!;
    expect(await editDocument(secret.id, { title: "Project Kestrel term sheet", description: "" }, firm)).toEqual({
      ok: true,
    });
    expect(await setAudience(secret.id, "chosen", [chosen.id], firm)).toEqual({ ok: true });
    const headers = await sessionHeaders(jane.id);
    const open = (documentId: string) =>
      callRoute(routes.document, { path: `/financing/materials/${documentId}`, params: { documentId }, headers });
    expect((await open(deck.id)).status).toBe(200);
    expect((await open(secret.id)).status).toBe(403);

    const { cookie } = await createSession(jane.id);
    const text = await (await download(cookie)).text();
    expect(text).not.toContain("Kestrel");
    const activity: { code: string; event: string; details: Record<string, unknown> }[] = JSON.parse(text).activity;
    const refusal = activity.find((entry) => entry.code === "material.refused");
    expect(refusal).toMatchObject({
      event: "Was refused a document, which is not shared with them",
      details: { documentId: secret.id },
    });
    expect(refusal?.details).not.toHaveProperty("title");
    expect(activity.find((entry) => entry.code === "material.opened")).toMatchObject({
      event: 'Opened "Slide deck" (version 1)',
      details: { documentId: deck.id, title: "Slide deck", version: 1 },
    });

    // The firm's own record still names it.
    const [refused] = await getDb()
      .selectFrom("audit_events")
      .select("details")
      .where("actor_id", "=", jane.id)
      .where("action", "=", "material.refused")
      .execute();
    expect(JSON.parse(refused.details ?? "{}")).toEqual({ documentId: secret.id, title: "Project Kestrel term sheet" });
    await settleAccountMail();
  });

  it("without a fresh confirmation is refused with 403: no data, no row, no mail", async () => {
    const jane = await investor({ fullName: "No Sudo", address: "10 Locked St" });
    const { cookie } = await createSession(jane.id, { reauthenticated: false });
    const mails = smtp.messages.length;

    const plain = await download(cookie);
    expect(plain.status).toBe(403);
    expect(await plain.text()).toContain(myDataContent.needsConfirmation);

    const page = await download(cookie, "text/html,application/xhtml+xml");
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain("/financing/confirm?returnTo=%2Ffinancing%2Fsecurity");
    expect(html).not.toContain("10 Locked St");

    // A confirmation that has run out is no confirmation.
    const { cookie: stale } = await createSession(jane.id);
    testClock.freeze(Date.now() + 11 * 60_000);
    expect((await download(stale)).status).toBe(403);
    testClock.reset();

    expect(await auditRowsOf(jane.id)).toEqual([]);
    await settleAccountMail();
    expect(smtp.messages.length).toBe(mails);
  });

  it("refuses a visitor (to the login page) and a body that is not a form (415); a GET goes to the security page", async () => {
    const visitor = await callRoute(routes.data, {
      method: "POST",
      path: "/financing/security/data",
      body: "",
      headers: FORM,
    });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/financing/login");

    const jane = await investor();
    const { cookie } = await createSession(jane.id);
    const json = await callRoute(routes.data, {
      path: "/financing/security/data",
      json: {},
      headers: { Cookie: cookie },
    });
    expect(json.status).toBe(415);
    const get = await callRoute(routes.data, { path: "/financing/security/data", headers: { Cookie: cookie } });
    expect(get.headers.get("Location")).toBe("/financing/security");
    expect(await auditRowsOf(jane.id)).toEqual([]);
  });
});
