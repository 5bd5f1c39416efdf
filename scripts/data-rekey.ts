/**
 * npm run data:rekey
 *
 * Re-encrypts every secret stored under DATA_KEY (the authenticator apps' secrets, and those of set-ups
 * in progress) with DATA_KEY's first key. To rotate the key: put the new key first and keep the old
 * one after it (DATA_KEY=new,old), restart the servers, run this, then drop the old key. Each secret
 * is rewritten only if its stored form still holds it, so a server writing meanwhile loses nothing.
 * Uses the app's own configuration (.env, DATABASE_PATH or DATABASE_URL) and migrates the database first.
 */
import "dotenv/config";
import { rekeyStoredSecrets } from "../app/models/second-factor/totp.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

// Whatever this writes (the database, a key) is its user's alone.
process.umask(0o077);

await migrateDatabase();
try {
  const { rekeyed, current } = await rekeyStoredSecrets();
  console.log(`Secrets re-encrypted under DATA_KEY's first key: ${rekeyed}; already under it: ${current}.`);
} catch (error) {
  console.error(`data:rekey failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
