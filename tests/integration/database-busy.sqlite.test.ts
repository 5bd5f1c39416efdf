/**
 * Another process holds the SQLite write lock for longer than the busy
 * timeout, or the database cannot grow: a request that must write gets a clear
 * 503 (JSON `{ message }` on the API, the error page elsewhere), nothing is
 * half-stored or mailed, and once the lock is released or room is made the
 * same request simply succeeds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { ServerBuild } from "@remix-run/node";
import { sql } from "kysely";
import { CONTACT_MESSAGE_MAX_LENGTH } from "~/content/constants";
import { databaseUnavailable } from "~/content/unavailable";
import { answeringUnavailable, withDatabaseUnavailableAnswers } from "~/http/database-unavailable.server";
import { honeypotFields } from "~/http/honeypot.server";
import * as contactPage from "~/routes/_site.contact";
import * as registerRoute from "~/routes/api.auth.register";
import * as loginPage from "~/routes/financing.login";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { useIntegration } from "../support/integration";

const { smtp } = useIntegration({ mail: true });
beforeAll(async () => {
  // The app waits BUSY_TIMEOUT_MS (5 s) for a lock; what follows the wait is under test, not its length.
  await sql`pragma busy_timeout = 200`.execute(getDb());
});

/** The routes as server.js serves them: through withDatabaseUnavailableAnswers. */
function served(modules: Record<string, unknown>) {
  const build = {
    routes: Object.fromEntries(Object.entries(modules).map(([id, module]) => [id, { id, path: id, module }])),
  } as unknown as ServerBuild;
  const routes = withDatabaseUnavailableAnswers(build).routes;
  return (id: string) => routes[id].module as unknown as RouteModule;
}

/** A second process that takes the write lock and keeps it until `release`. */
async function holdWriteLock(databasePath: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      `const db = new (require("better-sqlite3"))(process.env.LOCKED_DATABASE);
       db.exec("begin immediate");
       db.prepare("insert into audit_events (action, at) values ('test.lock_holder', 0)").run();
       process.stdout.write("locked\\n");
       process.stdin.on("end", () => { db.exec("commit"); db.close(); process.exit(0); });
       process.stdin.resume();`,
    ],
    { env: { ...process.env, LOCKED_DATABASE: databasePath }, stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
    child.once("exit", (code) => reject(new Error(`The lock holder exited with ${code}`)));
  });
  return {
    release: () =>
      new Promise<number | null>((resolve) => {
        child.once("exit", resolve);
        child.stdin!.end();
      }),
  };
}

const registered = async (email: string) =>
  (await getDb().selectFrom("users").select("email").where("email", "=", email).execute()).length;

test("a write lock held past the busy timeout answers 503, then the site recovers by itself", async () => {
  const route = served({ "routes/api.auth.register": registerRoute, "routes/financing.login": loginPage });
  const email = "busy.case@example.com";
  const signUp = { path: "/api/auth/register", json: { email, password: "Busy-Database-Passphrase-1" } };

  const lock = await holdWriteLock(process.env.DATABASE_PATH!);
  try {
    const refused = await callRoute(route("routes/api.auth.register"), signUp);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe(String(databaseUnavailable.retryAfterSeconds));
    expect(await refused.json()).toEqual({ message: databaseUnavailable.message });

    const page = await callRoute(route("routes/financing.login"), {
      path: "/financing/login",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: "Busy-Database-Passphrase-1" }).toString(),
    });
    expect(page.status).toBe(503);
    expect(await page.text()).toBe(databaseUnavailable.message);

    expect(await registered(email)).toBe(0);
  } finally {
    expect(await lock.release()).toBe(0);
  }
  expect(smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(0);

  const accepted = await callRoute(route("routes/api.auth.register"), signUp);
  expect(accepted.status).toBe(201);
  expect(await registered(email)).toBe(1);
  const holderRow = await getDb()
    .selectFrom("audit_events")
    .select("id")
    .where("action", "=", "test.lock_holder")
    .execute();
  expect(holderRow).toHaveLength(1);
});

/**
 * A full disk, made real: the database may not grow past the pages it has
 * (max_page_count), and a filler table has taken every free page. A contact
 * message of the longest length allowed needs a page of its own (a row over
 * one page spills onto overflow pages), so storing it must fail with SQLITE_FULL.
 */
async function fillDatabase() {
  const db = getDb();
  await sql`create table disk_filler (chunk blob)`.execute(db);
  const { page_count } = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0];
  await sql.raw(`pragma max_page_count = ${page_count}`).execute(db);
  for (;;) {
    try {
      await sql`insert into disk_filler (chunk) values (zeroblob(1000))`.execute(db);
    } catch (error) {
      expect((error as { code?: string }).code).toBe("SQLITE_FULL");
      break;
    }
  }
  return {
    makeRoom: async () => {
      await sql.raw("pragma max_page_count = 1073741823").execute(db);
      await sql`drop table disk_filler`.execute(db);
    },
  };
}

test("a full database answers 503 and stores and mails nothing, then the same message goes through once there is room", async () => {
  const route = served({ "routes/_site.contact": contactPage });
  const honeypot = honeypotFields(Date.now() - 5_000);
  const message = "A long question about the ATS. ".repeat(200).slice(0, CONTACT_MESSAGE_MAX_LENGTH);
  const contact = {
    path: "/contact",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      firstName: "Disk",
      lastName: "Full",
      email: "disk.full@example.com",
      message,
      [honeypot.trapField]: "",
      [honeypot.stampField]: honeypot.stamp,
    }).toString(),
  };
  const stored = async () =>
    (await getDb().selectFrom("contact_messages").select("id").where("email", "=", "disk.full@example.com").execute())
      .length;
  const mailed = () => smtp.messages.filter((mail) => mail.text?.includes("A long question about the ATS.")).length;

  const disk = await fillDatabase();
  try {
    const refused = await callRoute(route("routes/_site.contact"), contact);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe(String(databaseUnavailable.retryAfterSeconds));
    expect(await refused.text()).toBe(databaseUnavailable.message);
    expect(await stored()).toBe(0);
  } finally {
    await disk.makeRoom();
  }
  expect(mailed()).toBe(0);

  const accepted = await callRoute(route("routes/_site.contact"), contact);
  expect(accepted.status).toBe(302);
  expect(await stored()).toBe(1);
  await expect.poll(mailed).toBe(1);
});

test("other errors are not dressed up as 503", async () => {
  const failure = new Error("a bug");
  const handler = answeringUnavailable(async () => {
    throw failure;
  });
  await expect(handler({ request: new Request("http://localhost:3000/api/x") })).rejects.toBe(failure);
});
