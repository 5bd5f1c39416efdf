/**
 * The investor table's CSV export, and the guarded cell and byte order mark every CSV export of the
 * portal is written with.
 */
import { adminContent } from "~/content/admin";
import type { InvestorRow } from "~/lib/investor-table";

/** What a spreadsheet skips before the first visible character: spaces, zero-width and direction marks. */
const INVISIBLE_LEAD = /^[\s\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]*/u;

/**
 * A CSV cell: quoted, and neutralised with a leading apostrophe when its first visible character
 * is = + - @ (or it starts with a tab or CR), so that no spreadsheet runs it as a formula.
 */
export function csvCell(value: string) {
  const firstVisible = value.replace(INVISIBLE_LEAD, "");
  const safe = /^[\t\r]/.test(value) || /^[=+\-@]/.test(firstVisible) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Excel reads a CSV as UTF-8 only when it starts with a byte order mark; without it accented names turn to mojibake. */
export const CSV_BYTE_ORDER_MARK = "\uFEFF";

/** The export: a byte order mark, a header row, then one row an investor, registration times in ISO 8601 (UTC). */
export function investorsCsv(rows: InvestorRow[]) {
  const { yes, no } = adminContent.table;
  const lines = [adminContent.csvHeader.map(csvCell).join(",")];
  for (const row of rows) {
    lines.push(
      [row.fullName, row.email, row.address, row.createdAt, row.isNDASent ? yes : no, row.isNDASigned ? yes : no]
        .map(csvCell)
        .join(","),
    );
  }
  return `${CSV_BYTE_ORDER_MARK}${lines.join("\r\n")}\r\n`;
}
