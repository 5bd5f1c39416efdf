/**
 * npm run db:migrate
 *
 * Brings the database to the latest schema: PostgreSQL at DATABASE_URL when it is set, else the SQLite
 * file of DATABASE_PATH. Uses the app's own configuration (.env), whose keys some migrations need:
 * AUDIT_KEY re-seals the audit trail, DATA_KEY encrypts the stored authenticator secrets.
 */
import "dotenv/config";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";
import { getEnv } from "../app/server/env.server";

// Whatever this writes (the database, a key) is its user's alone.
process.umask(0o077);

const { databaseUrl, databasePath } = getEnv();
const target = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : databasePath;
try {
  const applied = await migrateDatabase();
  console.log(applied.length ? `Applied ${applied.join(", ")} to ${target}` : `${target} is up to date`);
} catch (error) {
  console.error(`db:migrate failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
