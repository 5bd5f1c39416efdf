import path from "node:path";
import { databaseUrl } from "../../../scripts/throwaway-postgres";
import type { DatabaseLocation } from "../../support/outside-database";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3390);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** The e2e run's own data folder: database, outbox, and the mail the catcher received. */
export const E2E_DATA_DIR = path.resolve(`.tmp/e2e-${E2E_PORT}`);
export const E2E_MAIL_DIR = path.join(E2E_DATA_DIR, "mail");
export const E2E_LOG_FILE = path.join(E2E_DATA_DIR, "server.log");
/** The firm's mailbox the suite's server is configured with: every page and e-mail must show it. */
export const E2E_CONTACT_EMAIL = "contact-inbox@example.com";

/**
 * `E2E_ENGINE=postgres` runs the suite's server on PostgreSQL: a throwaway cluster on this port, which
 * the global set-up starts and the teardown stops (E2E_POSTGRES_PORT moves it, so that two checkouts can run at
 * once). Otherwise it runs on an SQLite file in the data folder.
 */
export const E2E_POSTGRES_PORT = process.env.E2E_POSTGRES_PORT || "25436";
export const E2E_ON_POSTGRES = process.env.E2E_ENGINE === "postgres";

/** The suite's server's database. */
export const E2E_DATABASE: DatabaseLocation = E2E_ON_POSTGRES
  ? { url: databaseUrl(`postgres://postgres@127.0.0.1:${E2E_POSTGRES_PORT}`, "e2e") }
  : { path: path.join(E2E_DATA_DIR, "portal.sqlite") };
