import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3390);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** The e2e run's own data folder: database, outbox, and the mail the catcher received. */
export const E2E_DATA_DIR = path.resolve(`.tmp/e2e-${E2E_PORT}`);
export const E2E_MAIL_DIR = path.join(E2E_DATA_DIR, "mail");
export const E2E_LOG_FILE = path.join(E2E_DATA_DIR, "server.log");
/** The firm's mailbox the suite's server is configured with: every page and e-mail must show it. */
export const E2E_CONTACT_EMAIL = "contact-inbox@example.com";
