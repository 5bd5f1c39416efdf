/**
 * The statements SQLite keeps prepared (app/server/db.server.ts): still right after the schema
 * changes, and whole again after a stream left half-read. SQLite only: PostgreSQL's driver prepares
 * nothing the app keeps.
 */
import { sql } from "kysely";
import { getDb } from "~/server/db.server";
import { useIntegration } from "../support/integration";

useIntegration();

it("keeps prepared statements that still answer after the schema changes or a half-read stream", async () => {
  const db = getDb();
  await sql`create table kept (a integer)`.execute(db);
  await sql`insert into kept (a) values (1), (2)`.execute(db);
  const selectAll = () => sql<Record<string, number>>`select * from kept order by a`.execute(db);
  expect((await selectAll()).rows).toEqual([{ a: 1 }, { a: 2 }]);
  await sql`alter table kept add column b integer default 7`.execute(db);
  expect((await selectAll()).rows).toEqual([
    { a: 1, b: 7 },
    { a: 2, b: 7 },
  ]);
  // A kept statement read as a stream, left half-read, is handed out again whole.
  const stream = () =>
    db
      .selectFrom("kept" as never)
      .select("a" as never)
      .orderBy("a" as never)
      .stream();
  for await (const row of stream()) {
    expect(row).toEqual({ a: 1 });
    break;
  }
  const streamed: unknown[] = [];
  for await (const row of stream()) streamed.push(row);
  expect(streamed).toEqual([{ a: 1 }, { a: 2 }]);
  await sql`drop table kept`.execute(db);
});
