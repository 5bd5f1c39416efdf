import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { closeDatabase, migrateDatabase } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { resetMailTransportForTests } from "~/server/mail.server";
import { createDatabase, dropDatabase } from "../../scripts/throwaway-postgres";
import { TEST_KEYS } from "./test-keys";

/**
 * Gives the calling test file its own database, migrated, and points the app's configuration at it:
 * an SQLite file, or, in the `postgres` test project, a database of its own on the project's server
 * (postgres-global-setup.ts). Either way a data folder of its own too. Call in beforeAll.
 */
export async function useFreshDatabase(extraEnv: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-test-"));
  const server = inject("postgresUrl");
  const postgresDatabase = server ? `test_${randomBytes(6).toString("hex")}` : undefined;
  const postgresUrl = server && postgresDatabase ? await createDatabase(server, postgresDatabase) : "";
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATABASE_PATH: path.join(dir, "portal.sqlite"),
    DATABASE_URL: postgresUrl,
    SESSION_SECRET: "test-secret-one,test-secret-two",
    AUDIT_KEY: TEST_KEYS.AUDIT_KEY,
    DATA_KEY: TEST_KEYS.DATA_KEY,
    NDA_SIGNING_P12: TEST_KEYS.NDA_SIGNING_P12,
    NDA_SIGNING_P12_PASSPHRASE: TEST_KEYS.NDA_SIGNING_P12_PASSPHRASE,
    NDA_ONE_SIDED: "off",
    APP_URL: "http://localhost:3000",
    ...extraEnv,
  });
  resetEnvForTests();
  resetMailTransportForTests();
  await closeDatabase();
  await migrateDatabase();
  return {
    dir,
    /** The engine this file runs on. */
    engine: server ? ("postgres" as const) : ("sqlite" as const),
    async cleanup() {
      await closeDatabase();
      resetMailTransportForTests();
      fs.rmSync(dir, { recursive: true, force: true });
      if (server && postgresDatabase) await dropDatabase(server, postgresDatabase);
    },
  };
}
