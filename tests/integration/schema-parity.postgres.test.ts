/**
 * The two migration histories (migrations/ for SQLite, migrations/postgres/ for PostgreSQL) must
 * arrive at the same schema: the same tables, the same columns, the same indexes. A migration
 * written for one engine and not the other fails here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, SqliteDialect, sql } from "kysely";
import { getDb } from "~/server/db.server";
import { migrateFile, openSqlite } from "../../migrations/migrator.js";
import { useIntegration } from "../support/integration";

/**
 * Indexes one engine needs that the other has in another form: SQLite keeps unique e-mail as `collate nocase`;
 * the investor search's trigram index (migrations/postgres/012) has no SQLite counterpart.
 */
const POSTGRES_ONLY_INDEXES = ["users_email", "users_email_lookup", "users_investors_search"];

const { database } = useIntegration();

type Schema = { tables: Record<string, string[]>; indexes: string[] };

async function schemaOf(db: Kysely<never>, indexes: () => Promise<string[]>): Promise<Schema> {
  const tables = (await db.introspection.getTables())
    .filter((table) => !table.name.startsWith("kysely_"))
    .map((table) => [table.name, table.columns.map((column) => column.name).sort()] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return { tables: Object.fromEntries(tables), indexes: (await indexes()).sort() };
}

test("SQLite's and PostgreSQL's migrations make the same tables, columns and indexes", async () => {
  expect(database.engine).toBe("postgres");
  const postgres = await schemaOf(getDb() as unknown as Kysely<never>, async () => {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where schemaname = 'public' and indexname not like '%_pkey'
        and tablename not like 'kysely_%'`.execute(getDb());
    return rows.map((row) => row.name).filter((name) => !POSTGRES_ONLY_INDEXES.includes(name));
  });

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parity-")), "portal.sqlite");
  await migrateFile(file);
  const sqlite = new Kysely<never>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  try {
    const sqliteSchema = await schemaOf(sqlite, async () => {
      const { rows } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'index' and sql is not null`.execute(sqlite);
      return rows.map((row) => row.name);
    });
    expect(postgres).toEqual(sqliteSchema);
    expect(Object.keys(postgres.tables)).toContain("audit_events");
  } finally {
    await sqlite.destroy();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});
