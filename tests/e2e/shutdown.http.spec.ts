import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { expect, test } from "@playwright/test";
import { SMTP_TIMEOUTS } from "~/server/mail.server";
import { withDatabaseFile } from "../support/database-file";
import { startHangingSmtpServer } from "../support/smtp-faults";
import { startPrivateServer, type PrivateServer } from "./support/private-server";

/**
 * SIGTERM on the built server (its own process, port and database, not the
 * suite's shared one): it stops accepting, finishes the request in flight
 * (a sign-up whose body is still arriving), closes the database and exits 0;
 * an account e-mail stuck on a silent mail server holds it no longer than the
 * mailer's timeout.
 */

const EMAIL = `shutdown.${Date.now().toString(36)}@example.com`;
const BODY = JSON.stringify({ email: EMAIL, password: "shutdown test passphrase" });

let server: PrivateServer;
let port: number;

test.beforeEach(async () => {
  test.setTimeout(240_000);
});

test.afterEach(async () => {
  await server?.dispose();
});

/**
 * Starts a sign-up whose body arrives in two parts; the second is sent by `finish`.
 * `inFlight` resolves on the server's "100 Continue": proof that it has taken the request.
 */
function slowSignUp() {
  const request = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/auth/register",
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(BODY),
      Expect: "100-continue",
    },
  });
  const half = Math.floor(BODY.length / 2);
  const inFlight = new Promise<void>((resolve) =>
    request.once("continue", () => {
      request.write(BODY.slice(0, half));
      resolve();
    }),
  );
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
  request.flushHeaders();
  return { inFlight, answer, finish: () => request.end(BODY.slice(half)) };
}

function connects(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

test("SIGTERM: no new connections, the request in flight completes, the database closes, exit 0", async () => {
  server = await startPrivateServer({ name: "shutdown" });
  port = server.port;
  const health = await fetch(`http://127.0.0.1:${port}/robots.txt`);
  expect(health.status).toBe(200);

  const signUp = slowSignUp();
  await signUp.inFlight;
  const exited = server.kill("SIGTERM");
  await server.waitForLogLine((line) => line.event === "server.stopping", 5_000);

  // New connections are refused while the old one is still being served.
  await expect.poll(connects, { timeout: 5_000 }).toBe(false);
  expect(server.process().exitCode).toBeNull();

  signUp.finish();
  const answer = await signUp.answer;
  expect(answer.status, answer.body).toBe(201);

  expect(await exited).toBe(0);
  const events = server.logLines().map((line) => line.event);
  expect(events).toContain("server.stopped");
  expect(events.indexOf("server.stopping")).toBeLessThan(events.indexOf("server.stopped"));
  expect(
    server.logLines().find((line) => line.event === "http.request" && line.path === "/api/auth/register"),
  ).toMatchObject({ status: 201 });

  // Closed cleanly: the last connection checkpointed and removed its WAL, and the sign-up is stored.
  const wal = `${server.databasePath}-wal`;
  expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
  withDatabaseFile(
    server.databasePath,
    (db) => {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.prepare("select count(*) as n from users where email = ?").get(EMAIL)).toEqual({ n: 1 });
    },
    { readonly: true },
  );
  // Its verification e-mail, sent in the background, went out before the exit.
  expect(server.smtp.messages.filter((mail) => mail.to.includes(EMAIL))).toHaveLength(1);
});

test("SIGTERM while an account e-mail hangs: the wait ends at the mailer's timeout, then a clean exit 0", async () => {
  const hanging = await startHangingSmtpServer();
  try {
    server = await startPrivateServer({ name: "shutdown-mail", env: { SMTP_URL: hanging.url } });
    const email = `hang.${Date.now().toString(36)}@example.com`;
    const signUp = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "shutdown test passphrase" }),
    });
    // Answered at once: the verification e-mail is still waiting for a greeting that never comes.
    expect(signUp.status).toBe(201);
    await expect.poll(() => hanging.connections()).toBe(1);

    const stopping = Date.now();
    expect(await server.kill("SIGTERM")).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(SMTP_TIMEOUTS.greetingTimeout + 3_000);
    const events = server.logLines().map((line) => line.event);
    expect(events.indexOf("mail.failed")).toBeLessThan(events.indexOf("server.stopped"));
    withDatabaseFile(
      server.databasePath,
      (db) => {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        // The account and its link are kept: "resend verification" mails a new one later.
        expect(
          db
            .prepare("select count(*) as n from one_time_tokens t join users u on u.id = t.user_id where u.email = ?")
            .get(email),
        ).toEqual({ n: 1 });
      },
      { readonly: true },
    );
  } finally {
    await hanging.close();
  }
});
