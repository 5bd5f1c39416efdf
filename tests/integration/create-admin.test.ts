/**
 * `npm run create-admin -- <email>` as an operator runs it: a child process
 * on its own (not yet migrated) database file.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import argon2 from "argon2";
import { withDatabaseFile } from "../support/database-file";
import { enrolTotp, withDatabase } from "../support/outside-database";
import { startSmtpCatcher } from "../support/smtp-catcher";
import { TEST_KEYS } from "../support/test-keys";

const TSX = path.resolve("node_modules/.bin/tsx");
const SCRIPT = path.resolve("scripts/create-admin.ts");

let dir: string;
let databasePath: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "create-admin-"));
  databasePath = path.join(dir, "portal.sqlite");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Run = { code: number | null; output: string };

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "production",
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dir,
    DATABASE_PATH: databasePath,
    SESSION_SECRET: TEST_KEYS.SESSION_SECRET,
    AUDIT_KEY: TEST_KEYS.AUDIT_KEY,
    DATA_KEY: TEST_KEYS.DATA_KEY,
    ...extra,
  };
}

function createAdmin(args: string[], extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [SCRIPT, ...args], { env: environment(extra), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** A run of the script is a new Node process compiling TypeScript: slow on a busy machine. */
const SLOW_RUN_MS = 60_000;

const PROMPTS = /Password for the administrator: |The same password again: /g;

/**
 * Runs the script in a pseudo-terminal (util-linux `script`), as an operator's shell would, and types
 * the next of `answers` each time it asks; once they run out it is left to exit by itself.
 */
function typeInTerminal(email: string, answers: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", `${TSX} ${SCRIPT} ${email}`, "/dev/null"], {
      env: environment(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let typed = 0;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`create-admin did not exit; it wrote: ${output}`));
    }, 45_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      // Typed only once the question shows: the script turns echo off just before it asks.
      const asked = output.match(PROMPTS)?.length ?? 0;
      while (typed < asked && typed < answers.length) child.stdin.write(`${answers[typed++]}\r`);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function users() {
  if (!fs.existsSync(databasePath)) return [];
  return withDatabaseFile(
    databasePath,
    (db) =>
      db.prepare("select email, role, email_verified_at, password_hash from users order by created_at").all() as Array<{
        email: string;
        role: string;
        email_verified_at: number | null;
        password_hash: string;
      }>,
    { readonly: true },
  );
}

