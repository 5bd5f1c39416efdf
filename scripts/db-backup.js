// `npm run db:backup -- <file>`: a consistent copy of the database, taken while
// the site may be serving. SQLite: VACUUM INTO reads inside one transaction, so the
// copy is a snapshot of one moment (every commit before it, none half-written) and
// writers are never blocked (WAL). PostgreSQL (DATABASE_URL): pg_dump in its custom
// format, which also reads one snapshot; restore it with pg_restore. Either way the
// copy is written beside its target and renamed into place, so an interrupted backup
// never leaves a half-written file.
import "dotenv/config";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { openSqlite } from "../migrations/migrator.js";

// Whatever this writes (the database, a key, a copy) is its user's alone.
process.umask(0o077);

const databasePath = path.resolve(process.env.DATABASE_PATH || "data/portal.sqlite");
const databaseUrl = process.env.DATABASE_URL || undefined;
const target = process.argv[2];

/** @param {string} message */
function fail(message) {
  console.error(message);
  process.exit(1);
}

if (!target) fail("Usage: npm run db:backup -- <file>");
const backupPath = path.resolve(target);
if (databaseUrl) {
  if (fs.existsSync(backupPath)) fail(`${backupPath} already exists; choose a new file name.`);
  fs.mkdirSync(path.dirname(backupPath), { recursive: true });
  const partialPath = `${backupPath}.partial-${process.pid}`;
  // The password goes in pg_dump's environment, not on its command line, which every local user can read.
  const server = new URL(databaseUrl);
  const password = decodeURIComponent(server.password);
  server.password = "";
  const dump = spawnSync(pgDump(), ["--format=custom", `--file=${partialPath}`, `--dbname=${server.href}`], {
    encoding: "utf8",
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  });
  if (dump.status !== 0) {
    fs.rmSync(partialPath, { force: true });
    fail(`Backup failed: ${dump.error?.message ?? dump.stderr.trim()}`);
  }
  fs.renameSync(partialPath, backupPath);
  console.log(
    `Backed up ${new URL(databaseUrl).pathname.slice(1)} to ${backupPath} (${fs.statSync(backupPath).size} bytes)`,
  );
  process.exit(0);
}
if (!fs.existsSync(databasePath)) fail(`There is no database at ${databasePath}.`);
if (backupPath === databasePath) fail("The backup cannot overwrite the database itself.");
if (fs.existsSync(backupPath)) fail(`${backupPath} already exists; choose a new file name.`);

fs.mkdirSync(path.dirname(backupPath), { recursive: true });
const partialPath = `${backupPath}.partial-${process.pid}`;
const sqlite = openSqlite(databasePath);
try {
  sqlite.prepare("VACUUM INTO ?").run(partialPath);
  const copy = new Database(partialPath, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`The copy failed its integrity check: ${check}`);
  } finally {
    copy.close();
  }
  fs.renameSync(partialPath, backupPath);
} catch (error) {
  fs.rmSync(partialPath, { force: true });
  fail(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  sqlite.close();
}
/** pg_dump of the newest PostgreSQL installed (Debian keeps each version's tools apart), else the one on PATH. */
function pgDump() {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, "bin/pg_dump")).find((file) => fs.existsSync(file));
  return found ?? "pg_dump";
}

console.log(`Backed up ${databasePath} to ${backupPath} (${fs.statSync(backupPath).size} bytes)`);
