/**
 * The reading report's CSV exports: the whole report, one document's readers, one investor's readings.
 * Each is guarded as the investor table's export is (csvCell, the byte order mark, times in ISO 8601 UTC)
 * and recorded in the audit trail as an export.
 */
import { readingContent } from "~/content/library-reading";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { CSV_BYTE_ORDER_MARK, csvCell } from "~/models/investors/investor-csv.server";
import type { Actor, LibraryDocument } from "./library-documents.server";
import { readersOf, readingReport, readingsOf } from "./library-openings.server";

const words = readingContent;

const isoOrEmpty = (at: number | null) => (at === null ? "" : new Date(at).toISOString());

/** A guarded CSV: the byte order mark, a header row, then the rows, every cell through csvCell. */
export function csv(header: readonly string[], rows: (string | number)[][]) {
  const lines = [header, ...rows].map((cells) => cells.map((cell) => csvCell(String(cell))).join(","));
  return `${CSV_BYTE_ORDER_MARK}${lines.join("\r\n")}\r\n`;
}

/** Every document of the library with its openings, as CSV. */
export async function exportReadingReport(actor: Actor): Promise<string> {
  const report = await readingReport();
  await recordAuditEvent({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "material.report_exported",
    details: { rows: report.length },
    ip: actor.ip,
  });
  return csv(
    words.csv.reportHeader,
    report.map((row) => [
      row.title,
      words.kinds[row.kind] ?? row.kind,
      row.published ? words.yes : words.no,
      row.readers,
      row.opens,
      isoOrEmpty(row.firstOpenedAt),
      isoOrEmpty(row.lastOpenedAt),
    ]),
  );
}

/** The investors who opened one document, the latest first, as CSV. */
export async function exportReadersOf(document: Pick<LibraryDocument, "id" | "title">, actor: Actor): Promise<string> {
  const readers = await readersOf(document.id);
  await recordAuditEvent({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "material.readers_exported",
    details: { documentId: document.id, title: document.title, rows: readers.length },
    ip: actor.ip,
  });
  return csv(
    words.csv.readersHeader,
    readers.map((row) => [
      row.fullName,
      row.email,
      row.opens,
      isoOrEmpty(row.firstOpenedAt),
      isoOrEmpty(row.lastOpenedAt),
    ]),
  );
}

/** The documents one investor opened, in the library's order, as CSV. */
export async function exportReadingsOf(investor: { id: string; email: string }, actor: Actor): Promise<string> {
  const readings = await readingsOf(investor.id);
  await recordAuditEvent({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "investor.readings_exported",
    targetId: investor.id,
    targetEmail: investor.email,
    details: { rows: readings.length },
    ip: actor.ip,
  });
  return csv(
    words.csv.readingsHeader,
    readings.map((row) => [row.title, row.opens, isoOrEmpty(row.firstOpenedAt), isoOrEmpty(row.lastOpenedAt)]),
  );
}
