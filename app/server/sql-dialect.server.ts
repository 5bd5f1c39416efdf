/**
 * Where SQLite and PostgreSQL say the same thing differently, and the one module that knows it: each
 * export is one fragment or step in the running engine's words. Every other query is written once,
 * through kysely, and reads alike on both (times are integer milliseconds and flags 0/1 in both).
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import { databaseEngine, type Database } from "./db.server";

const onPostgres = () => databaseEngine() === "postgres";

/** A text column in the case-insensitive order its index keeps (SQLite `collate nocase`, PostgreSQL `lower()`). */
export function caseInsensitiveOrder(column: string): RawBuilder<string> {
  return onPostgres() ? sql<string>`lower(${sql.ref(column)})` : sql<string>`${sql.ref(column)} collate nocase`;
}

/**
 * The key a deep page joins back on: SQLite's rowid (the table's own b-tree key, so the join reads each
 * row once), PostgreSQL's primary key.
 */
export function rowKey(table: "users"): RawBuilder<string | number> {
  return onPostgres() ? sql<string>`${sql.ref(`${table}.id`)}` : sql<number>`${sql.raw(`${table}.rowid`)}`;
}

/**
 * The query's rows after the first `offset`, however many: SQLite takes OFFSET only after a LIMIT, and
 * its "no limit" is -1, which PostgreSQL refuses; PostgreSQL takes OFFSET alone.
 */
export function allAfter<Query extends { offset(n: number): Query; limit(n: number): Query }>(
  query: Query,
  offset: number,
): Query {
  return onPostgres() ? query.offset(offset) : query.limit(-1).offset(offset);
}

/**
 * Part of a bytes column, and how to read it back: SQLite hands its blob over as it is; PostgreSQL would
 * send a bytea as hex text, twice its size, so the part comes as base64 (a third more) and is decoded here.
 * `substr` counts from 1 on both.
 */
export const bytesPart = {
  /**
   * The most one part should hold. PostgreSQL's part arrives as one string of base64, and V8 keeps a string
   * over 128 KiB among its large objects: those still in flight when the young generation is collected are
   * promoted, and only a full collection, which stops the server, frees them. 64 KiB comes as 88 KB.
   * SQLite reads a row's blob whole for any part of it, so it is asked for the row's part in one.
   */
  largest(): number {
    return onPostgres() ? 64 * 1024 : Number.POSITIVE_INFINITY;
  },
  select(column: string, from: RawBuilder<number>, length: RawBuilder<number>): RawBuilder<Uint8Array | string> {
    const part = sql`substr(${sql.ref(column)}, ${from}, ${length})`;
    return onPostgres() ? sql<string>`encode(${part}, 'base64')` : sql<Uint8Array>`${part}`;
  },
  read(value: Uint8Array | string): Buffer {
    return typeof value === "string"
      ? Buffer.from(value, "base64")
      : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  },
};

/**
 * Whether a long list (every investor) is cheaper written as JSON by the database than read as rows and
 * written by JSON.stringify. SQLite's `json_group_array` writes 10,000 users in about 37 ms against 86 for
 * the rows and JSON.stringify. PostgreSQL's `json_build_object` costs its server about 10 µs a row, and the
 * same list took 90-140 ms there against 40-60 ms read as plain rows and written in JavaScript
 * (docs/performance.md, "PostgreSQL's list of every investor"). The fragments below are SQLite's.
 */
export function databaseWritesJsonLists(): boolean {
  return !onPostgres();
}

/** A flag column (0/1) as a JSON true or false. */
function jsonFlag(column: string) {
  return sql`json(iif(${sql.ref(column)}, 'true', 'false'))`;
}

/** A time column (integer milliseconds, UTC) as ISO 8601 text with milliseconds, as `Date.toISOString` writes it. */
function isoTime(column: string) {
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.ref(column)} / 1000.0, 'unixepoch')`;
}

/** A JSON object of key/value pairs, the values being SQL expressions. */
function jsonObject(pairs: [key: string, value: RawBuilder<unknown>][]): RawBuilder<string> {
  const items = sql.join(pairs.map(([key, value]) => sql`${sql.lit(key)}, ${value}`));
  return sql<string>`json_object(${items})`;
}

/** The JSON array of `element` over the rows, in `order`, as text. */
function jsonArray(element: RawBuilder<string>, order: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`json_group_array(${element} order by ${order})`;
}

/** The fragments a JSON list of users is made of, where the database writes it (databaseWritesJsonLists). */
export const json = { flag: jsonFlag, isoTime, object: jsonObject, array: jsonArray };

/** The handle `asOnlyWriter` gives its work: the only one that work may use (on SQLite it holds the one connection). */
export type OnlyWriter = Kysely<Database> | Transaction<Database>;

/**
 * Runs `work` as the only writer of its kind: SQLite takes its one write lock at the start (BEGIN
 * IMMEDIATE); PostgreSQL takes a transaction-scoped advisory lock named `name`, which every instance
 * sharing the database honours. Either way the lock ends with the transaction.
 */
export async function asOnlyWriter<T>(
  db: Kysely<Database>,
  name: string,
  work: (db: OnlyWriter) => Promise<T>,
): Promise<T> {
  if (onPostgres()) {
    return db.transaction().execute(async (transaction) => {
      await alsoOnlyWriterOf(transaction, name);
      return work(transaction);
    });
  }
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/**
 * Inside `asOnlyWriter`'s work: makes it the only writer of one more kind too, until its transaction ends. On
 * SQLite the write lock it holds already covers every kind; on PostgreSQL it takes that kind's advisory lock as
 * well. Locks are taken in one order wherever two are held (the first `asOnlyWriter`'s, then these), so two
 * writers never each hold a lock the other waits for.
 */
export async function alsoOnlyWriterOf(db: OnlyWriter, name: string): Promise<void> {
  if (onPostgres()) await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
}

/**
 * SQLite: busy past the timeout, locked, or a full disk. PostgreSQL: the server shutting down or
 * starting, too many connections, a lost or refused connection, a statement cancelled by its
 * timeout, a serialisation failure or a deadlock. None is the request's fault and none lasts: the
 * answer is 503 with Retry-After, and the next request tries again.
 */
const UNAVAILABLE_CODES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "57014", // query_canceled (statement_timeout)
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  // The database's host not found or not reachable, as during a fail-over.
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isUnavailableError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (/^SQLITE_(BUSY|LOCKED|FULL)/.test(code) || code.startsWith("08") || UNAVAILABLE_CODES.has(code)) return true;
  }
  return typeof message === "string" && LOST_CONNECTION.test(message);
}

/** A row refused because its unique key is taken (SQLite's constraint error, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}
