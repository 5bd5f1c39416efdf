import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { enrolTotp, withDatabase, type DatabaseLocation } from "../../support/outside-database";
import { startSmtpCatcher, type SmtpCatcher } from "../../support/smtp-catcher";
import { TEST_KEYS } from "../../support/test-keys";
import { scanServerLog } from "./log-scan";

/**
 * The built server in a process of its own, on its own port, data folder,
 * SQLite file and SMTP catcher: for specs that kill, restart or count
 * everything in the database, which the suite's shared server
 * (global-setup.ts) cannot allow. Configured as in production (mail over
 * SMTP, so no links in the log), and its log is scanned for secrets at the end.
 */

export const BUILD_DIR = process.env.BUILD_DIR || "build";

export type LogLine = Record<string, unknown> & { event?: string; level?: string };

export type PrivateServer = {
  /** http://127.0.0.1:<port>, which is also the server's APP_URL (its only same-origin). */
  url: string;
  port: number;
  dir: string;
  databasePath: string;
  logFile: string;
  smtp: SmtpCatcher;
  process(): ChildProcess;
  logLines(): LogLine[];
  waitForLogLine(matches: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** The address of the metrics' own listener (METRICS_PORT) as the running process logged it. */
  metricsUrl(): Promise<string>;
  /** Sends the signal and resolves with the exit code once the process has gone. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  /** Starts the server again on the same port, data folder and database. */
  restart(): Promise<void>;
  /** `npm run create-admin` against this server's database, as an operator would. */
  /** `npm run create-admin`, then an authenticator app as if set up: returns its secret (base32). */
  createAdministrator(email: string, password: string): Promise<string>;
  /** Kills the server if it still runs, scans its log for secrets (throws), closes the catcher, removes its folder. */
  dispose(): Promise<void>;
};

/** `npm test` builds before the e2e suite; a lone run of one spec may not have. */
export function ensureBuilt() {
  if (fs.existsSync(path.join(BUILD_DIR, "index.js"))) return;
  execFileSync("npx", ["remix", "build"], { env: { ...process.env, BUILD_DIR }, stdio: "inherit" });
}

export async function startPrivateServer(
  options: { name: string; env?: Record<string, string | undefined> } = { name: "private" },
): Promise<PrivateServer> {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${options.name}-`));
  const logFile = path.join(dir, "server.log");
  const databasePath = path.join(dir, "portal.sqlite");
  const smtp = await startSmtpCatcher();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    BUILD_DIR,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: url,
    DATABASE_PATH: databasePath,
    ...TEST_KEYS,
    // Each server its own session secret, strong enough for the production rules.
    SESSION_SECRET: createHash("sha256").update(options.name).digest("hex"),
    SMTP_URL: smtp.url,
    CONTACT_EMAIL: "contact-inbox@example.com",
    CONTACT_FORM_URL: "",
    TRUST_PROXY: undefined,
    // The metrics on a listener of their own, on loopback, on any free port (metricsUrl() says which).
    METRICS_PORT: "0",
    ...options.env,
  };

  const database: DatabaseLocation = env.DATABASE_URL ? { url: env.DATABASE_URL } : { path: databasePath };

  let child: ChildProcess;
  let launchedAtLine = 0;
  const logLines = (): LogLine[] =>
    fs.existsSync(logFile)
      ? fs
          .readFileSync(logFile, "utf8")
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as LogLine)
      : [];

  async function waitForLogLine(matches: (line: LogLine) => boolean, timeoutMs = 30_000, after = 0) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = logLines().slice(after).find(matches);
      if (found) return found;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`The server exited early:\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`No such log line within ${timeoutMs} ms:\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`);
  }

  async function launch() {
    const linesBefore = logLines().length;
    launchedAtLine = linesBefore;
    const log = fs.openSync(logFile, "a");
    child = spawn(process.execPath, ["server.js"], { env, stdio: ["ignore", log, log] });
    fs.closeSync(log);
    await waitForLogLine((line) => line.event === "server.listening", 30_000, linesBefore);
  }

  function kill(signal: NodeJS.Signals) {
    const current = child;
    if (current.exitCode !== null || current.signalCode !== null) return Promise.resolve(current.exitCode);
    const exited = new Promise<number | null>((resolve) => current.once("exit", (code) => resolve(code)));
    current.kill(signal);
    return exited;
  }

  await launch();
  return {
    url,
    port,
    dir,
    databasePath,
    logFile,
    smtp,
    process: () => child,
    logLines,
    waitForLogLine: (matches, timeoutMs) => waitForLogLine(matches, timeoutMs),
    async metricsUrl() {
      const line = await waitForLogLine((entry) => entry.event === "metrics.listening", 10_000, launchedAtLine);
      return `http://${String(line.host)}:${String(line.port)}/metrics`;
    },
    kill,
    restart: launch,
    async createAdministrator(email, password) {
      await promisify(execFile)("npx", ["tsx", "scripts/create-admin.ts", email], {
        env: { ...env, ADMIN_PASSWORD: password },
      });
      return withDatabase(database, (db) => enrolTotp(db, email));
    },
    async dispose() {
      await kill("SIGKILL");
      try {
        await scanServerLog({ logFile, database, mails: smtp.messages });
      } finally {
        await smtp.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A port nothing listens on now (the kernel's choice), for a server that must know its origin before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
