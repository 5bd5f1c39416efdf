/**
 * PostgreSQL cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS, and the app counts the
 * cancellation among the database's passing troubles: the request gets 503, not 500.
 */
import { sql } from "kysely";
import { closeDatabase, getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { isUnavailableError } from "~/server/sql-dialect.server";
import { useIntegration } from "../support/integration";

const { database } = useIntegration({ env: { DATABASE_STATEMENT_TIMEOUT_MS: "300" } });

test("a statement past the timeout is cancelled, and that counts as the database being unavailable", async () => {
  expect(database.engine).toBe("postgres");
  const started = Date.now();
  const error = await sql`select pg_sleep(2)`.execute(getDb()).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(Date.now() - started).toBeLessThan(1500);
  expect(error).toMatchObject({ code: "57014" });
  expect(isUnavailableError(error)).toBe(true);
  // A statement within the limit runs as ever.
  expect((await sql<{ one: number }>`select 1 as one`.execute(getDb())).rows).toEqual([{ one: 1 }]);
});

test("without the setting, the timeout is ten seconds", async () => {
  await closeDatabase();
  delete process.env.DATABASE_STATEMENT_TIMEOUT_MS;
  resetEnvForTests();
  const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(getDb());
  expect(rows[0].statement_timeout).toBe("10s");
});
