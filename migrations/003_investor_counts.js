// @ts-check
// How many investors are in each NDA state, kept by triggers (docs/performance.md):
// the administrator's table shows a total on every page, and counting 100,000
// rows each time costs more than the page itself. Triggers keep the figures
// right whoever writes the users table: the app, create-admin, another process.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`create table investor_counts (
    is_nda_sent integer not null,
    is_nda_signed integer not null,
    n integer not null,
    primary key (is_nda_sent, is_nda_signed)
  ) without rowid`.execute(db);
  await sql`insert into investor_counts (is_nda_sent, is_nda_signed, n)
    select sent.v, signed.v,
      (select count(*) from users where role = 'investor' and is_nda_sent = sent.v and is_nda_signed = signed.v)
    from (select 0 as v union all select 1) as sent, (select 0 as v union all select 1) as signed`.execute(db);

  await sql`create trigger investor_counts_insert after insert on users when new.role = 'investor' begin
    update investor_counts set n = n + 1
      where is_nda_sent = new.is_nda_sent and is_nda_signed = new.is_nda_signed;
  end`.execute(db);
  await sql`create trigger investor_counts_delete after delete on users when old.role = 'investor' begin
    update investor_counts set n = n - 1
      where is_nda_sent = old.is_nda_sent and is_nda_signed = old.is_nda_signed;
  end`.execute(db);
  await sql`create trigger investor_counts_update after update of role, is_nda_sent, is_nda_signed on users begin
    update investor_counts set n = n - 1
      where old.role = 'investor' and is_nda_sent = old.is_nda_sent and is_nda_signed = old.is_nda_signed;
    update investor_counts set n = n + 1
      where new.role = 'investor' and is_nda_sent = new.is_nda_sent and is_nda_signed = new.is_nda_signed;
  end`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const trigger of ["investor_counts_update", "investor_counts_delete", "investor_counts_insert"]) {
    await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  await db.schema.dropTable("investor_counts").execute();
}
