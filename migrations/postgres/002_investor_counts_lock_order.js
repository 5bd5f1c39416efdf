// @ts-check
// PostgreSQL only (SQLite has one writer at a time, so its triggers cannot wait on each other): the
// counts per NDA state follow a change of a user's flags by taking the old state's row and then the
// new one's. Two changes at once in opposite directions, (0,0) to (1,0) beside (1,0) to (0,0), took the
// same two rows in opposite orders and one was aborted as a deadlock. Now both rows are locked first,
// in the key's order, and a change that moves no count touches none.
import { sql } from "kysely";

/** The counts' change itself, as 001 made it: the old state's count down, the new one's up. */
const COUNT_CHANGES = sql.raw(`  if tg_op in ('UPDATE', 'DELETE') and old.role = 'investor' then
    update investor_counts set n = n - 1 where is_nda_sent = old.is_nda_sent and is_nda_signed = old.is_nda_signed;
  end if;
  if tg_op in ('UPDATE', 'INSERT') and new.role = 'investor' then
    update investor_counts set n = n + 1 where is_nda_sent = new.is_nda_sent and is_nda_signed = new.is_nda_signed;
  end if;
`);

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`create or replace function investor_counts_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.role = new.role and old.is_nda_sent = new.is_nda_sent
     and old.is_nda_signed = new.is_nda_signed then
    return null;
  end if;
  perform 1 from investor_counts
    where (tg_op in ('UPDATE', 'DELETE') and old.role = 'investor'
           and is_nda_sent = old.is_nda_sent and is_nda_signed = old.is_nda_signed)
       or (tg_op in ('UPDATE', 'INSERT') and new.role = 'investor'
           and is_nda_sent = new.is_nda_sent and is_nda_signed = new.is_nda_signed)
    order by is_nda_sent, is_nda_signed
    for update;
${COUNT_CHANGES}  return null;
end $$`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`create or replace function investor_counts_follow() returns trigger language plpgsql as $$
begin
${COUNT_CHANGES}  return null;
end $$`.execute(db);
}
