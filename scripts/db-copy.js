// `npm run db:copy -- <from> <to>`: moves an SQLite database into PostgreSQL, the way from one machine
// to several (docs/deployment.md). <from> is the SQLite file, <to> a postgres:// URL of an empty
// database. Both are migrated to the latest schema first; then every row of every table is copied in
// one PostgreSQL transaction, ids and hashes as they are, so the audit chain arrives whole (and verifies
// under the same AUDIT_KEY; the TOTP secrets open under the same DATA_KEY). The counts
// the triggers keep are made again by the triggers. Nothing is written unless every row arrives.
// Stop the site (or keep it from writing) while it runs.
import "dotenv/config";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { migrationKeys } from "../app/server/db.server";
import { migrateFile, migrateUrl } from "../migrations/migrator.js";

/**
 * The materials library, parents first. Migration 016 seeds the first library into every new database,
 * the target's too: the source's library, which began as the same, replaces it. The reading totals
 * (document_readers, document_reading) follow from document_opens, and the page-time totals
 * (document_page_reading, document_reader_reading, reader_day_reading) from page_times, as their triggers write them.
 */
const LIBRARY_TABLES = [
  "blobs",
  "blob_chunks",
  "documents",
  "document_versions",
  "document_audience",
  "document_opens",
  "reading_streams",
  "reading_batches",
  "page_times",
  "video_watches",
  "material_visits",
];

// The copy, like the database, is its user's alone.
process.umask(0o077);

/**
 * Parents before children, for the foreign keys; investor_counts and users_version follow from users.
 * users.created_by names an earlier user (an inviter is made before whom they invite), so users go in
 * the order they were made.
 */
const TABLES = [
  "users",
  "admin_invitations",
  "sessions",
  "totp_enrolments",
  "api_tokens",
  "api_token_families",
  "one_time_tokens",
  "totp_credentials",
  "recovery_codes",
  "passkeys",
  "login_challenges",
  "audit_events",
  "contact_messages",
  "rate_limits",
  "alert_preferences",
  "alert_mails",
  ...LIBRARY_TABLES,
  // The NDA's template versions are files in the blob store, copied above with the library's.
  "nda_templates",
  "nda_consents",
  "nda_copies",
  "nda_signatures",
  // What follows the materials (migration 023): after the documents and files its rows point at.
  "portal_features",
  "questions",
  "answer_edits",
  "qualification_statements",
  "verifications",
  "interest_indications",
];
/**
 * Tables every new database begins with rows in, the target's too: the source's rows replace them.
 * The firm's switches are one row, which migration 023 writes.
 */
const REPLACED_TABLES = [...LIBRARY_TABLES, "portal_features"];
/** Tables whose ids count up: PostgreSQL's counter must continue after the highest id copied. */
const COUNTED_IDS = ["audit_events", "contact_messages"];
/** Rows per insert, and at most this many bytes of them: a file's chunks (1 MiB each) go over a few at a time. */
const BATCH = 500;
const BATCH_BYTES = 8 * 1024 * 1024;

/** @param {string} message */
function fail(message) {
  console.error(message);
  process.exit(1);
}

const [from, to] = process.argv.slice(2);
if (!from || !to) fail("Usage: npm run db:copy -- <sqlite file> <postgres://… URL>");
const sourcePath = path.resolve(from);
if (!fs.existsSync(sourcePath)) fail(`There is no database at ${sourcePath}.`);
if (!/^postgres(ql)?:\/\//.test(to)) fail(`${to} is not a postgres:// URL.`);

// The source is brought up to date with the app's own keys (AUDIT_KEY, DATA_KEY, or those generated beside it);
// the rows then arrive sealed and encrypted as they are, so the target must be run with the same keys.
process.env.DATABASE_PATH ??= sourcePath;
await migrateFile(sourcePath, migrationKeys());
await migrateUrl(to, migrationKeys());

const source = new Database(sourcePath, { readonly: true, fileMustExist: true });
const target = new pg.Client({ connectionString: to });
await target.connect();
/** @type {Record<string, number>} */
const copied = {};
try {
  for (const table of TABLES.filter((name) => !REPLACED_TABLES.includes(name))) {
    const { rows } = await target.query(`select exists (select 1 from ${table}) as taken`);
    if (rows[0].taken) fail(`The target's ${table} table is not empty: copy only into an empty database.`);
  }
  await target.query("begin");
  for (const table of [...REPLACED_TABLES].reverse()) await target.query(`delete from ${table}`);
  for (const table of TABLES) {
    copied[table] = 0;
    /** @type {Record<string, unknown>[]} */
    let batch = [];
    let batchBytes = 0;
    // The rows are read one at a time (iterate), so memory holds one batch, never a whole file.
    for (const row of /** @type {Iterable<Record<string, unknown>>} */ (
      source.prepare(`select * from ${table} order by rowid`).iterate()
    )) {
      batch.push(row);
      batchBytes += bytesOf(row);
      if (batch.length === BATCH || batchBytes >= BATCH_BYTES) {
        copied[table] += await insertRows(table, batch.splice(0));
        batchBytes = 0;
      }
    }
    if (batch.length > 0) copied[table] += await insertRows(table, batch);
    const { n } = /** @type {{ n: number }} */ (source.prepare(`select count(*) as n from ${table}`).get());
    if (copied[table] !== n) throw new Error(`${table}: ${copied[table]} of ${n} rows copied.`);
  }
  for (const table of COUNTED_IDS) {
    await target.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
    );
  }
  await target.query("commit");
} catch (error) {
  await target.query("rollback").catch(() => {});
  fail(`Copy failed, nothing written: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  source.close();
  await target.end();
}
const total = Object.values(copied).reduce((sum, n) => sum + n, 0);
console.log(`Copied ${total} rows from ${sourcePath} to ${new URL(to).pathname.slice(1)}:`);
for (const [table, n] of Object.entries(copied)) console.log(`  ${String(n).padStart(8)}  ${table}`);

/**
 * The bytes a row's binary columns hold (a file's chunk); text and numbers are small beside them.
 * @param {Record<string, unknown>} row
 */
function bytesOf(row) {
  let bytes = 0;
  for (const value of Object.values(row)) if (Buffer.isBuffer(value)) bytes += value.byteLength;
  return bytes;
}

/**
 * @param {string} table
 * @param {Record<string, unknown>[]} rows
 */
async function insertRows(table, rows) {
  const columns = Object.keys(rows[0]);
  const values = rows.flatMap((row) => columns.map((column) => row[column]));
  const tuples = rows.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
  const { rowCount } = await target.query(
    `insert into ${table} (${columns.join(", ")}) values ${tuples.join(", ")}`,
    values,
  );
  return rowCount ?? 0;
}
