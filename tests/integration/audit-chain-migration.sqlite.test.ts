/**
 * Migration 008, which put the audit trail on a hash chain: a trail written before it is sealed as it
 * stood. SQLite only: PostgreSQL's history starts with the chain in place (migrations/postgres).
 */
import path from "node:path";
import { Kysely, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { verifyAuditChain } from "~/models/audit-chain.server";
import { recordAuditEvent } from "~/models/audit.server";
import { closeDatabase, migrateDatabase } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { migrations } from "../../migrations/index.js";
import { openSqlite } from "../../migrations/migrator.js";
import { withDatabaseFile } from "../support/database-file";
import { useFreshDatabase } from "../support/test-database";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;

beforeEach(async () => {
  database = await useFreshDatabase();
});
afterEach(async () => database.cleanup());

it("migration 008 seals the rows a trail already had, in id order", async () => {
  const file = path.join(database.dir, "older.sqlite");
  const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo("007_second_factor")).error).toBeUndefined();
  await db.destroy();
  withDatabaseFile(file, (sqlite) => {
    const insert = sqlite.prepare("insert into audit_events (action, actor_email, at) values (?, ?, ?)");
    for (let i = 1; i <= 3; i++) insert.run("old.event", `old${i}@example.com`, i);
  });

  await closeDatabase();
  process.env.DATABASE_PATH = file;
  resetEnvForTests();
  await migrateDatabase();
  expect(await verifyAuditChain()).toEqual({ ok: true, rows: 3, last: { id: 3, at: 3 } });
  await recordAuditEvent({ action: "new.event" });
  expect(await verifyAuditChain()).toEqual({ ok: true, rows: 4, last: { id: 4, at: expect.any(Number) } });
});
