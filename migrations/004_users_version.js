// @ts-check
// A number that moves whenever the users table changes in a way a search of the
// administrator's table can see (docs/performance.md): a search's total is a scan
// of every investor, so it is kept until this number moves. Triggers move it
// whoever writes: the app, create-admin, another process.
import { sql } from "kysely";

const SEARCHED_COLUMNS = "email, full_name, role, is_nda_sent, is_nda_signed";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`create table users_version (
    only_row integer primary key check (only_row = 1),
    n integer not null
  )`.execute(db);
  await sql`insert into users_version (only_row, n) values (1, 0)`.execute(db);
  await sql`create trigger users_version_insert after insert on users begin
    update users_version set n = n + 1;
  end`.execute(db);
  await sql`create trigger users_version_delete after delete on users begin
    update users_version set n = n + 1;
  end`.execute(db);
  await sql`create trigger users_version_update after update of ${sql.raw(SEARCHED_COLUMNS)} on users begin
    update users_version set n = n + 1;
  end`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  for (const trigger of ["users_version_update", "users_version_delete", "users_version_insert"]) {
    await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  await db.schema.dropTable("users_version").execute();
}
