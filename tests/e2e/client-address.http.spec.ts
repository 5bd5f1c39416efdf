import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { TEST_KEYS } from "../support/test-keys";

/**
 * Without TRUST_PROXY the client's address is the socket's: an X-Forwarded-For
 * header a client makes up must not give it a fresh rate-limit budget.
 * (The main e2e server trusts one hop, which the other specs rely on.)
 */
const BUILD_DIR = process.env.BUILD_DIR || "build";

let dir: string;
let server: ChildProcess;
let baseUrl: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!fs.existsSync(path.join(BUILD_DIR, "index.js"))) {
    execFileSync("npx", ["remix", "build"], { env: { ...process.env, BUILD_DIR }, stdio: "inherit" });
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-client-address-"));
  const logFile = path.join(dir, "server.log");
  const log = fs.openSync(logFile, "a");
  server = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      PORT: "0",
      HOST: "127.0.0.1",
      APP_URL: "http://127.0.0.1",
      DATABASE_PATH: path.join(dir, "portal.sqlite"),
      ...TEST_KEYS,
      TRUST_PROXY: undefined,
      AUTH_RATE_LIMIT_PER_MINUTE: undefined,
      // Nothing here sends mail; a production server refuses to start without a mail server to name.
      SMTP_URL: "smtp://127.0.0.1:9",
      CONTACT_EMAIL: "contact-inbox@example.com",
      METRICS_PORT: "0",
    },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const line = fs
      .readFileSync(logFile, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
      .find((l) => l.event === "server.listening");
    if (line) {
      baseUrl = `http://127.0.0.1:${line.port}`;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("The server did not start");
});

test.afterAll(() => {
  if (server?.exitCode === null) server.kill("SIGKILL");
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("X-Forwarded-For does not count without TRUST_PROXY: the 11th auth POST a minute gets 429", async ({
  request,
}) => {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const response = await request.post(`${baseUrl}/api/auth/login`, {
      headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.9.8.${i + 1}` },
      data: { email: `nobody-${i}@example.com`, password: "wrong password here" },
    });
    statuses.push(response.status());
    if (i === 10) expect(response.headers()["retry-after"]).toMatch(/^\d+$/);
  }
  expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
  expect(statuses[10]).toBe(429);
});
