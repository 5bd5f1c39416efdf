/**
 * What readers did: their visits to the materials page, each opening of a document (stored with its audit row),
 * and the reading report made of the openings: per document, per reader of one document, per investor.
 */
import { randomUUID } from "node:crypto";
import type { PublicUser } from "~/models/account/user.server";
import { alertFirstOpening } from "~/models/alerts/opening-alerts.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb, type DocumentKind } from "~/server/db.server";
import { log } from "~/server/log.server";
import type { LibraryDocument, VersionSummary } from "./library-documents.server";

/** Records a visit to the materials page; returns the one before it (null for a first visit). */
export async function recordMaterialsVisit(userId: string): Promise<number | null> {
  const at = now();
  const db = getDb();
  const previous = await db
    .selectFrom("material_visits")
    .select("visited_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  await db
    .insertInto("material_visits")
    .values({ user_id: userId, visited_at: at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ visited_at: at }))
    .execute();
  return previous ? Number(previous.visited_at) : null;
}

/**
 * Records that the user opened the document's version, in the reading report and the audit trail, before
 * a byte leaves; returns the opening's id (a PDF copy's download id, given when the copy already bears it).
 */
export async function recordOpening(
  user: Pick<PublicUser, "id" | "email">,
  document: LibraryDocument,
  ip: string | null,
  version: VersionSummary = document.latest,
  id: string = randomUUID(),
): Promise<string> {
  // The reading report and the audit trail say the same: the opening is stored with its audit row.
  const openedAt = now();
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("document_opens")
      .values({ id, document_id: document.id, version_id: version.id, user_id: user.id, opened_at: openedAt })
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "material.opened",
      details: { documentId: document.id, title: document.title, version: version.number, downloadId: id },
      ip,
    });
  });
  // An alert that cannot be written is the administrators' loss, never the reader's: the copy goes on.
  await alertFirstOpening({ userId: user.id, documentId: document.id, title: document.title, openedAt }).catch(
    (error: unknown) => log("warn", "alerts.opening_failed", { error }),
  );
  return id;
}

export interface DocumentReading {
  documentId: string;
  title: string;
  kind: DocumentKind;
  published: boolean;
  /** How many distinct people opened it, and how many times in all. */
  readers: number;
  opens: number;
  firstOpenedAt: number | null;
  lastOpenedAt: number | null;
}

/** For each document of the library, in its order: who opened it, how often, first and last. */
export async function readingReport(): Promise<DocumentReading[]> {
  const rows = await getDb()
    .selectFrom("documents as d")
    .leftJoin("document_reading as t", "t.document_id", "d.id")
    .select([
      "d.id",
      "d.title",
      "d.kind",
      "d.published",
      "t.readers",
      "t.opens",
      "t.first_opened_at as first",
      "t.last_opened_at as last",
    ])
    .orderBy("d.position")
    .orderBy("d.created_at")
    .execute();
  return rows.map((row) => ({
    documentId: row.id,
    title: row.title,
    kind: row.kind,
    published: row.published === 1,
    readers: Number(row.readers ?? 0),
    opens: Number(row.opens ?? 0),
    firstOpenedAt: row.first === null ? null : Number(row.first),
    lastOpenedAt: row.last === null ? null : Number(row.last),
  }));
}

export interface ReaderOfDocument {
  userId: string;
  email: string;
  fullName: string;
  opens: number;
  firstOpenedAt: number;
  lastOpenedAt: number;
}

/** How many people opened one document, and how many times in all. */
export async function readerTotals(documentId: string): Promise<{ readers: number; opens: number }> {
  const row = await getDb()
    .selectFrom("document_reading")
    .select(["readers", "opens"])
    .where("document_id", "=", documentId)
    .executeTakeFirst();
  return { readers: Number(row?.readers ?? 0), opens: Number(row?.opens ?? 0) };
}

/**
 * Who opened one document: each person, how often, first and last, the latest first; all of them, or one
 * page, walked from the index in that order, so only the page's people are looked up.
 */
export async function readersOf(
  documentId: string,
  page?: { limit: number; offset: number },
): Promise<ReaderOfDocument[]> {
  const db = getDb();
  let readers = db
    .selectFrom("document_readers")
    .select(["user_id", "opens", "first_opened_at", "last_opened_at"])
    .where("document_id", "=", documentId)
    .orderBy("last_opened_at", "desc")
    .orderBy("user_id", "desc");
  if (page) readers = readers.limit(page.limit).offset(page.offset);
  const rows = await db
    .selectFrom(readers.as("r"))
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["u.id", "u.email", "u.full_name", "r.opens", "r.first_opened_at", "r.last_opened_at"])
    .orderBy("r.last_opened_at", "desc")
    .orderBy("u.id", "desc")
    .execute();
  return rows.map((row) => ({
    userId: row.id,
    email: row.email,
    fullName: row.full_name,
    opens: Number(row.opens),
    firstOpenedAt: Number(row.first_opened_at),
    lastOpenedAt: Number(row.last_opened_at),
  }));
}

export interface ReadingOfInvestor {
  documentId: string;
  title: string;
  opens: number;
  firstOpenedAt: number;
  lastOpenedAt: number;
}

/** What one person opened: each document, how often, first and last, in the library's order. */
export async function readingsOf(userId: string): Promise<ReadingOfInvestor[]> {
  const rows = await getDb()
    .selectFrom("document_readers as r")
    .innerJoin("documents as d", "d.id", "r.document_id")
    .select(["d.id", "d.title", "r.opens", "r.first_opened_at", "r.last_opened_at"])
    .where("r.user_id", "=", userId)
    .orderBy("d.position")
    .orderBy("d.created_at")
    .execute();
  return rows.map((row) => ({
    documentId: row.id,
    title: row.title,
    opens: Number(row.opens),
    firstOpenedAt: Number(row.first_opened_at),
    lastOpenedAt: Number(row.last_opened_at),
  }));
}
