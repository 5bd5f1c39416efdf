// @ts-check
// The administrators' own index. The administrators page lists them oldest first, and removing one
// counts them; both read `users`, where the investors are, and with no index for the role each walked
// every investor: 7 ms at 100,000 investors for a list of two. The index holds administrators only,
// and the queries write the role into the SQL (as the investor table does, migrations/005), so the
// planner can use it.
import { sql } from "kysely";

/** @param {import("kysely").Kysely<any>} db */
export async function up(db) {
  await sql`create index users_administrators on users (created_at, id) where role = 'administrator'`.execute(db);
}

/** @param {import("kysely").Kysely<any>} db */
export async function down(db) {
  await sql`drop index users_administrators`.execute(db);
}
