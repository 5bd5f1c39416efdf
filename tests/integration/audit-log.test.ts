/**
 * The administrator's audit log: each event in words with its details labelled, filtered by person,
 * kind, investor and days, newest first a page at a time by row id; bad filters refused with 400 and
 * nothing else done; the same through GET /api/audit; the filtered export signed as `npm run
 * audit:export` signs, checked by its verifier, and recorded in the log.
 */
import fs from "node:fs";
import path from "node:path";
import { forgetVerifiedAuditRows } from "~/models/audit/audit-chain-watch.server";
import { verifyAuditExport } from "~/models/audit/audit-export.server";
import type { AuditLogRow } from "~/models/audit/audit-log.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import * as apiAudit from "~/routes/api.audit";
import * as auditPage from "~/routes/financing.audit/route";
import * as auditExport from "~/routes/financing.audit[.]jsonl";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { bearerHeaders, createUser, sessionCookieFor } from "../support/factories";
import { useIntegration } from "../support/integration";

const { database } = useIntegration({ database: "each" });
let admin: Awaited<ReturnType<typeof createUser>>;
let cookie: string;

const DAY = 86_400_000;
const MARCH_1 = Date.parse("2026-03-01T00:00:00.000Z");

beforeEach(async () => {
  forgetVerifiedAuditRows();
  admin = await createUser({ email: "admin@example.com", named: true, role: "administrator" });
  cookie = await sessionCookieFor(admin.id);
});

type PageData = {
  problems: string[];
  page: { rows: AuditLogRow[]; nextCursor: number | null } | null;
  filters: Record<string, string>;
};

async function openPage(query = "") {
  const response = await callRoute(auditPage as unknown as RouteModule, {
    path: `/financing/audit${query}`,
    headers: { Cookie: cookie },
  });
  return { status: response.status, data: (await response.json()) as PageData };
}

