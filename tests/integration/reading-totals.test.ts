/**
 * The reading totals of migration 017 on either engine: each opening is counted per person and per document
 * as it is written; an opening deleted, alone or with its investor, takes its count back, and a first or last
 * opening it held moves to the next; the migration counts the openings written before it.
 */
import { toPublicUser } from "~/models/account/user.server";
import { listLibrary } from "~/models/library/library-documents.server";
import {
  readerTotals,
  readersOf,
  readingReport,
  readingsOf,
  recordOpening,
} from "~/models/library/library-openings.server";
import { testClock } from "~/server/clock.server";
import { databaseEngine, getDb } from "~/server/db.server";
import * as sqliteMigration from "../../migrations/017_reading_totals.js";
import * as postgresMigration from "../../migrations/postgres/017_reading_totals.js";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";

useIntegration();

const T0 = Date.UTC(2026, 3, 1, 9, 0, 0);
const HOUR = 3_600_000;

async function openAt(at: number, user: { id: string; email: string }, documentIndex: number) {
  testClock.freeze(at);
  const document = (await listLibrary())[documentIndex];
  return recordOpening(user, document, null);
}

/** The totals as the triggers keep them, beside the same counted from the openings themselves. */
async function keptAndCounted() {
  const db = getDb();
  const kept = await db.selectFrom("document_readers").selectAll().orderBy("document_id").orderBy("user_id").execute();
  const counted = await db
    .selectFrom("document_opens")
    .select((eb) => [
      "document_id",
      "user_id",
      eb.fn.countAll<number>().as("opens"),
      eb.fn.min("opened_at").as("first_opened_at"),
      eb.fn.max("opened_at").as("last_opened_at"),
    ])
    .groupBy(["document_id", "user_id"])
    .orderBy("document_id")
    .orderBy("user_id")
    .execute();
  const documents = await db.selectFrom("document_reading").selectAll().orderBy("document_id").execute();
  const perDocument = await db
    .selectFrom("document_opens")
    .select((eb) => [
      "document_id",
      eb.fn.count<number>("user_id").distinct().as("readers"),
      eb.fn.countAll<number>().as("opens"),
      eb.fn.min("opened_at").as("first_opened_at"),
      eb.fn.max("opened_at").as("last_opened_at"),
    ])
    .groupBy("document_id")
    .orderBy("document_id")
    .execute();
  const numbers = (rows: Record<string, unknown>[]) =>
    rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, key.endsWith("_id") ? value : Number(value)])),
    );
  return {
    kept: { readers: numbers(kept), documents: numbers(documents) },
    counted: { readers: numbers(counted), documents: numbers(perDocument) },
  };
}

