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

  it("asks twice in a terminal without echoing the password", async () => {
    const password = "typed in a terminal";
    // util-linux `script` gives the child a pseudo-terminal, as an operator's shell would.
    const child = spawn("script", ["-qec", `${TSX} ${SCRIPT} typed@example.com`, "/dev/null"], {
      env: environment(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const waitFor = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${text}" in: ${output}`)), 15_000);
        const check = () => {
          if (!output.includes(text)) return;
          clearTimeout(timer);
          child.stdout.off("data", check);
          resolve();
        };
        child.stdout.on("data", check);
        check();
      });
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

    await waitFor("Password for the administrator: ");
    child.stdin.write(`${password}\r`);
    await waitFor("The same password again: ");
    child.stdin.write(`${password}\r`);
    expect(await exited).toBe(0);
    expect(output).toContain("Created the administrator typed@example.com.");
    expect(output).not.toContain(password);
    const typed = users().find((user) => user.email === "typed@example.com");
    expect(typed?.role).toBe("administrator");
    expect(await argon2.verify(typed!.password_hash, password)).toBe(true);
  });
});
