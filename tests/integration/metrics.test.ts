/**
 * The metrics the app counts (app/server/metrics.server.ts), read as a scrape reads them and parsed
 * as Prometheus parses them, on each engine: the account events where the audit trail records them,
 * mail, the mail retry backlog, throttle refusals by rule, every statement's time and errors by
 * engine, PostgreSQL's pool, the password hashes at work and in line, and the audit chain's view, kept by checking new rows only.
 */
import { sql } from "kysely";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { hashPassword, passwordWork } from "~/models/account/password.server";
import { logIn, recordSignIn } from "~/models/account/sign-in.server";
import { registerAccount } from "~/models/account/sign-up.server";
import { checkNewAuditRows, forgetVerifiedAuditRows } from "~/models/audit/audit-chain-watch.server";
import { verifyAuditChain } from "~/models/audit/audit-chain.server";
import { recordAuditEvent } from "~/models/audit/audit.server";
import { countUnmailedContactMessages, mailContactMessage, saveContactMessage } from "~/models/contact/contact.server";
import { loginStanding, recordLoginFailure, throttleAccountMail, throttleAuthRequest } from "~/models/throttle.server";
import { coresButOne } from "~/server/cores.server";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { resetMailTransportForTests, trySendMail } from "~/server/mail.server";
import { readAtScrape, renderMetrics } from "~/server/metrics.server";
import { addressSequence } from "../support/api-routes";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { readScrape, type Scrape } from "../support/metrics-scrape";

const freshIp = addressSequence("10.77");
const PASSWORD = "correct horse battery";

const { database } = useIntegration({ mail: true });
beforeAll(async () => {
  readAtScrape({ unmailedContactMessages: countUnmailedContactMessages, ready: async () => true, passwordWork });
});

async function scrape(): Promise<Scrape> {
  return readScrape((await renderMetrics()).text);
}

/** How much each named series moved while `work` ran. */
async function moved(series: Record<string, [string, Record<string, string>?]>, work: () => Promise<unknown>) {
  const before = await scrape();
  await work();
  const after = await scrape();
  return Object.fromEntries(
    Object.entries(series).map(([key, [name, labels]]) => [
      key,
      (after.total(name, labels) ?? 0) - (before.total(name, labels) ?? 0),
    ]),
  );
}

