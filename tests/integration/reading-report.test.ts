/**
 * Who read what (/financing/library/reading): openings recorded through the model show in the report, a
 * document's readers and an investor's readings with their counts and first and last times; the three CSV
 * exports (headers, content, the formula guard) and their audit rows; who may see them, and bad addresses.
 */
import { toPublicUser } from "~/models/account/user.server";
import { editDocument } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { readersOf, recordOpening } from "~/models/library/library-openings.server";
import * as investorPage from "~/routes/financing.investors.$id";
import * as readingsCsv from "~/routes/financing.investors.$id_.readings[.]csv";
import * as reportPage from "~/routes/financing.library_.reading";
import * as reportCsv from "~/routes/financing.library_.reading[.]csv";
import * as readersPage from "~/routes/financing.library_.reading_.$id";
import * as readersCsv from "~/routes/financing.library_.reading_.$id[.]csv";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule, routeModules } from "../support/api-routes";
import { createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  report: reportPage,
  reportCsv: reportCsv,
  readers: readersPage,
  readersCsv: readersCsv,
  investor: investorPage,
  readingsCsv: readingsCsv,
});

useIntegration();

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
const HOUR = 3_600_000;
const iso = (at: number) => new Date(at).toISOString();

async function signedIn(fields: Parameters<typeof createUser>[0]) {
  const user = await createUser(fields);
  const { cookie } = await createSession(user.id);
  return { user, cookie };
}

function get(route: RouteModule, cookie: string, path: string, params: Record<string, string> = {}) {
  return callRoute(route, { path, params, headers: { Cookie: cookie }, ip: "10.62.0.1" });
}

const exportRows = (action: string) =>
  getDb().selectFrom("audit_events").selectAll().where("action", "=", action).orderBy("id").execute();

