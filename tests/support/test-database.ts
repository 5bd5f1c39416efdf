import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, migrateDatabase } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { resetMailTransportForTests } from "~/server/mail.server";

/**
 * Gives the calling test file its own SQLite file (and data folder), migrated,
 * and points the app's configuration at it. Call in beforeAll.
 */
export async function useFreshDatabase(extraEnv: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-test-"));
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_PATH: path.join(dir, "portal.sqlite"),
    SESSION_SECRET: "test-secret-one,test-secret-two",
    APP_URL: "http://localhost:3000",
    ...extraEnv,
  });
  resetEnvForTests();
  resetMailTransportForTests();
  await closeDatabase();
  await migrateDatabase();
  return {
    dir,
    async cleanup() {
      await closeDatabase();
      resetMailTransportForTests();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