async function callApi(query = "", userId = admin.id) {
  const response = await callRoute(apiAudit as unknown as RouteModule, {
    path: `/api/audit${query}`,
    headers: await bearerHeaders(userId),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const auditRowCount = async () =>
  Number(
    (
      await getDb()
        .selectFrom("audit_events")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow()
    ).count,
  );

/** An investor's day: signs in on March 1st, views the materials on the 2nd, the administrator marks the NDA on the 3rd. */
async function investorDays() {
  testClock.freeze(MARCH_1 + 9 * 3_600_000);
  await recordAuditEvent({
    actorId: "inv-1",
    actorEmail: "ann@example.com",
    action: "login.succeeded",
    targetId: "inv-1",
    targetEmail: "ann@example.com",
    details: { method: "password+totp", via: "web" },
    ip: "192.0.2.7",
  });
  testClock.freeze(MARCH_1 + DAY + 9 * 3_600_000);
  await recordAuditEvent({
    actorId: "inv-1",
    actorEmail: "ann@example.com",
    action: "materials.view",
    details: { page: "/financing/materials" },
    ip: "192.0.2.7",
  });
  testClock.freeze(MARCH_1 + 2 * DAY + 9 * 3_600_000);
  await recordAuditEvent({
    actorId: admin.id,
    actorEmail: admin.email,
    action: "nda.signed.changed",
    targetId: "inv-1",
    targetEmail: "ann@example.com",
    details: { state: true, mailed: true },
    ip: "198.51.100.2",
  });
  testClock.reset();
}

describe("the audit page", () => {
  it("shows each event in words, whom it concerned, its details labelled, its address and its row", async () => {
    await investorDays();
    const { status, data } = await openPage();
    expect(status).toBe(200);
    const [nda, view, login] = data.page!.rows;
    expect(nda).toMatchObject({
      event: "Marked the NDA signed for ann@example.com",
      actorEmail: "admin@example.com",
      targetEmail: "ann@example.com",
      labelledDetails: [
        { label: "New state", value: "Yes" },
        { label: "Investor e-mailed", value: "Yes" },
      ],
      ip: "198.51.100.2",
    });
    expect(view).toMatchObject({
      event: "Viewed /financing/materials",
      labelledDetails: [{ label: "Page", value: "/financing/materials" }],
    });
    expect(login).toMatchObject({
      event: "Signed in with password and authenticator",
      labelledDetails: [
        { label: "Method", value: "password and authenticator" },
        { label: "Through", value: "the website" },
      ],
    });
    // The row's number is its place in the chain: ids count up by one.
    expect([nda.id, view.id, login.id]).toEqual([login.id + 2, login.id + 1, login.id]);
  });

  it("filters by person, kind, investor and days (UTC)", async () => {
    await investorDays();
    const actions = async (query: string) => (await openPage(query)).data.page!.rows.map((row) => row.action);
    expect(await actions("?person=ANN@example.com")).toEqual(["materials.view", "login.succeeded"]);
    expect(await actions("?kind=materials.view")).toEqual(["materials.view"]);
    expect(await actions("?investor=ann@example.com")).toEqual(["nda.signed.changed", "login.succeeded"]);
    expect(await actions("?from=2026-03-02&to=2026-03-02")).toEqual(["materials.view"]);
    expect(await actions("?from=2026-03-02")).toEqual(["nda.signed.changed", "materials.view"]);
    expect(await actions("?to=2026-03-01")).toEqual(["login.succeeded"]);
    expect(await actions("?from=2026-04-01&to=2026-04-30")).toEqual([]);
    expect(await actions("?person=ann@example.com&kind=login.succeeded&from=&to=&investor=")).toEqual([
      "login.succeeded",
    ]);
  });

  it("pages newest first, 50 a page, by the last row's id", async () => {
    for (let i = 0; i < 120; i++) {
      await recordAuditEvent({ actorEmail: "pager@example.com", action: "test.paged", details: { i } });
    }
    const first = (await openPage("?person=pager@example.com")).data.page!;
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0].id).toBeGreaterThan(first.rows[49].id);
    expect(first.nextCursor).toBe(first.rows[49].id);
    const second = (await openPage(`?person=pager@example.com&cursor=${first.nextCursor}`)).data.page!;
    expect(second.rows[0].id).toBe(first.nextCursor! - 1);
    const third = (await openPage(`?person=pager@example.com&cursor=${second.nextCursor}`)).data.page!;
    expect(third.rows).toHaveLength(20);
    expect(third.nextCursor).toBeNull();
    // An unknown action is shown as its code, its details still labelled.
    expect(third.rows[0]).toMatchObject({ event: "test.paged", labelledDetails: [{ label: "i", value: "19" }] });
  });

  it.each([
    ["?from=2026-13-01", "Enter a date as YYYY-MM-DD."],
    ["?to=2026-02-30", "Enter a date as YYYY-MM-DD."],
    ["?from=yesterday", "Enter a date as YYYY-MM-DD."],
    ["?from=2026-03-02&to=2026-03-01", "The start date must be on or before the end date."],
    ["?kind=no.such.event", "Choose an event from the list."],
    ["?person=ann", "Enter an e-mail address, like name@example.com."],
    ["?investor=a%20b@example.com", "Enter an e-mail address, like name@example.com."],
    ["?cursor=abc", "The page link is not valid: start again from the newest events."],
    ["?cursor=0", "The page link is not valid: start again from the newest events."],
  ])("refuses %s with 400 and says why", async (query, message) => {
    const { status, data } = await openPage(query);
    expect(status).toBe(400);
    expect(data.problems).toEqual([message]);
    expect(data.page).toBeNull();
  });
});

describe("GET /api/audit", () => {
  it("answers the events in words with their details as an object, filtered, and the next cursor", async () => {
    await investorDays();
    const { status, body } = await callApi("?investor=ann@example.com");
    expect(status).toBe(200);
    expect(body).toEqual({
      events: [
        {
          id: expect.any(Number),
          at: "2026-03-03T09:00:00.000Z",
          actorEmail: "admin@example.com",
          action: "nda.signed.changed",
          event: "Marked the NDA signed for ann@example.com",
          targetEmail: "ann@example.com",
          targetId: "inv-1",
          details: { state: true, mailed: true },
          ip: "198.51.100.2",
        },
        expect.objectContaining({ action: "login.succeeded", details: { method: "password+totp", via: "web" } }),
      ],
    });

    for (let i = 0; i < 55; i++) await recordAuditEvent({ action: "test.paged" });
    const first = await callApi("?kind=");
    expect(first.body.events).toHaveLength(50);
    expect(first.body.nextCursor).toEqual(expect.stringMatching(/^\d+$/));
    const second = await callApi(`?cursor=${first.body.nextCursor as string}`);
    expect((second.body.events as { id: number }[])[0].id).toBe(Number(first.body.nextCursor) - 1);
  });

  it("refuses bad filters with 400 and the API's envelope, and an investor's token with 403", async () => {
    const reversed = await callApi("?from=2026-03-02&to=2026-03-01");
    expect(reversed).toEqual({
      status: 400,
      body: {
        message: "The start date must be on or before the end date.",
        issues: { to: ["The start date must be on or before the end date."] },
      },
    });
    expect((await callApi("?from=2026-3-1")).body).toMatchObject({ issues: { from: ["Enter a date as YYYY-MM-DD."] } });
    const investor = await createUser({ email: "ivy@example.com" });
    expect((await callApi("", investor.id)).status).toBe(403);
  });
});

describe("the export", () => {
  const download = async (query = "") => {
    const response = await callRoute(auditExport as unknown as RouteModule, {
      path: `/financing/audit.jsonl${query}`,
      headers: { Cookie: cookie },
      ip: "203.0.113.5",
    });
    const file = path.join(database.dir, `export-${Math.random().toString(36).slice(2)}.jsonl`);
    fs.writeFileSync(file, await response.text());
    return { response, file };
  };

  it("is the whole trail, signed as audit:export signs it, and verifies", async () => {
    await investorDays();
    const { response, file } = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="audit-log.jsonl"');
    expect(await verifyAuditExport(file)).toMatchObject({ ok: true, rows: await auditRowCount() });
  });

  it("holds only the filtered rows, still signed, and is recorded with its filters", async () => {
    await investorDays();
    const { file } = await download("?person=ann@example.com&kind=materials.view");
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({ action: "materials.view", actor_email: "ann@example.com" });
    // The signature holds; the chain inside shows that rows were left out, as a filtered export does.
    expect(await verifyAuditExport(file)).toMatchObject({ ok: false, problem: "missing" });
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("ann@", "eve@"));
    expect(await verifyAuditExport(file)).toEqual({ ok: false, problem: "signature" });

    const recorded = await getDb()
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "audit.exported")
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ actor_email: "admin@example.com", ip: "203.0.113.5" });
    expect(JSON.parse(recorded.details!)).toEqual({ person: "ann@example.com", kind: "materials.view" });
  });

  it("is an administrator's: an investor is refused with 403, and nothing is recorded", async () => {
    const investor = await createUser({ email: "ivy@example.com" });
    const investorCookie = await sessionCookieFor(investor.id);
    const before = await auditRowCount();
    const response = await callRoute(auditExport as unknown as RouteModule, {
      path: "/financing/audit.jsonl",
      headers: { Cookie: investorCookie },
    });
    expect(response.status).toBe(403);
    expect(await auditRowCount()).toBe(before);
  });

  it("refuses bad filters with 400, recording nothing", async () => {
    await investorDays();
    const before = await auditRowCount();
    const { response } = await download("?from=2026-03-05&to=2026-03-01");
    expect(response.status).toBe(400);
    expect(fs.readFileSync((await download("?kind=nope")).file, "utf8")).toBe("Choose an event from the list.\n");
    expect(await auditRowCount()).toBe(before);
  });
});
