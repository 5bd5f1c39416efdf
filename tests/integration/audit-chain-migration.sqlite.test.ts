/**
 * Migrations 008 and 010 on a trail written before them: 008 sealed it as it stood (SHA-256), 010
 * re-seals it under AUDIT_KEY and records the re-seal (the old head, whether the old chain held, any
 * gaps in the ids). SQLite only: PostgreSQL's history starts at 008's schema (migrations/postgres), and
 * its 010 runs the same re-seal (migrations/audit-chain.js), tested in keyed-migrations.test.ts.
 */
import path from "node:path";
import { Kysely, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { verifyAuditChain } from "~/models/audit/audit-chain.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { closeDatabase, getDb, migrateDatabase } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { migrations } from "../../migrations/index.js";
import { openSqlite } from "../../migrations/migrator.js";
import { withDatabaseFile } from "../support/database-file";
import { useIntegration } from "../support/integration";

const { database } = useIntegration({ database: "each" });

/** An SQLite file migrated up to `last`, with `write` run on it then. */
async function olderDatabase(last: string, write: Parameters<typeof withDatabaseFile>[1]) {
  const file = path.join(database.dir, "older.sqlite");
  const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo(last)).error).toBeUndefined();
  await db.destroy();
  withDatabaseFile(file, write);
  await closeDatabase();
  process.env.DATABASE_PATH = file;
  resetEnvForTests();
}

const reseal = async () =>
  getDb().selectFrom("audit_events").selectAll().where("action", "=", "audit.resealed").executeTakeFirstOrThrow();

it("seals the rows a trail had before 008, re-seals them under the key and records it, then chains new rows on", async () => {
  await olderDatabase("007_second_factor", (sqlite) => {
    const insert = sqlite.prepare("insert into audit_events (action, actor_email, at) values (?, ?, ?)");
    for (let i = 1; i <= 3; i++) insert.run("old.event", `old${i}@example.com`, i);
  });
  await migrateDatabase();
  expect(await verifyAuditChain()).toEqual({ ok: true, rows: 4, last: { id: 4, at: expect.any(Number) } });
  const row = await reseal();
  expect(row.id).toBe(4);
  expect(JSON.parse(row.details!)).toEqual({
    seal: "HMAC-SHA256",
    rows: 3,
    previousSeal: "SHA-256",
    previousHead: expect.stringMatching(/^[0-9a-f]{64}$/),
    previousChain: "intact",
    gaps: [],
  });
  await recordAuditEvent({ action: "new.event" });
  expect(await verifyAuditChain()).toEqual({ ok: true, rows: 5, last: { id: 5, at: expect.any(Number) } });
});

it("records that the keyless chain it re-sealed was already broken, and where; gaps it found are accepted", async () => {
  await olderDatabase("008_audit_chain", (sqlite) => {
    const insert = sqlite.prepare(
      "insert into audit_events (action, actor_email, at, prev_hash, hash) values (?, ?, ?, ?, ?)",
    );
    insert.run("old.event", "a@example.com", 1, "0".repeat(64), "1".repeat(64));
    insert.run("old.event", "b@example.com", 2, "1".repeat(64), "2".repeat(64));
    sqlite
      .prepare("insert into audit_events (id, action, actor_email, at, prev_hash, hash) values (7, ?, ?, ?, ?, ?)")
      .run("old.event", "c@example.com", 3, "2".repeat(64), "3".repeat(64));
  });
  await migrateDatabase();
  expect(JSON.parse((await reseal()).details!)).toMatchObject({
    rows: 3,
    previousHead: "3".repeat(64),
    previousChain: "broken at row 1",
    gaps: [7],
  });
  // The gap from before the re-seal is the re-seal's to explain; the keyed chain verifies.
  expect(await verifyAuditChain()).toEqual({ ok: true, rows: 4, last: { id: 8, at: expect.any(Number) } });
});
