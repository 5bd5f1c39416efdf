/**
 * The totals of time per page that a document's report and the engagement ranking read (migration 024)
 * agree with a fresh sum of page_times: after batches through the model (new pages and pages again), after
 * one statement writing two copies of one reader, after an undelivered copy is taken back, and after an
 * investor is deleted (each by cascade).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { toPublicUser } from "~/models/account/user.server";
import { deleteInvestor } from "~/models/investors/investor-deletion.server";
import { recordUndeliveredOpening } from "~/models/library/undelivered-copy.server";
import { recordReadingBatch } from "~/models/reading/page-times.server";
import { getDb } from "~/server/db.server";
import { useIntegration } from "../support/integration";
import { publishedPdfDocument } from "../support/library-pdf-document";

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 20, 9);

const { investor, administrator, clock } = useIntegration({ clockAt: START });
let documentId: string;
beforeAll(async () => {
  clock.freeze(START);
  documentId = await publishedPdfDocument("Six pages", 6);
});

async function reader() {
  return toPublicUser(await investor("nda-signed", { fullName: "Totals Reader", address: "1 Main St" }));
}

/** A copy of the document delivered to the reader at `at`; its download id. */
async function copy(userId: string, at: number) {
  const id = randomUUID();
  const [version] = await getDb()
    .selectFrom("document_versions")
    .select("id")
    .where("document_id", "=", documentId)
    .execute();
  await getDb()
    .insertInto("document_opens")
    .values({ id, document_id: documentId, version_id: version.id, user_id: userId, opened_at: at })
    .execute();
  return id;
}

async function batch(userId: string, downloadId: string, stream: string, n: number, pages: [number, number][]) {
  const result = await recordReadingBatch({ id: userId }, documentId, {
    downloadId,
    stream,
    batch: n,
    pages: pages.map(([page, ms]) => ({ page, ms })),
  });
  expect(result).toEqual({ ok: true });
}

/** The three tables' rows, and the same summed afresh from page_times. */
async function keptAndFresh() {
  const db = getDb();
  const kept = {
    pages: (
      await db.selectFrom("document_page_reading").selectAll().orderBy("document_id").orderBy("page").execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), readers: Number(row.readers) })),
    readers: (
      await db.selectFrom("document_reader_reading").selectAll().orderBy("document_id").orderBy("user_id").execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), pages: Number(row.pages) })),
    days: (
      await db
        .selectFrom("reader_day_reading")
        .selectAll()
        .orderBy("user_id")
        .orderBy("day")
        .orderBy("document_id")
        .execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), day: Number(row.day), entries: Number(row.entries) })),
  };
  const fresh = {
    pages: (
      await db
        .selectFrom("page_times")
        .select([
          "document_id",
          "page",
          sql<number>`sum(ms)`.as("ms"),
          sql<number>`count(distinct user_id)`.as("readers"),
        ])
        .groupBy(["document_id", "page"])
        .orderBy("document_id")
        .orderBy("page")
        .execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), readers: Number(row.readers) })),
    readers: (
      await db
        .selectFrom("page_times")
        .select([
          "document_id",
          "user_id",
          sql<number>`sum(ms)`.as("ms"),
          sql<number>`count(distinct page)`.as("pages"),
        ])
        .groupBy(["document_id", "user_id"])
        .orderBy("document_id")
        .orderBy("user_id")
        .execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), pages: Number(row.pages) })),
    days: (
      await db
        .selectFrom("page_times")
        .select([
          "user_id",
          sql<number>`delivered_at / ${sql.lit(DAY)}`.as("day"),
          "document_id",
          sql<number>`sum(ms)`.as("ms"),
          sql<number>`count(*)`.as("entries"),
        ])
        .groupBy(["user_id", sql`delivered_at / ${sql.lit(DAY)}`, "document_id"])
        .orderBy("user_id")
        .orderBy("day")
        .orderBy("document_id")
        .execute()
    ).map((row) => ({ ...row, ms: Number(row.ms), day: Number(row.day), entries: Number(row.entries) })),
  };
  return { kept, fresh };
}

it("keeps per page, per reader and per day the sums of page_times through batches, bulk writes and deletions", async () => {
  const [ada, ben] = [await reader(), await reader()];
  // Ada: two copies on two days, pages overlapping, some pages reported again in later batches.
  const adaFirst = await copy(ada.id, START - 2 * DAY);
  const adaSecond = await copy(ada.id, START - DAY);
  const benCopy = await copy(ben.id, START - DAY);
  const [s1, s2, s3] = [randomUUID(), randomUUID(), randomUUID()];
  await batch(ada.id, adaFirst, s1, 1, [
    [1, 10_000],
    [2, 5_000],
  ]);
  await batch(ada.id, adaFirst, s1, 2, [
    [2, 7_000],
    [3, 1_000],
  ]);
  await batch(ada.id, adaSecond, s2, 1, [
    [1, 4_000],
    [4, 2_000],
  ]);
  await batch(ben.id, benCopy, s3, 1, [
    [1, 3_000],
    [6, 9_000],
  ]);
  let { kept, fresh } = await keptAndFresh();
  expect(kept).toEqual(fresh);
  expect(kept.pages.find((row) => row.page === 1)).toMatchObject({ ms: 17_000, readers: 2 });
  expect(kept.readers.find((row) => row.user_id === ada.id)).toMatchObject({ ms: 29_000, pages: 4 });

  // One statement writing two copies of one reader (as db:copy or a bulk load does) counts the reader once.
  const cara = await reader();
  const [c1, c2] = [await copy(cara.id, START - DAY), await copy(cara.id, START - DAY)];
  await getDb()
    .insertInto("reading_streams")
    .values([c1, c2].map((id) => ({ download_id: id, stream: randomUUID(), total_ms: 0, updated_at: START })))
    .execute();
  await getDb()
    .insertInto("page_times")
    .values(
      [c1, c2].map((id) => ({
        download_id: id,
        page: 5,
        document_id: documentId,
        user_id: cara.id,
        ms: 1_500,
        delivered_at: START - DAY,
        updated_at: START,
      })),
    )
    .execute();
  ({ kept, fresh } = await keptAndFresh());
  expect(kept).toEqual(fresh);
  expect(kept.pages.find((row) => row.page === 5)).toMatchObject({ ms: 3_000, readers: 1 });

  // A copy taken back as undelivered takes its time with it; Ada's other copy still counts her on page 1.
  await recordUndeliveredOpening(ada, { id: documentId, title: "Six pages" }, { number: 1 }, adaFirst, null);
  ({ kept, fresh } = await keptAndFresh());
  expect(kept).toEqual(fresh);
  expect(kept.pages.find((row) => row.page === 1)).toMatchObject({ ms: 7_000, readers: 2 });
  expect(kept.pages.find((row) => row.page === 2)).toBeUndefined();

  // A deleted investor's rows leave every total; so does a reader's both copies in one statement.
  const admin = await administrator();
  expect(await deleteInvestor({ actor: admin, id: ben.id })).toMatchObject({ ok: true });
  await getDb().deleteFrom("document_opens").where("id", "in", [c1, c2]).execute();
  ({ kept, fresh } = await keptAndFresh());
  expect(kept).toEqual(fresh);
  expect(kept.readers.map((row) => row.user_id)).toEqual([ada.id]);
  expect(kept.pages.map((row) => row.page)).toEqual([1, 4]);
});
