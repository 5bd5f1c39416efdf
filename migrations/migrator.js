// @ts-check
// Opening the SQLite file, and migrating either engine's database, shared by the app (bundled into
// the server build) and by `npm run db:migrate` (plain Node), so both agree.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { migrations } from "./index.js";
import { migrations as postgresMigrations } from "./postgres/index.js";

/** How long a writer waits for another's lock before SQLite reports "busy". */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * @param {string} databasePath
 * @returns {import("better-sqlite3").Database}
 */
export function openSqlite(databasePath) {
  fs.mkdirSync(path.dirname(databasePath), { recursive: true, mode: 0o700 });
  const sqlite = new Database(databasePath);
  sqlite.pragma("journal_mode = WAL");
  // Every commit reaches the disk before it is confirmed (docs/decisions/0009-durability.md).
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return sqlite;
}

/**
 * Each engine's history: SQLite's here, PostgreSQL's in ./postgres.
 * @param {"sqlite" | "postgres"} engine
 */
export function migrationsOf(engine) {
  return engine === "postgres" ? postgresMigrations : migrations;
}

/**
 * The keys a migration may need, besides the database: 009 encrypts the stored TOTP secrets under
 * DATA_KEY (its first key), 010 re-seals the audit trail under AUDIT_KEY. A migration that finds
 * nothing to encrypt or re-seal needs none, so a new database is made without them.
 * @typedef {{ auditKey?: string; dataKey?: string }} MigrationKeys
 */

/**
 * Each migration of the history, given the keys as its second argument (kysely passes only the database).
 * @param {"sqlite" | "postgres"} engine
 * @param {MigrationKeys} keys
 * @returns {Record<string, import("kysely/migration").Migration>}
 */
function withKeys(engine, keys) {
  return Object.fromEntries(
    Object.entries(migrationsOf(engine)).map(([name, migration]) => [
      name,
      {
        up: (db) => /** @type {(db: any, keys: MigrationKeys) => Promise<void>} */ (migration.up)(db, keys),
        ...(migration.down && { down: migration.down }),
      },
    ]),
  );
}

/**
 * @param {import("kysely").Kysely<any>} db
 * @param {"sqlite" | "postgres"} [engine] whose history to run (PostgreSQL's lives in ./postgres)
 * @param {MigrationKeys} [keys]
 * @returns {Promise<string[]>} the names of the migrations applied now
 */
export async function migrateToLatest(db, engine = "sqlite", keys = {}) {
  // On PostgreSQL kysely holds an advisory lock while it migrates: instances starting together take turns.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => withKeys(engine, keys) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * @param {string} databaseUrl a postgres:// URL
 * @param {MigrationKeys} [keys]
 */
export async function migrateUrl(databaseUrl, keys) {
  const { default: pg } = await import("pg");
  const db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
  });
  try {
    return await migrateToLatest(db, "postgres", keys);
  } finally {
    await db.destroy();
  }
}

/**
 * @param {string} databasePath
 * @param {MigrationKeys} [keys]
 */
export async function migrateFile(databasePath, keys) {
  const db = new Kysely({ dialect: new SqliteDialect({ database: openSqlite(databasePath) }) });
  try {
    return await migrateToLatest(db, "sqlite", keys);
  } finally {
    await db.destroy();
  }
}