async function auditRowCount() {
  const row = await getDb()
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

it("counts a sign-up, each failed sign-in step and a sign-in where the audit trail records them, and every row it writes", async () => {
  const user = await createUser({ email: "counted@example.com", password: PASSWORD });
  const rowsBefore = await auditRowCount();
  const counts = await moved(
    {
      signUps: ["portal_signups_total"],
      wrongPassword: ["portal_login_failures_total", { reason: "wrong_password" }],
      unknownEmail: ["portal_login_failures_total", { reason: "unknown_email" }],
      locked: ["portal_login_failures_total", { reason: "locked" }],
      codeFailed: ["portal_login_failures_total", { reason: "second_factor_failed" }],
      codeLocked: ["portal_login_failures_total", { reason: "second_factor_locked" }],
      withTotp: ["portal_logins_total", { method: "password+totp" }],
      allLogins: ["portal_logins_total"],
      auditRows: ["portal_audit_rows_written_total"],
    },
    async () => {
      expect(await registerAccount({ email: "new.counted@example.com", password: PASSWORD, ip: freshIp() })).toEqual({
        ok: true,
      });
      expect(await logIn({ email: user.email, password: "not the password", ip: freshIp() })).toMatchObject({
        code: "invalid",
      });
      expect(await logIn({ email: "nobody@example.com", password: PASSWORD, ip: freshIp() })).toMatchObject({
        code: "invalid",
      });
      const account = { id: user.id, email: user.email };
      await recordSignIn({ user: account, method: "password+totp", via: "web", ip: freshIp() });
      // The second step's and the lock's events, as second-factor.server.ts and failLogin record them.
      await recordAuditEvent({ action: "mfa.failed", targetId: user.id, details: { kind: "totp" } });
      await recordAuditEvent({ action: "mfa.locked", targetId: user.id });
      await recordAuditEvent({ action: "account.locked", targetEmail: user.email });
    },
  );
  expect(counts).toEqual({
    signUps: 1,
    wrongPassword: 1,
    unknownEmail: 1,
    locked: 1,
    codeFailed: 1,
    codeLocked: 1,
    withTotp: 1,
    allLogins: 1,
    auditRows: (await auditRowCount()) - rowsBefore,
  });
  expect(counts.auditRows).toBe(7);
  // Every method and reason is there from the start, at zero, so a rate over it is never missing.
  const now = await scrape();
  expect(now.labelValues("portal_logins_total", "method")).toEqual([
    "passkey",
    "password",
    "password+passkey",
    "password+recovery_code",
    "password+totp",
  ]);
  expect(now.labelValues("portal_login_failures_total", "reason")).toHaveLength(5);
});

it("counts the e-mails sent and those that failed", async () => {
  // The sign-up above sends its verification e-mail in the background: let it land before counting.
  await settleAccountMail();
  const sent = await moved({ sent: ["portal_mails_total", { outcome: "sent" }] }, async () => {
    expect(await trySendMail({ to: "someone@example.com", subject: "Counted", text: "Hello." })).toBe(true);
  });
  expect(sent).toEqual({ sent: 1 });

  const smtpUrl = process.env.SMTP_URL;
  // Nothing listens on port 9: the message fails at once.
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  resetEnvForTests();
  resetMailTransportForTests();
  try {
    const failed = await moved(
      { failed: ["portal_mails_total", { outcome: "failed" }], sent: ["portal_mails_total", { outcome: "sent" }] },
      async () => expect(await trySendMail({ to: "someone@example.com", subject: "Lost", text: "Hello." })).toBe(false),
    );
    expect(failed).toEqual({ failed: 1, sent: 0 });
  } finally {
    process.env.SMTP_URL = smtpUrl;
    resetEnvForTests();
    resetMailTransportForTests();
  }
});

it("reads the mail retry backlog (contact messages not yet mailed) at each scrape", async () => {
  const backlog = async () => (await scrape()).total("portal_contact_messages_unmailed");
  const before = await backlog();
  const message = await saveContactMessage({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    message: "Waiting for its e-mail.",
    ip: null,
  });
  expect(await backlog()).toBe(before! + 1);
  expect(await mailContactMessage(message)).toBe(true);
  expect(await backlog()).toBe(before);
});

it("shows the password hashes running, and those waiting for their turn at a core, at each scrape", async () => {
  const work = async () => {
    const scraped = await scrape();
    return {
      running: scraped.total("portal_password_hashes_running"),
      waiting: scraped.total("portal_password_hashes_waiting"),
    };
  };
  const hashes = Array.from({ length: coresButOne() + 2 }, () => hashPassword(PASSWORD));
  expect(await work()).toEqual({ running: coresButOne(), waiting: 2 });
  await Promise.all(hashes);
  expect(await work()).toEqual({ running: 0, waiting: 0 });
});

it("counts the refusals of each throttle and lock under its rule's name", async () => {
  const ip = freshIp();
  const email = "locked.out@example.com";
  const counts = await moved(
    {
      authIp: ["portal_rate_limit_refusals_total", { rule: "auth-ip" }],
      resetMail: ["portal_rate_limit_refusals_total", { rule: "reset-mail" }],
      loginLock: ["portal_rate_limit_refusals_total", { rule: "login-lock" }],
      all: ["portal_rate_limit_refusals_total"],
    },
    async () => {
      for (let i = 0; i < 11; i++) await throttleAuthRequest(ip);
      for (let i = 0; i < 4; i++) await throttleAccountMail("reset", email);
      for (let i = 0; i < 20; i++) await recordLoginFailure(email);
      expect(await loginStanding(email)).toMatchObject({ locked: true });
    },
  );
  expect(counts).toEqual({ authIp: 1, resetMail: 1, loginLock: 1, all: 3 });
});

it("times every statement by engine and operation, counts its errors, and reads PostgreSQL's pool at each scrape", async () => {
  const engine = database.engine;
  const counts = await moved(
    {
      selects: ["portal_db_query_duration_seconds_count", { engine, operation: "select" }],
      inserts: ["portal_db_query_duration_seconds_count", { engine, operation: "insert" }],
      errors: ["portal_db_query_errors_total", { engine }],
    },
    async () => {
      await getDb().selectFrom("users").select("id").execute();
      await createUser({ email: "timed@example.com" });
      await expect(sql`select * from no_such_table`.execute(getDb())).rejects.toThrow();
    },
  );
  // The scrape in between reads the backlog: one more select.
  expect(counts.selects).toBeGreaterThanOrEqual(1);
  expect(counts).toMatchObject({ inserts: 1, errors: 1 });
  const now = await scrape();
  expect(now.family("portal_db_query_duration_seconds")?.type).toBe("HISTOGRAM");
  expect(now.labelValues("portal_db_query_duration_seconds_count", "engine")).toEqual([engine]);
  if (engine === "postgres") {
    // The scrape's own reads (the backlog, readiness) run beside the pool's, so some may be waiting.
    expect(now.total("portal_db_pool_connections")).toBeGreaterThanOrEqual(1);
    expect(now.total("portal_db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
    expect(now.total("portal_db_pool_waiting_requests")).toBeGreaterThanOrEqual(0);
  } else {
    // SQLite has no pool: no pool series at all, rather than zeros that would look like one.
    expect(now.family("portal_db_pool_connections")).toBeUndefined();
  }
});

describe("the audit chain's gauges", () => {
  const DROP_GUARD = {
    sqlite: ["drop trigger if exists audit_events_no_update", "drop trigger if exists audit_events_no_delete"],
    postgres: ["drop trigger if exists audit_events_no_change on audit_events"],
  };
  const chain = async () => {
    const now = await scrape();
    return {
      intact: now.total("portal_audit_chain_intact"),
      verifiedRow: now.total("portal_audit_chain_verified_row"),
    };
  };
  const event = (i: number) => recordAuditEvent({ action: "test.event", details: { i } });
  const headId = async () =>
    Number((await getDb().selectFrom("audit_events").select("id").orderBy("id", "desc").executeTakeFirst())?.id ?? 0);

  beforeEach(() => forgetVerifiedAuditRows());

  it("walk the trail whole once, then only the rows appended since the last one verified", async () => {
    for (let i = 0; i < 3; i++) await event(i);
    expect(await checkNewAuditRows()).toMatchObject({ ok: true });
    const head = await headId();
    expect(await chain()).toEqual({ intact: 1, verifiedRow: head });

    await event(3);
    await event(4);
    // Only the two new rows are walked.
    expect(await checkNewAuditRows()).toEqual({ ok: true, rows: 2, last: { id: head + 2, at: expect.any(Number) } });
    expect(await chain()).toEqual({ intact: 1, verifiedRow: head + 2 });
    expect(await checkNewAuditRows()).toEqual({ ok: true, rows: 0, last: { id: head + 2, at: expect.any(Number) } });
  });

  it("report a break in new rows at the next check, one in old rows at the next whole walk, until a whole walk finds the chain intact", async () => {
    await event(0);
    await checkNewAuditRows();
    const verified = await headId();
    for (const statement of DROP_GUARD[database.engine]) await sql.raw(statement).execute(getDb());
    try {
      // A row slipped in around the chain, after the last one verified.
      await sql`insert into audit_events (id, action, at) values (${verified + 1}, 'forged', 0)`.execute(getDb());
      expect(await checkNewAuditRows()).toMatchObject({ ok: false, problem: "unchained", rowId: verified + 1 });
      expect(await chain()).toEqual({ intact: 0, verifiedRow: verified });
      // The next minute's check starts where the last one stopped, and finds the break again.
      expect(await checkNewAuditRows()).toMatchObject({ ok: false, rowId: verified + 1 });
      expect(await chain()).toEqual({ intact: 0, verifiedRow: verified });
      // Gone again, the break stays reported until a whole walk finds the chain intact.
      await sql`delete from audit_events where id = ${verified + 1}`.execute(getDb());
      expect(await checkNewAuditRows()).toMatchObject({ ok: true });
      expect(await chain()).toEqual({ intact: 0, verifiedRow: verified });
      expect(await verifyAuditChain()).toMatchObject({ ok: true });
      expect(await chain()).toEqual({ intact: 1, verifiedRow: verified });

      // An old row edited: the check of new rows cannot see it; a whole walk (the audit page's) does, and it sticks.
      await sql`update audit_events set details = '{"i":"edited"}' where id = ${verified}`.execute(getDb());
      expect(await checkNewAuditRows()).toMatchObject({ ok: true });
      expect(await chain()).toMatchObject({ intact: 1 });
      expect(await verifyAuditChain()).toMatchObject({ ok: false, problem: "changed", rowId: verified });
      expect(await chain()).toEqual({ intact: 0, verifiedRow: verified - 1 });
      expect(await checkNewAuditRows()).toMatchObject({ ok: false, problem: "changed" });
      expect(await chain()).toMatchObject({ intact: 0 });
    } finally {
      // The trail cannot be mended: the rest of the file gets a fresh database.
      await database.renew();
    }
  });
});
