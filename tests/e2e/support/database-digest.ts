import { createHash } from "node:crypto";
import Database from "better-sqlite3";

/**
 * A digest of every table of a live server's SQLite file, read through a
 * read-only connection of its own (WAL: each digest sees every commit made
 * before it). Left out, because they move on every request by design:
 * - rate_limits rows `auth-ip:*`, the per-address counter of auth requests,
 *   which counts every attempt, bad ones included (that is its job);
 * - sessions.last_seen_at, the sliding idle window every authenticated request moves, and
 *   api_token_families.last_used_at, which an access token's use moves (at most once a minute);
 * - sessions already past their expiry: dead either way, and deleted when presented.
 */
export type DatabaseSnapshot = Record<string, { rows: number; digest: string }>;

const IGNORED_COLUMNS: Record<string, string[]> = {
  sessions: ["last_seen_at"],
  api_token_families: ["last_used_at"],
};
const IGNORED_ROWS: Record<string, (row: Record<string, unknown>) => boolean> = {
  rate_limits: (row) => String(row.key).startsWith("auth-ip:"),
  sessions: (row) => Number(row.expires_at) <= Date.now(),
};

export function openDatabaseDigest(databasePath: string) {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  const tables = (
    db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .all() as {
      name: string;
    }[]
  ).map((table) => table.name);

  /** Each row as JSON, sorted: the same rows give the same list whatever order the table keeps them in. */
  function rowsOf(table: string) {
    const ignoredColumns = IGNORED_COLUMNS[table] ?? [];
    const ignoredRow = IGNORED_ROWS[table];
    return (db.prepare(`select * from "${table}"`).all() as Record<string, unknown>[])
      .filter((row) => !ignoredRow?.(row))
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !ignoredColumns.includes(column))))
      .sort();
  }

  return {
    tables,
    snapshot(): DatabaseSnapshot {
      // One read transaction, so the tables are digested at one instant.
      return db.transaction(() =>
        Object.fromEntries(
          tables.map((table) => {
            const rows = rowsOf(table);
            const digest = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
            return [table, { rows: rows.length, digest }];
          }),
        ),
      )();
    },
    /** The tables whose digest differs, with their row counts, for a failure message. */
    changes(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
      return tables
        .filter((table) => before[table]?.digest !== after[table]?.digest)
        .map((table) => `${table} (${before[table]?.rows} → ${after[table]?.rows} rows)`);
    },
    close: () => db.close(),
  };
}