describe("npm run create-admin", () => {
  it("leaves nothing of npm's spinner on the operator's terminal", { timeout: SLOW_RUN_MS }, async () => {
    // Through npm, in a pseudo-terminal, as an operator types it: npm draws a spinner there unless told not to.
    const run = await new Promise<Run>((resolve) => {
      const child = spawn("script", ["-qec", "npm run create-admin -- not-an-email", "/dev/null"], {
        env: environment(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk));
      child.on("close", (code) => resolve({ code, output }));
    });
    expect(run.output).toContain("Email address is invalid");
    expect(run.output).not.toContain("\u001b");
    expect(run.code).toBe(1);
  });

  it("migrates a new database and creates a verified administrator with ADMIN_PASSWORD", async () => {
    const password = "first admin passphrase";
    const run = await createAdmin(["Boss@Example.com"], { ADMIN_PASSWORD: password });
    expect(run.output).toContain("Created the administrator boss@example.com.");
    expect(run.output).toContain("At the first login, after the password, the administrator sets up a second factor");
    // No secret: nothing base32-like, no otpauth address.
    expect(run.output).not.toMatch(/otpauth:|[A-Z2-7]{16,}/);
    expect(run.code).toBe(0);
    expect(run.output).not.toContain(password);
    const [admin] = users();
    expect(admin).toMatchObject({ email: "boss@example.com", role: "administrator" });
    expect(admin.email_verified_at).not.toBeNull();
    expect(admin.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(await argon2.verify(admin.password_hash, password)).toBe(true);
  });

  it("promotes the account that has the address, sets the new password and forgets its second factor", async () => {
    await withDatabase({ path: databasePath }, (db) => enrolTotp(db, "boss@example.com"));
    const run = await createAdmin(["boss@example.com"], { ADMIN_PASSWORD: "second admin passphrase" });
    expect(run.code).toBe(0);
    expect(run.output).toContain("boss@example.com is now an administrator");
    const all = users();
    expect(all).toHaveLength(1);
    expect(await argon2.verify(all[0].password_hash, "second admin passphrase")).toBe(true);
    // Set up again at the next login; the trail says the operator's reset removed it.
    const left = withDatabaseFile(databasePath, (db) =>
      db.prepare("select count(*) as n from totp_credentials").get(),
    ) as {
      n: number;
    };
    expect(left.n).toBe(0);
    const promoted = withDatabaseFile(databasePath, (db) =>
      db.prepare("select details from audit_events where action = 'admin.promoted'").get(),
    ) as { details: string };
    expect(JSON.parse(promoted.details)).toEqual({ secondFactor: "removed" });
  });

  it("refuses a missing address, a bad one, a weak password, and no password without a terminal", async () => {
    expect((await createAdmin([], { ADMIN_PASSWORD: "whatever passphrase" })).code).toBe(2);
    const badEmail = await createAdmin(["not-an-address"], { ADMIN_PASSWORD: "whatever passphrase" });
    expect(badEmail).toMatchObject({ code: 1, output: expect.stringContaining("Email address is invalid") });
    const weak = await createAdmin(["weak@example.com"], { ADMIN_PASSWORD: "password1" });
    expect(weak).toMatchObject({
      code: 1,
      output: expect.stringContaining("This password is too common. Choose another."),
    });
    const short = await createAdmin(["weak@example.com"], { ADMIN_PASSWORD: "short" });
    expect(short).toMatchObject({ code: 1, output: expect.stringContaining("Password must be at least 8 characters") });
    const noPassword = await createAdmin(["weak@example.com"]);
    expect(noPassword).toMatchObject({ code: 1, output: expect.stringContaining("Set ADMIN_PASSWORD") });
    expect(users().map((user) => user.email)).toEqual(["boss@example.com"]);
    // Five runs of the script, each a new Node process compiling TypeScript: slow on a busy machine.
  }, 60_000);

  it(
    "asks twice in a terminal without echoing the password",
    async () => {
      const password = "typed in a terminal";
      const run = await typeInTerminal("typed@example.com", [password, password]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("Created the administrator typed@example.com.");
      expect(run.output).not.toContain(password);
      const typed = users().find((user) => user.email === "typed@example.com");
      expect(typed?.role).toBe("administrator");
      expect(await argon2.verify(typed!.password_hash, password)).toBe(true);
    },
    SLOW_RUN_MS,
  );

  it(
    "in a terminal, says why a password is refused and asks again",
    async () => {
      const password = "the second one is fine";
      const run = await typeInTerminal("retried@example.com", ["password1", password, password]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("This password is too common. Choose another.");
      expect(run.output).toContain("Try again (2 of 3).");
      expect(run.output).toContain("Created the administrator retried@example.com.");
      const retried = users().find((user) => user.email === "retried@example.com");
      expect(await argon2.verify(retried!.password_hash, password)).toBe(true);
    },
    SLOW_RUN_MS,
  );

  it(
    "in a terminal, says when the two passwords differ and asks again",
    async () => {
      const password = "typed the same at last";
      const run = await typeInTerminal("mistyped@example.com", [
        "typed one way first",
        "typed another way then",
        password,
        password,
      ]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("Passwords doesn't match");
      expect(run.output).toContain("Try again (2 of 3).");
      expect(run.output).not.toMatch(/typed one way first|typed another way then|typed the same at last/);
      const mistyped = users().find((user) => user.email === "mistyped@example.com");
      expect(await argon2.verify(mistyped!.password_hash, password)).toBe(true);
    },
    SLOW_RUN_MS,
  );

  it(
    "in a terminal, gives up after three refusals and changes nothing",
    async () => {
      const run = await typeInTerminal("refused@example.com", [
        "password1",
        "short",
        "a fine passphrase",
        "not the same passphrase",
        // Nothing should ask for these: the script has given up.
        "one passphrase too many",
        "one passphrase too many",
      ]);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain("Try again (3 of 3).");
      expect(run.output).toContain("No password was accepted in 3 tries; nothing was changed.");
      expect(run.output.match(PROMPTS)).toHaveLength(4);
      expect(users().map((user) => user.email)).not.toContain("refused@example.com");
    },
    SLOW_RUN_MS,
  );

  it(
    "e-mails the account it resets again, and waits until the e-mail is handed over",
    async () => {
      const smtp = await startSmtpCatcher();
      try {
        const run = await createAdmin(["boss@example.com"], {
          ADMIN_PASSWORD: "third admin passphrase",
          SMTP_URL: smtp.url,
          APP_URL: "https://portal.example.com",
        });
        expect(run.code, run.output).toBe(0);
        // The process has ended: the message is already there.
        expect(smtp.messages.map((mail) => [mail.to, mail.subject])).toEqual([
          [["boss@example.com"], "Your password and second factor were reset"],
        ]);
        const [mail] = smtp.messages;
        expect(mail.text).toContain("An operator of the");
        expect(mail.text).toContain("reset your account on the firm's server");
        expect(mail.text).toContain("https://portal.example.com/financing/login");
        expect(mail.text).toMatch(/If you did not expect this, do not sign in, and contact us at once at \S+@\S+/);
        expect(mail.text).not.toContain("third admin passphrase");
      } finally {
        await smtp.close();
      }
    },
    SLOW_RUN_MS,
  );

  it(
    "e-mails no one when it creates an account",
    async () => {
      const smtp = await startSmtpCatcher();
      try {
        const run = await createAdmin(["new.boss@example.com"], {
          ADMIN_PASSWORD: "a new admin passphrase",
          SMTP_URL: smtp.url,
        });
        expect(run.code, run.output).toBe(0);
        expect(smtp.messages).toEqual([]);
      } finally {
        await smtp.close();
      }
    },
    SLOW_RUN_MS,
  );
});
