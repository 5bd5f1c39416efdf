/**
 * Time per page of a stamped copy, as the viewer reports it (POST /financing/materials/:id/reading): a
 * plausible batch is kept per copy and page; each implausible kind (a page beyond the document, more time
 * than has passed since delivery, another investor's copy, a copy never delivered or not delivered whole,
 * a second stream, a batch again, a flood, a malformed body) is refused with its 4xx and leaves nothing.
 */
import { randomUUID } from "node:crypto";
import { readingRefusals } from "~/content/reading";
import { toPublicUser } from "~/models/account/user.server";
import { recordUndeliveredOpening } from "~/models/library/undelivered-copy.server";
import { READING_BATCHES_PER_MINUTE } from "~/models/reading/page-times.server";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as readingRoute from "~/routes/financing.materials_.$documentId_.reading";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { publishedPdfDocument } from "../support/library-pdf-document";

const routes = routeModules({ document: documentRoute, reading: readingRoute });
const PAGES = 20;

const { investor: createInvestor, clock: testClock } = useIntegration();
let documentId: string;
beforeAll(async () => {
  documentId = await publishedPdfDocument("Twenty pages", PAGES);
});

async function investor() {
  const user = toPublicUser(await createInvestor("nda-signed", { fullName: "Ada Reader", address: "1 Main St" }));
  return { user, headers: await sessionHeaders(user.id) };
}

