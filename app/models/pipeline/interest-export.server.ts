/**
 * The standing indications of interest as CSV, each with how the investor's qualification stands, written
 * with the guarded cell of every export (csvCell: no formula runs in a spreadsheet).
 */
import { sql } from "kysely";
import { pipelineContent } from "~/content/pipeline";
import { CSV_BYTE_ORDER_MARK, csvCell } from "~/models/investors/investor-csv.server";
import { getDb } from "~/server/db.server";

type Row = {
  full_name: string;
  email: string;
  amount: number;
  low: number | null;
  high: number | null;
  note: string;
  standing: "verified" | "expired" | "unverified";
  created_at: number;
};

export async function standingIndicationsCsv(at: number): Promise<{ csv: string; rows: number }> {
  const { rows } = await sql<Row>`
    select users.full_name, users.email, i.amount, i.low, i.high, i.note, i.created_at,
      case when v.id is null then 'unverified' when v.expires_at > ${at} then 'verified' else 'expired' end as standing
    from interest_indications i
    join users on users.id = i.user_id and users.role = 'investor'
    left join verifications v on v.user_id = i.user_id and not exists (
      select 1 from verifications w where w.user_id = v.user_id
        and (w.created_at > v.created_at or (w.created_at = v.created_at and w.id > v.id)))
    where i.withdrawn = 0 and not exists (
      select 1 from interest_indications j where j.user_id = i.user_id
        and (j.created_at > i.created_at or (j.created_at = i.created_at and j.id > i.id)))
    order by i.created_at desc, i.id desc`.execute(getDb());
  const lines = [pipelineContent.csvHeader.map(csvCell).join(",")];
  for (const row of rows) {
    lines.push(
      [
        row.full_name,
        row.email,
        String(row.amount),
        row.low === null ? "" : String(row.low),
        row.high === null ? "" : String(row.high),
        row.note,
        pipelineContent.interest.standings[row.standing],
        new Date(Number(row.created_at)).toISOString(),
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return { csv: `${CSV_BYTE_ORDER_MARK}${lines.join("\r\n")}\r\n`, rows: rows.length };
}
