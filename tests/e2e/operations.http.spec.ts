import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { runScript } from "../support/run-script";
import { TEST_KEYS } from "../support/test-keys";
import { BUILD_DIR, ensureBuilt, startPrivateServer, type LogLine, type PrivateServer } from "./support/private-server";

/**
 * What an operator relies on: the probes a load balancer asks, a production
 * server that refuses to start half-configured, request ids on every line a
 * request writes, and a fatal error that leaves one line in the log.
 */

let server: PrivateServer | undefined;

test.beforeEach(() => test.setTimeout(120_000));
test.afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** An environment with nothing inherited but PATH (Remix's typings claim NODE_ENV is always set; here it may not be). */
const bareEnv = (env: Record<string, string>) =>
  ({ PATH: process.env.PATH ?? "", BUILD_DIR, ...env }) as unknown as NodeJS.ProcessEnv;

/** Runs server.js with `env` (nothing inherited but PATH) until it exits; its exit code and its log lines. */
async function runServerUntilExit(env: Record<string, string>, timeoutMs = 30_000) {
  ensureBuilt();
  const child = spawn(process.execPath, ["server.js"], {
    env: bareEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server.js did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const lines = output.split("\n").filter(Boolean);
  return { code, lines, events: lines.map((line) => JSON.parse(line) as LogLine) };
}

function productionEnv(dir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_PATH: path.join(dir, "portal.sqlite"),
    SMTP_URL: "smtp://127.0.0.1:9",
    APP_URL: "https://portal.example.com",
    ...TEST_KEYS,
    CONTACT_EMAIL: "info@firm.test",
    METRICS_PORT: "0",
  };
}

test.describe("production settings", () => {
  let dir: string;
  test.beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-config-"));
  });
  test.afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("NODE_ENV=production without SMTP_URL refuses to start, saying why in one line", async () => {
    const { SMTP_URL: _unset, ...env } = productionEnv(dir);
    const { code, events } = await runServerUntilExit(env);
    expect(code).toBe(1);
    expect(events).toEqual([
      expect.objectContaining({
        level: "error",
        event: "config.refused",
        problem: "SMTP_URL is not set: e-mail would only be written to a folder on this machine.",
      }),
    ]);
    // It stopped before touching anything: no database, no generated secret.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("each missing or weak setting is a line of its own", async () => {
    const { code, events } = await runServerUntilExit({
      ...productionEnv(dir),
      SMTP_URL: "",
      APP_URL: "http://portal.example.com",
      SESSION_SECRET: "short",
      AUDIT_KEY: "",
      DATA_KEY: "k".repeat(40),
      CONTACT_EMAIL: "",
    });
    expect(code).toBe(1);
    const problems = events.filter((line) => line.event === "config.refused").map((line) => String(line.problem));
    expect(problems).toEqual([
      "SMTP_URL is not set: e-mail would only be written to a folder on this machine.",
      "APP_URL must be https:// for a host other than loopback (it is http://portal.example.com).",
      "SESSION_SECRET is too short: use at least 32 random characters.",
      "AUDIT_KEY is not set: it keys the audit trail's chain; set at least 32 random characters.",
      "DATA_KEY is one character repeated.",
      "CONTACT_EMAIL is not set: pages and e-mails would show a placeholder mailbox.",
    ]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("a public APP_URL brings the production rules without NODE_ENV: no live link is ever logged, no key made", async () => {
    const { NODE_ENV: _unset, SMTP_URL: _none, AUDIT_KEY: _noKey, ...env } = productionEnv(dir);
    const { code, events } = await runServerUntilExit(env);
    expect(code).toBe(1);
    expect(events.map((line) => line.event)).toEqual(["config.refused", "config.refused"]);
    expect(events.map((line) => String(line.problem).split(" ")[0])).toEqual(["SMTP_URL", "AUDIT_KEY"]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("a public server refuses an auth rate limit raised past the ceiling", async () => {
    const { code, events } = await runServerUntilExit({ ...productionEnv(dir), AUTH_RATE_LIMIT_PER_MINUTE: "10000" });
    expect(code).toBe(1);
    expect(events).toEqual([
      expect.objectContaining({
        event: "config.refused",
        problem: "AUTH_RATE_LIMIT_PER_MINUTE is 10000: a public server allows at most 100 (unset: 10).",
      }),
    ]);
  });

  test("with everything set it starts, and only warns about the firm's other placeholders and a past operating start", async () => {
    server = await startPrivateServer({
      name: "configured",
      // A quarter that has passed, whenever this runs.
      env: { FIRM_NAME: "Acme Securities LLC", OPERATING_START: "the first quarter of 2026" },
    });
    const warnings = server.logLines().filter((line) => line.event === "config.placeholder");
    expect(warnings.map((line) => String(line.warning).split(" ")[0])).toEqual([
      "FIRM_SHORT_NAME",
      "ATS_NAME",
      "PARENT_COMPANY",
      "SOCIAL_LABEL",
      "SOCIAL_URL",
      "OPERATING_START",
    ]);
    expect(warnings.at(-1)).toMatchObject({
      level: "warn",
      warning:
        "OPERATING_START (the first quarter of 2026) has passed: pages still say the firm expects to begin operating then.",
    });
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  test("without NODE_ENV=production it runs with nothing configured, and keeps every file it makes to its own user", async () => {
    // The data folder does not exist yet: the server makes it, as on a fresh clone.
    const data = path.join(dir, "data");
    const local = { DATABASE_PATH: path.join(data, "p.sqlite"), NODE_ENV: "development" };
    const child = spawn(process.execPath, ["server.js"], {
      env: bareEnv({ HOST: "127.0.0.1", PORT: "0", ...local }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    try {
      await expect.poll(() => output.includes('"event":"server.listening"'), { timeout: 30_000 }).toBe(true);
      const port = (
        JSON.parse(output.split("\n").find((line) => line.includes("server.listening"))!) as { port: number }
      ).port;
      const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "files@example.com", password: "a long test passphrase" }),
      });
      expect(signUp.status).toBe(201);
      await expect
        .poll(() => fs.existsSync(path.join(data, "outbox")) && fs.readdirSync(path.join(data, "outbox")).length)
        .toBe(1);

      const backup = await runScript("db-backup.js", [path.join(data, "backups", "copy.sqlite")], {
        ...local,
        AUDIT_KEY: "",
        DATA_KEY: "",
        SESSION_SECRET: "",
      });
      expect(backup.code, backup.output).toBe(0);
      const exported = await runScript("audit-export.ts", [path.join(data, "trail.jsonl")], {
        ...local,
        AUDIT_KEY: "",
        DATA_KEY: "",
        SESSION_SECRET: "",
      });
      expect(exported.code, exported.output).toBe(0);

      const modeOf = (file: string) => fs.statSync(path.join(data, file)).mode & 0o777;
      expect(modeOf(".")).toBe(0o700);
      expect(modeOf("outbox")).toBe(0o700);
      expect(modeOf("backups")).toBe(0o700);
      const files = [
        "p.sqlite",
        "p.sqlite-wal",
        "p.sqlite-shm",
        "session-secret",
        "audit-key",
        "data-key",
        "backups/copy.sqlite",
        "trail.jsonl",
      ];
      for (const file of [...files, ...fs.readdirSync(path.join(data, "outbox")).map((name) => `outbox/${name}`)]) {
        expect(modeOf(file), file).toBe(0o600);
      }
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});

test("a fatal error is logged as one JSON line before the process exits non-zero", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-fatal-"));
  // The port is taken: listening fails with an error nothing handles.
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  try {
    const port = String((taken.address() as net.AddressInfo).port);
    const { code, lines, events } = await runServerUntilExit({ ...productionEnv(dir), PORT: port });
    expect(code).toBe(1);
    // Every line is JSON (no bare stack), and the fatal one carries the error and its stack.
    expect(events).toHaveLength(lines.length);
    const fatal = events.find((line) => line.event === "process.fatal");
    expect(fatal).toMatchObject({ level: "error", cause: "uncaughtException", error: { message: /EADDRINUSE/ } });
    expect((fatal?.error as { stack: string }).stack).toContain("EADDRINUSE");
  } finally {
    taken.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.describe("health endpoints", () => {
  test("/healthz answers while the process is up, without a log line or a limit", async () => {
    server = await startPrivateServer({ name: "healthz" });
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    await fetch(`${server.url}/robots.txt`);
    await server.waitForLogLine((line) => line.event === "http.request" && line.path === "/robots.txt");
    expect(server.logLines().filter((line) => JSON.stringify(line).includes("healthz"))).toEqual([]);
  });

  test("/readyz answers 200 when the database and mail are ready, 503 when the database is unreachable, the reason only in the log", async () => {
    server = await startPrivateServer({ name: "readyz" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });

    const moved = `${server.databasePath}.away`;
    fs.renameSync(server.databasePath, moved);
    try {
      const unreachable = await fetch(`${server.url}/readyz`);
      expect(unreachable.status).toBe(503);
      expect(unreachable.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await unreachable.json()).toEqual({ status: "unavailable" });
      // Asked again, the same reason is not logged again.
      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
      const unready = server.logLines().filter((line) => line.event === "server.unready");
      expect(unready).toEqual([
        expect.objectContaining({ level: "warn", reason: "The database file cannot be reached." }),
      ]);
      // Liveness does not depend on the database.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      fs.renameSync(moved, server.databasePath);
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await server.waitForLogLine((line) => line.event === "server.ready");
    expect(server.logLines().filter((line) => JSON.stringify(line).includes("readyz"))).toEqual([]);
  });
});

test.describe("request ids", () => {
  test("a log line written while a request's mail failed carries that request's id", async () => {
    // Nothing listens on port 9: every e-mail fails at once.
    server = await startPrivateServer({ name: "request-id", env: { SMTP_URL: "smtp://127.0.0.1:9" } });
    const response = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "request.id@example.com", password: "a long test passphrase" }),
    });
    expect(response.status).toBe(201);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const failed = await server.waitForLogLine((line) => line.event === "mail.failed");
    expect(failed.requestId).toBe(requestId);
    const accountLine = await server.waitForLogLine((line) => line.event === "account.mail_failed");
    expect(accountLine.requestId).toBe(requestId);
  });

  test("a request whose client left before the answer is still logged, marked aborted; a finished one is not", async () => {
    server = await startPrivateServer({ name: "aborted-request" });
    // The body is announced but never sent in full: the answer cannot be finished before the client leaves.
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(
          "POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
            "Content-Length: 1000\r\n\r\nname=Left",
        );
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    const dropped = await server.waitForLogLine((line) => line.event === "http.request" && line.path === "/contact");
    expect(dropped).toEqual(expect.objectContaining({ method: "POST", aborted: true }));

    await fetch(`${server.url}/robots.txt`);
    const finished = await server.waitForLogLine(
      (line) => line.event === "http.request" && line.path === "/robots.txt",
    );
    expect(finished).not.toHaveProperty("aborted");
  });

  test("a trusted proxy's X-Request-Id is kept; a malformed one is replaced", async () => {
    server = await startPrivateServer({ name: "proxy-request-id", env: { TRUST_PROXY: "1" } });
    const kept = await fetch(`${server.url}/robots.txt`, { headers: { "X-Request-Id": "lb-7f3a.42" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.42");
    const line = await server.waitForLogLine((entry) => entry.event === "http.request" && entry.path === "/robots.txt");
    expect(line.requestId).toBe("lb-7f3a.42");

    const forged = await fetch(`${server.url}/robots.txt`, { headers: { "X-Request-Id": 'x", "level": "info' } });
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
