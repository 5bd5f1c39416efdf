import { PostgresDialect } from "kysely";
import pg from "pg";
import type { Env } from "./env.server";
import { log } from "./log.server";
import { watchPool } from "./metrics.server";

// bigint columns (the times, in milliseconds) and counts arrive as text by default: every value the
// app stores is far below 2^53, so they are read as numbers, as SQLite gives them.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * The app's connection pool to PostgreSQL: `DATABASE_POOL_SIZE` connections, each statement cancelled
 * after `DATABASE_STATEMENT_TIMEOUT_MS`, and a connection that cannot be had within five seconds given
 * up on (the request gets 503 and the next one tries again).
 */
export function postgresDialect(env: Env): PostgresDialect {
  const pool = new pg.Pool({
    connectionString: env.databaseUrl,
    max: env.databasePoolSize,
    statement_timeout: env.databaseStatementTimeoutMs,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection lost (the server restarted) is dropped from the pool; without a listener it
  // would end the process.
  pool.on("error", (error) => log("warn", "db.connection_lost", { error }));
  watchPool(pool);
  return new PostgresDialect({ pool });
}