it("counts each opening per person and per document, and takes back what a deletion removes", async () => {
  const [ada, bo, cy] = await Promise.all(
    ["ada", "bo", "cy"].map(async (name) =>
      toPublicUser(await createUser({ email: `${name}@example.com`, signed: true })),
    ),
  );
  const first = await openAt(T0, ada, 0);
  await openAt(T0 + HOUR, bo, 0);
  await openAt(T0 + 2 * HOUR, ada, 0);
  await openAt(T0 + 3 * HOUR, cy, 0);
  await openAt(T0 + 4 * HOUR, bo, 1);
  const [firm, deck] = await listLibrary();

  expect((await readingReport()).slice(0, 2)).toMatchObject([
    { documentId: firm.id, readers: 3, opens: 4, firstOpenedAt: T0, lastOpenedAt: T0 + 3 * HOUR },
    { documentId: deck.id, readers: 1, opens: 1, firstOpenedAt: T0 + 4 * HOUR, lastOpenedAt: T0 + 4 * HOUR },
  ]);
  expect(await readerTotals(firm.id)).toEqual({ readers: 3, opens: 4 });
  expect((await readersOf(firm.id)).map((r) => [r.email, r.opens, r.firstOpenedAt, r.lastOpenedAt])).toEqual([
    ["cy@example.com", 1, T0 + 3 * HOUR, T0 + 3 * HOUR],
    ["ada@example.com", 2, T0, T0 + 2 * HOUR],
    ["bo@example.com", 1, T0 + HOUR, T0 + HOUR],
  ]);
  expect(await readingsOf(bo.id)).toMatchObject([
    { documentId: firm.id, opens: 1 },
    { documentId: deck.id, opens: 1 },
  ]);
  const totals = await keptAndCounted();
  expect(totals.kept).toEqual(totals.counted);

  // The document's first opening goes: its first is now the next one's, and Ada's own first moves too.
  await getDb().deleteFrom("document_opens").where("id", "=", first).execute();
  expect((await readingReport())[0]).toMatchObject({ readers: 3, opens: 3, firstOpenedAt: T0 + HOUR });
  expect((await readersOf(firm.id)).find((r) => r.email === "ada@example.com")).toMatchObject({
    opens: 1,
    firstOpenedAt: T0 + 2 * HOUR,
  });

  // Cy, the last to open it, is deleted: one reader fewer, and the last opening is Ada's again.
  await getDb().deleteFrom("users").where("id", "=", cy.id).execute();
  expect((await readingReport())[0]).toMatchObject({ readers: 2, opens: 2, lastOpenedAt: T0 + 2 * HOUR });
  expect(await readerTotals(firm.id)).toEqual({ readers: 2, opens: 2 });

  // Bo is deleted: the deck has no reader left, and shows none.
  await getDb().deleteFrom("users").where("id", "=", bo.id).execute();
  expect((await readingReport())[1]).toMatchObject({
    readers: 0,
    opens: 0,
    firstOpenedAt: null,
    lastOpenedAt: null,
  });
  expect(await readersOf(deck.id)).toEqual([]);
  const after = await keptAndCounted();
  expect(after.kept).toEqual(after.counted);
});

it("counts, when it runs, the openings written before it", async () => {
  const reader = toPublicUser(await createUser({ email: "earlier@example.com", signed: true }));
  await openAt(T0 + 5 * HOUR, reader, 2);
  await openAt(T0 + 6 * HOUR, reader, 2);
  const migration = databaseEngine() === "postgres" ? postgresMigration : sqliteMigration;
  const db = getDb();
  await migration.down(db);
  await migration.up(db);
  const totals = await keptAndCounted();
  expect(totals.kept).toEqual(totals.counted);
  expect(totals.kept.readers.length).toBeGreaterThan(0);
  // The triggers are back: a new opening is counted.
  await openAt(T0 + 7 * HOUR, reader, 2);
  const [, , third] = await listLibrary();
  expect(await readerTotals(third.id)).toEqual({ readers: 1, opens: 3 });
});

it("counts many openings written in one statement, as db:copy writes them", async () => {
  const [dee, eve] = await Promise.all(
    ["dee", "eve"].map(async (name) => toPublicUser(await createUser({ email: `${name}@example.com`, signed: true }))),
  );
  await openAt(T0 + 8 * HOUR, dee, 0);
  const [firm, deck] = await listLibrary();
  const before = await readerTotals(firm.id);
  const versionOf = async (documentId: string) =>
    (
      await getDb()
        .selectFrom("document_versions")
        .select("id")
        .where("document_id", "=", documentId)
        .executeTakeFirstOrThrow()
    ).id;
  const opening = async (documentId: string, userId: string, at: number) => ({
    id: crypto.randomUUID(),
    document_id: documentId,
    version_id: await versionOf(documentId),
    user_id: userId,
    opened_at: at,
  });
  await getDb()
    .insertInto("document_opens")
    .values([
      await opening(firm.id, dee.id, T0 + 9 * HOUR),
      await opening(firm.id, eve.id, T0 + 10 * HOUR),
      await opening(firm.id, eve.id, T0 + 11 * HOUR),
      await opening(deck.id, eve.id, T0 + 12 * HOUR),
    ])
    .execute();
  // Dee read the firm before; Eve is new to it: one reader more, three openings more.
  expect(await readerTotals(firm.id)).toEqual({ readers: before.readers + 1, opens: before.opens + 3 });
  expect((await readersOf(firm.id)).slice(0, 2).map((r) => [r.email, r.opens])).toEqual([
    ["eve@example.com", 2],
    ["dee@example.com", 2],
  ]);
  const totals = await keptAndCounted();
  expect(totals.kept).toEqual(totals.counted);
});
