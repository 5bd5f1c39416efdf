import fs from "node:fs";
import { sql } from "kysely";
import { migrationsOf } from "../../migrations/migrator.js";
import { databaseEngine, getDb } from "./db.server";
import { getEnv } from "./env.server";

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether this process can serve its users (GET /readyz): the database (SQLite's
 * file, there and writable, or PostgreSQL) answers, every migration has run, and
 * mail has a server to go to. A load balancer takes the instance out while it is not ready.
 */
export async function readiness(): Promise<Readiness> {
  const { databasePath, smtpUrl } = getEnv();
  const engine = databaseEngine();
  if (engine === "sqlite") {
    try {
      fs.accessSync(databasePath, fs.constants.R_OK | fs.constants.W_OK);
    } catch {
      return { ready: false, reason: "The database file cannot be reached." };
    }
  }
  let applied: string[];
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(getDb());
    applied = rows.rows.map((row) => row.name);
  } catch {
    return { ready: false, reason: "The database does not answer." };
  }
  const missing = Object.keys(migrationsOf(engine)).filter((name) => !applied.includes(name));
  if (missing.length > 0) return { ready: false, reason: `The database is not migrated (${missing.join(", ")}).` };
  if (!smtpUrl) return { ready: false, reason: "Mail is not configured (SMTP_URL)." };
  return { ready: true };
}
