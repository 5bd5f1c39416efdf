import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createDatabase, startCluster, stopCluster } from "../../../scripts/throwaway-postgres";
import { databaseEnv } from "../../support/outside-database";
import { runScript } from "../../support/run-script";
import { startSmtpCatcher } from "../../support/smtp-catcher";
import { TEST_KEYS } from "../../support/test-keys";
import { scanServerLog } from "./log-scan";
import {
  E2E_BASE_URL,
  E2E_CONTACT_EMAIL,
  E2E_DATA_DIR,
  E2E_DATABASE,
  E2E_LOG_FILE,
  E2E_MAIL_DIR,
  E2E_ON_POSTGRES,
  E2E_PORT,
  E2E_POSTGRES_PORT,
} from "./server";

/** Starts the SMTP catcher and the built server on a fresh database; returns the teardown. */
export default async function globalSetup() {
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_MAIL_DIR, { recursive: true });
  if (E2E_ON_POSTGRES) {
    const url = await createDatabase(startCluster(E2E_POSTGRES_PORT), "e2e");
    if (!("url" in E2E_DATABASE) || url !== E2E_DATABASE.url) throw new Error(`The cluster's database is ${url}`);
  }

  let count = 0;
  const smtp = await startSmtpCatcher((mail) => {
    count += 1;
    const name = `${Date.now()}-${String(count).padStart(5, "0")}.json`;
    // Written beside the folder and renamed into it whole: a test polling the folder never reads half a file.
    const partial = path.join(E2E_DATA_DIR, `${name}.partial`);
    fs.writeFileSync(partial, JSON.stringify(mail));
    fs.renameSync(partial, path.join(E2E_MAIL_DIR, name));
  });

  const log = fs.openSync(E2E_LOG_FILE, "a");
  const server = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      APP_URL: E2E_BASE_URL,
      ...databaseEnv(E2E_DATABASE),
      ...TEST_KEYS,
      SMTP_URL: smtp.url,
      CONTACT_EMAIL: E2E_CONTACT_EMAIL,
      CONTACT_FORM_URL: "",
      // Every browser test comes from 127.0.0.1: the 10 auth POSTs a minute per IP
      // (tested in tests/integration) would refuse the suite's own logins.
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      TRUST_PROXY: "1",
      // The production rules ask for somewhere to scrape the metrics: a listener on loopback, on any free port.
      METRICS_PORT: "0",
    },
    stdio: ["ignore", log, log],
  });

  await waitForServer(`${E2E_BASE_URL}/robots.txt`, server);

  return async () => {
    try {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
      await smtp.close();
      // The whole run's log, now complete: one JSON event a line, no secrets (throws, failing the run).
      const scan = await scanServerLog();
      console.log(`Server log scan: ${scan.lines} lines, ${scan.secrets} secrets looked for, none found.`);
      // Everything the whole run wrote to the audit trail still forms one unbroken chain.
      const audit = await runScript("audit-verify.ts", [], databaseEnv(E2E_DATABASE));
      if (audit.code !== 0) throw new Error(`npm run audit:verify failed after the run: ${audit.output}`);
      console.log(audit.output.trim());
    } finally {
      if (E2E_ON_POSTGRES) stopCluster(E2E_POSTGRES_PORT);
    }
  };
}

async function waitForServer(url: string, server: ReturnType<typeof spawn>) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited early; see ${E2E_LOG_FILE}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer at ${url}; see ${E2E_LOG_FILE}`);
}
