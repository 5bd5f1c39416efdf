/** Builds when needed, then runs the production server on loopback against a throwaway database. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startSmtpCatcher } from "../../tests/support/smtp-catcher";
import { TEST_KEYS } from "../../tests/support/test-keys";
import { SERVER_NODE_FLAGS, serverProcessEnv } from "../serve.js";
import { config, host, origin, root } from "./config";
import { servedBuildDir } from "./slow-build";

/** The newest modification time under a folder (skipping nothing: app/ and migrations/ hold only sources). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds into config.buildDir unless a build newer than every source file is already there. */
export function buildIfNeeded(): "reused" | "built" {
  const serverBuild = path.join(config.buildDir, "index.js");
  const sources = Math.max(
    newestMtime(path.join(root, "app")),
    // The migrations are bundled into the server build too.
    newestMtime(path.join(root, "migrations")),
    fs.statSync(path.join(root, "remix.config.js")).mtimeMs,
    // The build's last step writes the compressed scripts whose bytes the bench measures.
    fs.statSync(path.join(root, "scripts", "precompress.js")).mtimeMs,
  );
  if (fs.existsSync(serverBuild) && fs.statSync(serverBuild).mtimeMs >= sources) return "reused";
  const result = spawnSync("npm", ["run", "--silent", "build"], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: path.relative(root, config.buildDir), NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status}).`);
  return "built";
}

let served: string | undefined;
/** The build folder the servers load, made once per run (scripts/bench/slow-build.ts). */
const servedBuild = () => (served ??= servedBuildDir());

const START_TIMEOUT_MS = 120_000;

export type RunningServer = { child: ChildProcess; pid: number; stop: () => Promise<void> };

/** The environment of `npm start`'s server (scripts/serve.js), with the bench's own settings and the caller's overrides. */
export function serverEnv(
  databasePath: string,
  overrides: Record<string, string | undefined> = {},
  port = config.port,
): NodeJS.ProcessEnv {
  return {
    ...serverProcessEnv(),
    NODE_ENV: "production",
    BUILD_DIR: servedBuild(),
    HOST: host,
    PORT: String(port),
    APP_URL: origin(port),
    DATABASE_PATH: databasePath,
    ...TEST_KEYS,
    // Every request of the run comes from 127.0.0.1: the per-address auth limit must not be what is measured.
    AUTH_RATE_LIMIT_PER_MINUTE: "100000000",
    // Its rows' copies are many investors' taken by one or two accounts; the burst row's reader is held by the
    // limit on copies in flight, which no setting raises.
    STAMPED_COPIES_PER_MINUTE: "100000000",
    CONTACT_EMAIL: "contact-inbox@example.com",
    // The metrics on a listener of their own, on loopback, on any free port: as a production server serves them.
    METRICS_PORT: "0",
    // Each answer says the server's own time, which the rows judge (scripts/bench/verdicts.ts).
    SERVER_TIMING: "on",
    ...overrides,
  };
}

export type ServerOptions = {
  /** Start with --cpu-prof, writing profiles here. */
  profileDir?: string | null;
  /** The server's log (one JSON line an event), stdout and stderr alike; without it only stderr is kept, for errors. */
  logFile?: string;
  /** Settings that differ from serverEnv's. */
  env?: Record<string, string | undefined>;
  /** Another port than config.port (a second server beside the first). */
  port?: number;
  /** Another checkout whose server.js to start (an older build's own); this one by default. */
  cwd?: string;
};

/** Starts server.js as `npm start` does (scripts/serve.js's flags and environment) and resolves once it answers; stop() sends SIGTERM and waits for the exit. */
export async function startServer(databasePath: string, options: ServerOptions = {}): Promise<RunningServer> {
  const { profileDir, logFile, port = config.port, cwd = root } = options;
  const profile = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const args = [...SERVER_NODE_FLAGS, ...profile, "server.js"];
  const log = logFile ? fs.openSync(logFile, "a") : null;
  // A production server needs a mail server; the run's mail (lockout notices) is caught here and dropped.
  const smtp = await startSmtpCatcher();
  const child = spawn(process.execPath, args, {
    cwd,
    env: serverEnv(databasePath, { SMTP_URL: smtp.url, ...options.env }, port),
    stdio: log === null ? ["ignore", "ignore", "pipe"] : ["ignore", log, log],
  });
  if (log !== null) fs.closeSync(log);
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const output = () => (logFile ? fs.readFileSync(logFile, "utf8").slice(-4000) : stderr);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve())).then(() => smtp.close());

  // A second server started late in a run opens a database of a million audit rows and 200,000 openings; beside
  // a CPU-bound neighbour it once took longer than 30 s to answer, and the whole run was lost.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${origin(port)}/robots.txt`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not answer on ${origin(port)} within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    child,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Peak resident memory of a live process, in bytes (VmHWM of /proc/<pid>/status). */
export function peakRss(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