/** A CSV's rows, its byte order mark checked and taken off. */
async function csvRows(answer: Response) {
  const bytes = Buffer.from(await answer.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
}

function expectCsvHeaders(answer: Response, fileName: string) {
  expect(answer.status).toBe(200);
  expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(answer.headers.get("Content-Disposition")).toBe(`attachment; filename="${fileName}"`);
  expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
}

it("counts each document's openings, its readers and each investor's readings, and exports them as CSV", async () => {
  const { user: admin, cookie } = await signedIn({ role: "administrator", named: true });
  const ada = toPublicUser(await createUser({ signed: true, fullName: "Ada Byron", email: "ada@example.com" }));
  const formula = toPublicUser(
    await createUser({ signed: true, fullName: '=HYPERLINK("http://x")', email: "formula@example.com" }),
  );
  const [video, firm, deck] = await listLibrary();
  const actor = { user: admin, ip: null };
  expect((await editDocument(deck.id, { title: "=SUM(A1)", description: "" }, actor)).ok).toBe(true);
  const deckNow = { ...deck, title: "=SUM(A1)" };

  // Ada opens the firm's description three times over two hours, the deck once; the other investor the deck twice.
  testClock.freeze(T0);
  await recordOpening(ada, firm, null);
  testClock.freeze(T0 + HOUR);
  await recordOpening(ada, firm, null);
  await recordOpening(formula, deckNow, null);
  testClock.freeze(T0 + 2 * HOUR);
  await recordOpening(ada, firm, null);
  await recordOpening(ada, deckNow, null);
  testClock.freeze(T0 + 3 * HOUR);
  await recordOpening(formula, deckNow, null);
  testClock.reset();

  const page = await get(routes.report, cookie, "/financing/library/reading");
  expect(page.status).toBe(200);
  expect(page.headers.get("Cache-Control")).toBe("private, no-store");
  const { report } = (await page.json()) as { report: Record<string, unknown>[] };
  expect(report.map((row) => row.title)).toEqual([
    "Introductory video",
    "Description of the firm",
    "=SUM(A1)",
    "Offering details",
  ]);
  expect(report[0]).toMatchObject({
    documentId: video.id,
    readers: 0,
    opens: 0,
    firstOpenedAt: null,
    lastOpenedAt: null,
  });
  expect(report[1]).toMatchObject({ readers: 1, opens: 3, firstOpenedAt: T0, lastOpenedAt: T0 + 2 * HOUR });
  expect(report[2]).toMatchObject({ readers: 2, opens: 3, firstOpenedAt: T0 + HOUR, lastOpenedAt: T0 + 3 * HOUR });

  const readers = await get(routes.readers, cookie, `/financing/library/reading/${deck.id}`, { id: deck.id });
  expect(readers.status).toBe(200);
  const readersData = (await readers.json()) as { document: { title: string }; readers: Record<string, unknown>[] };
  expect(readersData.document.title).toBe("=SUM(A1)");
  // The latest reader first.
  expect(readersData.readers).toEqual([
    {
      userId: formula.id,
      email: "formula@example.com",
      fullName: '=HYPERLINK("http://x")',
      opens: 2,
      firstOpenedAt: T0 + HOUR,
      lastOpenedAt: T0 + 3 * HOUR,
    },
    {
      userId: ada.id,
      email: "ada@example.com",
      fullName: "Ada Byron",
      opens: 1,
      firstOpenedAt: T0 + 2 * HOUR,
      lastOpenedAt: T0 + 2 * HOUR,
    },
  ]);

  expect(readersData).toMatchObject({ totals: { readers: 2, opens: 3 }, page: 1, pages: 1 });
  // A page at a time: the second reader alone.
  expect((await readersOf(deck.id, { limit: 1, offset: 1 })).map((reader) => reader.email)).toEqual([
    "ada@example.com",
  ]);
  const pastTheLast = await get(routes.readers, cookie, `/financing/library/reading/${deck.id}?page=2`, {
    id: deck.id,
  });
  expect(pastTheLast.status).toBe(404);
  const notAPage = await get(routes.readers, cookie, `/financing/library/reading/${deck.id}?page=0`, { id: deck.id });
  expect(notAPage.status).toBe(400);
  expect(await notAPage.text()).toBe("This is not a page of the readers.");

  const investor = await get(routes.investor, cookie, `/financing/investors/${ada.id}`, { id: ada.id });
  expect(investor.status).toBe(200);
  const { readings, activity } = (await investor.json()) as {
    readings: Record<string, unknown>[];
    activity: { entries: { action: string; detail: string }[] };
  };
  expect(readings).toEqual([
    { documentId: firm.id, title: "Description of the firm", opens: 3, firstOpenedAt: T0, lastOpenedAt: T0 + 2 * HOUR },
    { documentId: deck.id, title: "=SUM(A1)", opens: 1, firstOpenedAt: T0 + 2 * HOUR, lastOpenedAt: T0 + 2 * HOUR },
  ]);
  // The openings are the investor's activity too, each naming its document.
  expect(activity.entries.slice(0, 2)).toEqual([
    expect.objectContaining({ action: "material.opened", detail: "=SUM(A1)" }),
    expect.objectContaining({ action: "material.opened", detail: "Description of the firm" }),
  ]);

  // The CSVs: a byte order mark, a header row, ISO times, and no cell a spreadsheet would run as a formula.
  const reportAnswer = await get(routes.reportCsv, cookie, "/financing/library/reading.csv");
  expectCsvHeaders(reportAnswer, "reading-report.csv");
  expect(await csvRows(reportAnswer)).toEqual([
    `"Document","Kind","Published","Investors who opened it","Opens in all","First opened (UTC)","Last opened (UTC)"`,
    `"Introductory video","Video","Yes","0","0","",""`,
    `"Description of the firm","PDF","Yes","1","3","${iso(T0)}","${iso(T0 + 2 * HOUR)}"`,
    `"'=SUM(A1)","PDF","Yes","2","3","${iso(T0 + HOUR)}","${iso(T0 + 3 * HOUR)}"`,
    `"Offering details","PDF","Yes","0","0","",""`,
  ]);

  const readersAnswer = await get(routes.readersCsv, cookie, `/financing/library/reading/${deck.id}.csv`, {
    id: deck.id,
  });
  expectCsvHeaders(readersAnswer, "document-readers.csv");
  expect(await csvRows(readersAnswer)).toEqual([
    `"Full name","E-mail","Opens","First opened (UTC)","Last opened (UTC)"`,
    `"'=HYPERLINK(""http://x"")","formula@example.com","2","${iso(T0 + HOUR)}","${iso(T0 + 3 * HOUR)}"`,
    `"Ada Byron","ada@example.com","1","${iso(T0 + 2 * HOUR)}","${iso(T0 + 2 * HOUR)}"`,
  ]);

  const readingsAnswer = await get(routes.readingsCsv, cookie, `/financing/investors/${ada.id}/readings.csv`, {
    id: ada.id,
  });
  expectCsvHeaders(readingsAnswer, "investor-readings.csv");
  expect(await csvRows(readingsAnswer)).toEqual([
    `"Document","Opens","First opened (UTC)","Last opened (UTC)"`,
    `"Description of the firm","3","${iso(T0)}","${iso(T0 + 2 * HOUR)}"`,
    `"'=SUM(A1)","1","${iso(T0 + 2 * HOUR)}","${iso(T0 + 2 * HOUR)}"`,
  ]);

  // Each export is in the audit trail, by whom, from where, and what it held.
  const [reportRow] = await exportRows("material.report_exported");
  expect(reportRow).toMatchObject({ actor_id: admin.id, actor_email: admin.email, ip: "10.62.0.1" });
  expect(JSON.parse(reportRow.details ?? "{}")).toEqual({ rows: 4 });
  const [readersRow] = await exportRows("material.readers_exported");
  expect(readersRow).toMatchObject({ actor_id: admin.id });
  expect(JSON.parse(readersRow.details ?? "{}")).toEqual({ documentId: deck.id, title: "=SUM(A1)", rows: 2 });
  const [readingsRow] = await exportRows("investor.readings_exported");
  expect(readingsRow).toMatchObject({ actor_id: admin.id, target_id: ada.id, target_email: "ada@example.com" });
  expect(JSON.parse(readingsRow.details ?? "{}")).toEqual({ rows: 2 });

  // A HEAD request carries no copy away: nothing more is recorded.
  const head = await callRoute(routes.reportCsv, {
    method: "HEAD",
    path: "/financing/library/reading.csv",
    headers: { Cookie: cookie },
  });
  expectCsvHeaders(head, "reading-report.csv");
  expect(await exportRows("material.report_exported")).toHaveLength(1);
});

it("shows a document nobody opened, and an investor who opened nothing, as empty", async () => {
  const { cookie } = await signedIn({ role: "administrator", named: true });
  const idle = await createUser({ signed: true, named: true });
  const [, , , offering] = await listLibrary();
  const readers = await get(routes.readers, cookie, `/financing/library/reading/${offering.id}`, { id: offering.id });
  expect(((await readers.json()) as { readers: unknown[] }).readers).toEqual([]);
  const investor = await get(routes.investor, cookie, `/financing/investors/${idle.id}`, { id: idle.id });
  expect(((await investor.json()) as { readings: unknown[] }).readings).toEqual([]);
  const csv = await get(routes.readingsCsv, cookie, `/financing/investors/${idle.id}/readings.csv`, { id: idle.id });
  expect(await csvRows(csv)).toEqual([`"Document","Opens","First opened (UTC)","Last opened (UTC)"`]);
});

it("refuses investors (403), and answers an unknown document 404 and a malformed id 400, recording nothing", async () => {
  const { user: investor, cookie: investorCookie } = await signedIn({ signed: true, named: true });
  const { cookie } = await signedIn({ role: "administrator", named: true });
  const [document] = await listLibrary();
  const before = (await getDb().selectFrom("audit_events").select("id").execute()).length;

  const forInvestor = [
    [routes.report, "/financing/library/reading", {}],
    [routes.reportCsv, "/financing/library/reading.csv", {}],
    [routes.readers, `/financing/library/reading/${document.id}`, { id: document.id }],
    [routes.readersCsv, `/financing/library/reading/${document.id}.csv`, { id: document.id }],
    [routes.readingsCsv, `/financing/investors/${investor.id}/readings.csv`, { id: investor.id }],
  ] as const;
  for (const [route, path, params] of forInvestor) {
    expect((await get(route, investorCookie, path, params)).status, path).toBe(403);
  }

  const unknown = "00000000-0000-4000-8000-000000000000";
  const notFound = await get(routes.readers, cookie, `/financing/library/reading/${unknown}`, { id: unknown });
  expect(notFound.status).toBe(404);
  expect(await notFound.text()).toBe("There is no such document.");
  expect(
    (await get(routes.readersCsv, cookie, `/financing/library/reading/${unknown}.csv`, { id: unknown })).status,
  ).toBe(404);
  expect(
    (await get(routes.readingsCsv, cookie, `/financing/investors/${unknown}/readings.csv`, { id: unknown })).status,
  ).toBe(404);

  const malformed = "not a document!";
  const bad = await get(routes.readers, cookie, `/financing/library/reading/x`, { id: malformed });
  expect(bad.status).toBe(400);
  expect(await bad.text()).toBe("This is not a document's address.");
  expect((await get(routes.readersCsv, cookie, `/financing/library/reading/x.csv`, { id: malformed })).status).toBe(
    400,
  );
  expect((await get(routes.readingsCsv, cookie, `/financing/investors/x/readings.csv`, { id: malformed })).status).toBe(
    400,
  );

  expect((await getDb().selectFrom("audit_events").select("id").execute()).length).toBe(before);
});
