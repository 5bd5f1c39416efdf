/**
 * What the time per page and the videos' parts played say, for the administrators: one document's
 * readers, their median reading time, the share of pages they saw and, page by page, the time spent
 * and how many reached it; one video's viewers, the share they watched and where they stopped; one
 * investor's reading of each document. A document's reads the totals migration 024 keeps; an investor's, its
 * index of page_times.
 */
import { sql } from "kysely";
import { getDb } from "~/server/db.server";

export interface PageStat {
  page: number;
  /** Readers who had the page on screen. */
  readers: number;
  /** Those readers' mean time on it. */
  meanMs: number;
}

export interface DocumentReadingTime {
  pages: number | null;
  readers: number;
  medianMs: number;
  /** The median reader's share of the document's pages seen, 0 to 1. */
  shareSeen: number;
  byPage: PageStat[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

/**
 * One document's reading time, all its readers' copies together, from the totals kept as page_times is
 * written (migration 024): a row per page, and the readers' medians each taken from the middle of an index of
 * their totals (migration 025), so the app reads a few rows however many readers there are.
 */
export async function documentReadingTime(documentId: string): Promise<DocumentReadingTime> {
  const db = getDb();
  const [perPage, readers, version] = await Promise.all([
    db
      .selectFrom("document_page_reading")
      .select(["page", "ms", "readers"])
      .where("document_id", "=", documentId)
      .execute(),
    db
      .selectFrom("document_reader_reading")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("document_id", "=", documentId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("document_versions")
      .select("page_count")
      .where("document_id", "=", documentId)
      .orderBy("number", "desc")
      .executeTakeFirst(),
  ]);
  const count = Number(readers.n);
  const [medianMs, medianPages] = await Promise.all([
    middleOf(documentId, "ms", count),
    middleOf(documentId, "pages", count),
  ]);
  const pages = version?.page_count ?? null;
  const byNumber = new Map(perPage.map((row) => [row.page, row]));
  const lastPage = Math.max(pages ?? 0, ...byNumber.keys());
  const byPage = Array.from({ length: lastPage }, (_, i) => {
    const row = byNumber.get(i + 1);
    const readers = row ? Number(row.readers) : 0;
    return { page: i + 1, readers, meanMs: readers ? Math.round(Number(row?.ms) / readers) : 0 };
  });
  return {
    pages,
    readers: count,
    medianMs: Math.round(medianMs),
    shareSeen: pages ? medianPages / pages : 0,
    byPage,
  };
}

/** The median of the document's readers' `column`, read from the middle of its index: one value or two. */
async function middleOf(documentId: string, column: "ms" | "pages", count: number): Promise<number> {
  if (count === 0) return 0;
  const rows = await getDb()
    .selectFrom("document_reader_reading")
    .select(column)
    .where("document_id", "=", documentId)
    .orderBy(column)
    .limit(count % 2 === 1 ? 1 : 2)
    .offset(Math.floor((count - 1) / 2))
    .execute();
  return rows.reduce((sum, row) => sum + Number(row[column]), 0) / rows.length;
}

export interface VideoWatching {
  viewers: number;
  /** The median viewer's share of the video played, 0 to 1. */
  medianShare: number;
  /** Viewers who last stopped in each tenth of the video. */
  stoppedIn: number[];
}

export async function videoWatching(documentId: string): Promise<VideoWatching> {
  const rows = await getDb()
    .selectFrom("video_watches")
    .select(["watched_ms", "stopped_at_ms", "duration_ms"])
    .where("document_id", "=", documentId)
    .execute();
  const stoppedIn = Array.from({ length: 10 }, () => 0);
  for (const row of rows) {
    const tenth = Math.min(9, Math.floor((Number(row.stopped_at_ms) / Number(row.duration_ms)) * 10));
    stoppedIn[tenth] += 1;
  }
  return {
    viewers: rows.length,
    medianShare: rows.length
      ? median(rows.map((row) => Math.round((Number(row.watched_ms) / Number(row.duration_ms)) * 1000))) / 1000
      : 0,
    stoppedIn,
  };
}

export interface InvestorDocumentReading {
  documentId: string;
  title: string;
  kind: "pdf" | "video";
  /** Time on the document's pages, or of the video played. */
  ms: number;
  /** Pages seen of the document's pages (a PDF); null for a video. */
  pagesSeen: number | null;
  pages: number | null;
}

/** One investor's reading of each document they read in the viewer or watched, in the library's order. */
export async function investorReadingTime(userId: string): Promise<InvestorDocumentReading[]> {
  const db = getDb();
  const [pdfs, videos] = await Promise.all([
    db
      .selectFrom("page_times as t")
      .innerJoin("documents as d", "d.id", "t.document_id")
      .select([
        "d.id",
        "d.title",
        "d.position",
        sql<number>`sum(t.ms)`.as("ms"),
        sql<number>`count(distinct t.page)`.as("pages_seen"),
        (eb) =>
          eb
            .selectFrom("document_versions as v")
            .select("v.page_count")
            .whereRef("v.document_id", "=", "d.id")
            .orderBy("v.number", "desc")
            .limit(1)
            .as("pages"),
      ])
      .where("t.user_id", "=", userId)
      .groupBy(["d.id", "d.title", "d.position"])
      .execute(),
    db
      .selectFrom("video_watches as w")
      .innerJoin("documents as d", "d.id", "w.document_id")
      .select(["d.id", "d.title", "d.position", "w.watched_ms"])
      .where("w.user_id", "=", userId)
      .execute(),
  ]);
  return [
    ...pdfs.map((row) => ({
      position: row.position,
      documentId: row.id,
      title: row.title,
      kind: "pdf" as const,
      ms: Number(row.ms),
      pagesSeen: Number(row.pages_seen),
      pages: row.pages === null ? null : Number(row.pages),
    })),
    ...videos.map((row) => ({
      position: row.position,
      documentId: row.id,
      title: row.title,
      kind: "video" as const,
      ms: Number(row.watched_ms),
      pagesSeen: null,
      pages: null,
    })),
  ]
    .sort((a, b) => a.position - b.position)
    .map(({ position: _position, ...reading }) => reading);
}
