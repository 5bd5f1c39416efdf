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
  fs.mkdirSync(path.dirname(databasePath), { recursive: true });
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
 * @param {import("kysely").Kysely<any>} db
 * @param {"sqlite" | "postgres"} [engine] whose history to run (PostgreSQL's lives in ./postgres)
 * @returns {Promise<string[]>} the names of the migrations applied now
 */
export async function migrateToLatest(db, engine = "sqlite") {
  // On PostgreSQL kysely holds an advisory lock while it migrates: instances starting together take turns.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsOf(engine) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** @param {string} databaseUrl a postgres:// URL */
export async function migrateUrl(databaseUrl) {
  const { default: pg } = await import("pg");
  const db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
  });
  try {
    return await migrateToLatest(db, "postgres");
  } finally {
    await db.destroy();
  }
}

/** @param {string} databasePath */
export async function migrateFile(databasePath) {
  const db = new Kysely({ dialect: new SqliteDialect({ database: openSqlite(databasePath) }) });
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