/** A stamped copy delivered to the reader; its download id. */
async function deliveredCopy(headers: Record<string, string>) {
  const response = await callRoute(routes.document, {
    path: `/financing/materials/${documentId}`,
    params: { documentId },
    headers,
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get("X-Download-Id")!;
}

function report(headers: Record<string, string>, json: unknown, id = documentId) {
  return callRoute(routes.reading, {
    path: `/financing/materials/${id}/reading`,
    params: { documentId: id },
    headers,
    json,
  });
}

async function stored(downloadId: string) {
  const db = getDb();
  const pages = await db
    .selectFrom("page_times")
    .select(["page", "ms"])
    .where("download_id", "=", downloadId)
    .orderBy("page")
    .execute();
  const streams = await db.selectFrom("reading_streams").selectAll().where("download_id", "=", downloadId).execute();
  return { pages: pages.map((row) => ({ page: row.page, ms: Number(row.ms) })), streams: streams.length };
}

const NOTHING = { pages: [], streams: 0 };

it("keeps a plausible stream of batches per copy and page, adding each batch's time to the page's", async () => {
  const { user, headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  const stream = randomUUID();
  testClock.advance(60_000);
  const first = await report(headers, {
    downloadId,
    stream,
    batch: 1,
    pages: [
      { page: 1, ms: 20_000 },
      { page: 2, ms: 15_000 },
    ],
  });
  expect(first.status).toBe(204);
  testClock.advance(30_000);
  const second = await report(headers, {
    downloadId,
    stream,
    batch: 2,
    pages: [
      { page: 2, ms: 5_000 },
      { page: 20, ms: 25_000 },
    ],
  });
  expect(second.status).toBe(204);
  expect(await stored(downloadId)).toEqual({
    pages: [
      { page: 1, ms: 20_000 },
      { page: 2, ms: 20_000 },
      { page: 20, ms: 25_000 },
    ],
    streams: 1,
  });
  const row = await getDb()
    .selectFrom("page_times")
    .selectAll()
    .where("download_id", "=", downloadId)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ document_id: documentId, user_id: user.id });
  const version = await getDb()
    .selectFrom("document_versions")
    .select("page_count")
    .where("document_id", "=", documentId)
    .executeTakeFirstOrThrow();
  expect(version.page_count).toBe(PAGES);
});

it("refuses a page beyond the document with 422, and keeps nothing of the batch", async () => {
  const { headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  testClock.advance(60_000);
  const response = await report(headers, {
    downloadId,
    stream: randomUUID(),
    batch: 1,
    pages: [
      { page: 3, ms: 1_000 },
      { page: PAGES + 1, ms: 1_000 },
    ],
  });
  expect(response.status).toBe(422);
  expect(await response.text()).toBe(readingRefusals.pageBeyondDocument(PAGES + 1, PAGES));
  expect(await stored(downloadId)).toEqual(NOTHING);
});

it("refuses more reading time than has passed since the copy was delivered with 422, in one batch or over several", async () => {
  const { headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  const stream = randomUUID();
  testClock.advance(10_000);
  const tooMuch = await report(headers, { downloadId, stream, batch: 1, pages: [{ page: 1, ms: 30_000 }] });
  expect(tooMuch.status).toBe(422);
  expect(await tooMuch.text()).toBe(readingRefusals.moreTimeThanPassed);
  expect(await stored(downloadId)).toEqual(NOTHING);

  expect((await report(headers, { downloadId, stream, batch: 1, pages: [{ page: 1, ms: 9_000 }] })).status).toBe(204);
  // 9 s kept of the 10 s that have passed: 5 s more is more than has passed.
  const summed = await report(headers, { downloadId, stream, batch: 2, pages: [{ page: 2, ms: 5_000 }] });
  expect(summed.status).toBe(422);
  expect(await stored(downloadId)).toEqual({ pages: [{ page: 1, ms: 9_000 }], streams: 1 });
});

it("refuses another investor's copy with 403, and a copy never delivered, or not delivered whole, with 404", async () => {
  const owner = await investor();
  const other = await investor();
  const downloadId = await deliveredCopy(owner.headers);
  testClock.advance(60_000);
  const batch = { downloadId, stream: randomUUID(), batch: 1, pages: [{ page: 1, ms: 1_000 }] };
  const theirs = await report(other.headers, batch);
  expect(theirs.status).toBe(403);
  expect(await theirs.text()).toBe(readingRefusals.notYourCopy);

  const never = await report(owner.headers, { ...batch, downloadId: randomUUID() });
  expect(never.status).toBe(404);
  expect(await never.text()).toBe(readingRefusals.copyNotDelivered);

  // Another document's id with this copy's: not a copy of that document.
  const elsewhere = await report(owner.headers, batch, randomUUID());
  expect(elsewhere.status).toBe(404);

  const cutOff = await deliveredCopy(owner.headers);
  await recordUndeliveredOpening(owner.user, { id: documentId, title: "Twenty pages" }, { number: 1 }, cutOff, null);
  const undelivered = await report(owner.headers, { ...batch, downloadId: cutOff });
  expect(undelivered.status).toBe(404);
  expect(await stored(downloadId)).toEqual(NOTHING);
  expect(await stored(cutOff)).toEqual(NOTHING);
});

it("takes one stream per copy, each batch once in whatever order it arrives: another stream or a batch again is 409", async () => {
  const { headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  testClock.advance(60_000);
  const stream = randomUUID();
  const batch = (n: number, page: number, ms: number) =>
    report(headers, { downloadId, stream, batch: n, pages: [{ page, ms }] });
  // The second beacon overtook the first: both are taken.
  expect((await batch(2, 2, 2_000)).status).toBe(204);
  expect((await batch(1, 1, 1_000)).status).toBe(204);
  const other = await report(headers, { downloadId, stream: randomUUID(), batch: 3, pages: [{ page: 3, ms: 1_000 }] });
  expect(other.status).toBe(409);
  expect(await other.text()).toBe(readingRefusals.otherStream);
  const again = await batch(1, 3, 1_000);
  expect(again.status).toBe(409);
  expect(await again.text()).toBe(readingRefusals.batchRepeated);
  expect(await stored(downloadId)).toEqual({
    pages: [
      { page: 1, ms: 1_000 },
      { page: 2, ms: 2_000 },
    ],
    streams: 1,
  });
});

it("refuses a flood of batches for one copy with 429 and Retry-After, keeping none past the limit", async () => {
  const { headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  testClock.advance(60_000);
  const stream = randomUUID();
  const limit = READING_BATCHES_PER_MINUTE.limit;
  for (let batch = 1; batch <= limit; batch += 1)
    expect((await report(headers, { downloadId, stream, batch, pages: [{ page: 1, ms: 100 }] })).status).toBe(204);
  const flood = await report(headers, { downloadId, stream, batch: limit + 1, pages: [{ page: 2, ms: 100 }] });
  expect(flood.status).toBe(429);
  expect(Number(flood.headers.get("Retry-After"))).toBeGreaterThan(0);
  expect(await stored(downloadId)).toEqual({ pages: [{ page: 1, ms: 100 * limit }], streams: 1 });
});

it.each([
  ["not JSON", "{"],
  ["no pages", { batch: 1, pages: [] }],
  [
    "a page named twice",
    {
      batch: 1,
      pages: [
        { page: 1, ms: 1 },
        { page: 1, ms: 1 },
      ],
    },
  ],
  ["a page 0", { batch: 1, pages: [{ page: 0, ms: 1 }] }],
  ["negative time", { batch: 1, pages: [{ page: 1, ms: -5 }] }],
  ["more than a batch's time", { batch: 1, pages: [{ page: 1, ms: 600_001 }] }],
  ["a batch 0", { batch: 0, pages: [{ page: 1, ms: 1 }] }],
  ["an unknown field", { batch: 1, pages: [{ page: 1, ms: 1 }], extra: true }],
])("refuses a malformed batch (%s) with 400, keeping nothing", async (_name, shape) => {
  const { headers } = await investor();
  const downloadId = await deliveredCopy(headers);
  testClock.advance(60_000);
  const body = typeof shape === "string" ? shape : JSON.stringify({ downloadId, stream: randomUUID(), ...shape });
  const response = await callRoute(routes.reading, {
    path: `/financing/materials/${documentId}/reading`,
    params: { documentId },
    headers: { ...headers, "Content-Type": "application/json" },
    body,
  });
  expect(response.status).toBe(400);
  expect(await response.text()).toBe(readingRefusals.malformed);
  expect(await stored(downloadId)).toEqual(NOTHING);
});
