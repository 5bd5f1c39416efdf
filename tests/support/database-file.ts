/**
 * A running server's SQLite file, opened from outside the server with better-sqlite3 itself: for
 * tests of SQLite's own mechanics (its write lock, its WAL, a copy of the file). Anything that is
 * the same on either engine goes through outside-database.ts instead.
 */
import Database from "better-sqlite3";

/** Opens the file (which must exist), runs `work` on it and closes it again, whatever happens. */
export function withDatabaseFile<T>(
  file: string,
  work: (db: Database.Database) => T,
  { readonly = false }: { readonly?: boolean } = {},
): T {
  const db = new Database(file, { readonly, fileMustExist: true });
  try {
    // The server writes to the same file: wait for its lock rather than fail.
    db.pragma("busy_timeout = 5000");
    return work(db);
  } finally {
    db.close();
  }
}
