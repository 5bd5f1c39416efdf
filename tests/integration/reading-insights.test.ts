/**
 * The firm's view of the reading time: one document's readers, median time, share of pages seen and
 * page-by-page drop-off and mean time; one investor's time per document on their page; the engagement ranking over a
 * period (copies delivered in it), its CSV guarded and audited, a malformed period refused.
 */
import { randomUUID } from "node:crypto";
import { insightsContent } from "~/content/reading-insights";
import { toPublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { recordReadingBatch } from "~/models/reading/page-times.server";
import { investorPageLoader } from "~/routes/financing.investors.$id.server";
import * as engagementRoute from "~/routes/financing.library_.engagement";
import * as engagementCsvRoute from "~/routes/financing.library_.engagement[.]csv";
import * as readersRoute from "~/routes/financing.library_.reading_.$id";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { publishedPdfDocument } from "../support/library-pdf-document";

const routes = routeModules({
  document: documentRoute,
  readers: readersRoute,
  engagement: engagementRoute,
  engagementCsv: engagementCsvRoute,
});

let documentId: string;
let adminHeaders: Record<string, string>;
const readers: { id: string; email: string }[] = [];
const DAY = new Date(Date.UTC(2026, 10, 20, 9)).getTime();
const { investor, administrator, clock: testClock } = useIntegration({ clockAt: DAY });

/** A copy delivered to the reader, and their time on its pages reported an hour later (of the first document, unless named). */
async function reads(
  userId: string,
  headers: Record<string, string>,
  pages: [number, number][],
  document = documentId,
) {
  const response = await callRoute(routes.document, {
    path: `/financing/materials/${document}`,
    params: { documentId: document },
    headers,
  });
  await response.arrayBuffer();
  const downloadId = response.headers.get("X-Download-Id")!;
  testClock.advance(3_600_000);
  const batch = { downloadId, stream: randomUUID(), batch: 1, pages: pages.map(([page, ms]) => ({ page, ms })) };
  expect(await recordReadingBatch({ id: userId }, document, batch)).toEqual({ ok: true });
  testClock.freeze(DAY);
}

beforeAll(async () => {
  testClock.freeze(DAY);
  documentId = await publishedPdfDocument("Four pages", 4);
  const admin = await administrator();
  adminHeaders = await sessionHeaders(admin.id);
  // Three readers: one to the end, one who stopped after page 2, one who stopped after page 1; the
  // first is named like a formula, which the CSV must not run.
  const plans: [string, [number, number][]][] = [
    [
      "=HYPERLINK(1)",
      [
        [1, 60_000],
        [2, 60_000],
        [3, 30_000],
        [4, 30_000],
      ],
    ],
    [
      "Grace Second",
      [
        [1, 20_000],
        [2, 10_000],
      ],
    ],
    ["Ida Third", [[1, 10_000]]],
  ];
  for (const [fullName, pages] of plans) {
    const user = toPublicUser(await investor("nda-signed", { fullName, address: "1 Main St" }));
    readers.push({ id: user.id, email: user.email });
    await reads(user.id, await sessionHeaders(user.id), pages);
  }
});

it("reports a document's readers, median time, share of pages seen, and each page's readers and mean time", async () => {
  const response = await callRoute(routes.readers, {
    path: `/financing/library/reading/${documentId}`,
    params: { id: documentId },
    headers: adminHeaders,
  });
  expect(response.status).toBe(200);
  const { readingTime } = (await response.json()) as { readingTime: unknown };
  expect(readingTime).toEqual({
    pages: 4,
    readers: 3,
    medianMs: 30_000,
    shareSeen: 0.5,
    byPage: [
      { page: 1, readers: 3, meanMs: 30_000 },
      { page: 2, readers: 2, meanMs: 35_000 },
      { page: 3, readers: 1, meanMs: 30_000 },
      { page: 4, readers: 1, meanMs: 30_000 },
    ],
  });
});

it("shows an investor's time and pages seen per document on their page", async () => {
  const response = await investorPageLoader(
    new Request(`http://localhost:3000/financing/investors/${readers[0].id}`, { headers: adminHeaders }),
    { id: readers[0].id },
  );
  const { readingTime } = (await response.json()) as { readingTime: unknown };
  expect(readingTime).toEqual([{ documentId, title: "Four pages", kind: "pdf", ms: 180_000, pagesSeen: 4, pages: 4 }]);
});

it("ranks investors by the formula over the period the copies were delivered in, and refuses a malformed period", async () => {
  const ranking = async (query: string) => {
    const response = await callRoute(routes.engagement, {
      path: `/financing/library/engagement${query}`,
      headers: adminHeaders,
    });
    return {
      status: response.status,
      body:
        response.status === 200
          ? ((await response.json()) as {
              ranking: { email: string; score: number; minutes: number; documents: number }[];
            })
          : await response.text(),
    };
  };
  const within = await ranking("?from=2026-11-01&to=2026-11-30");
  expect(within.status).toBe(200);
  const { ranking: ranked } = within.body as {
    ranking: { email: string; score: number; minutes: number; documents: number }[];
  };
  expect(ranked.map((row) => row.email)).toEqual(readers.map((reader) => reader.email));
  // 3 minutes + 3 points for one document read.
  expect(ranked[0]).toMatchObject({ minutes: 3, documents: 1, score: 6 });
  expect(ranked[2]).toMatchObject({ minutes: 0.2, documents: 1, score: 3.2 });

  const before = await ranking("?from=2026-10-01&to=2026-10-31");
  expect((before.body as { ranking: unknown[] }).ranking).toEqual([]);

  for (const query of ["?from=2026-11-30&to=2026-11-01", "?from=2026-02-30&to=2026-03-01", "?from=yesterday"]) {
    const refused = await ranking(query);
    expect(refused.status).toBe(400);
    expect(refused.body).toBe(insightsContent.engagement.badPeriod);
  }
});

it("exports the ranking as CSV with every cell guarded, and records the export", async () => {
  const response = await callRoute(routes.engagementCsv, {
    path: "/financing/library/engagement.csv?from=2026-11-01&to=2026-11-30",
    headers: adminHeaders,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="engagement.csv"');
  const lines = (await response.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe(insightsContent.engagement.csvHeader.map((cell) => `"${cell}"`).join(","));
  expect(lines[1]).toBe(`"1","'=HYPERLINK(1)","${readers[0].email}","3","1","6"`);
  expect(lines).toHaveLength(4);
  const audit = (await listAuditEvents({ limit: 5 })).events.find(
    (row) => row.action === "material.engagement_exported",
  );
  expect(audit?.details).toContain("2026-11-01");
});

it("takes an even number of readers' medians between the middle two, time and share of pages alike", async () => {
  // Last, so the rankings above see only the first document: two readers of a second, 1 and 2 pages of 4.
  const second = await publishedPdfDocument("Four more pages", 4);
  await reads(readers[0].id, await sessionHeaders(readers[0].id), [[1, 10_000]], second);
  await reads(
    readers[1].id,
    await sessionHeaders(readers[1].id),
    [
      [1, 20_000],
      [2, 10_000],
    ],
    second,
  );
  const response = await callRoute(routes.readers, {
    path: `/financing/library/reading/${second}`,
    params: { id: second },
    headers: adminHeaders,
  });
  const { readingTime } = (await response.json()) as { readingTime: { readers: number } };
  // 10 s and 30 s; a quarter and a half of the pages.
  expect(readingTime).toMatchObject({ readers: 2, medianMs: 20_000, shareSeen: 0.375 });
});
