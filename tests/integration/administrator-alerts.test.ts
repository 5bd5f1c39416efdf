/**
 * Alerts to the administrators (issue 53, item 5; decision 0036): an e-mail on an investor's first opening of
 * a document and none on the second; a daily digest written and sent once by two instances racing (two handles
 * on the same database), a missed hour sent once when an instance comes back; alerts turned off send nothing;
 * every alert's signed link (and its RFC 8058 one-click POST) changes the choice without signing in, and an
 * altered link is refused with nothing changed. Real database, real SMTP catcher.
 */
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { personLine } from "~/content/alerts";
import { toPublicUser, type PublicUser } from "~/models/account/user.server";
import { sendUnsentAlertMails } from "~/models/alerts/alert-mails.server";
import { alertPreferenceOf, alertPreferenceToken, setAlertPreference } from "~/models/alerts/alert-preferences.server";
import { sendDueAlerts } from "~/models/alerts/alert-schedule.server";
import { digestFacts, sendDueDigests } from "~/models/alerts/daily-digest.server";
import { listLibrary, type LibraryDocument } from "~/models/library/library-documents.server";
import { recordOpening } from "~/models/library/library-openings.server";
import * as linkRoute from "~/routes/alerts.$token";
import * as pageRoute from "~/routes/financing.alerts";
import { type Database, getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders, type NewUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import type { CaughtMail } from "../support/smtp-catcher";

const routes = routeModules({ link: linkRoute, page: pageRoute });

const fixture = useIntegration({ mail: true });
const { smtp, clock: testClock } = fixture;
let deck: LibraryDocument;
beforeAll(async () => {
  deck = (await listLibrary()).find((document) => document.title === "Slide deck")!;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** An administrator, with these alert preferences when given. */
async function administrator(preference?: Parameters<typeof setAlertPreference>[1]) {
  const admin = toPublicUser(await fixture.administrator());
  if (preference) await setAlertPreference(admin, preference, { ip: null, via: "page" });
  return admin;
}

const investor = async (fields: NewUser = {}) => toPublicUser(await fixture.investor("nda-signed", fields));

const mailsTo = (user: PublicUser, subject: RegExp | string) =>
  smtp.messages.filter(
    (mail) =>
      mail.to.includes(user.email) &&
      (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject)),
  );

const openingSubject = (reader: PublicUser) => `${personLine(reader)} opened "Slide deck"`;

/** A second instance's database handle: its own connection (SQLite) or pool (PostgreSQL). */
function secondInstance(): Kysely<Database> {
  const env = getEnv();
  return new Kysely<Database>({
    dialect: env.databaseUrl
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: env.databaseUrl, max: 2 }) })
      : new SqliteDialect({ database: new BetterSqlite3(env.databasePath, { timeout: 5000 }) }),
  });
}

function linkCall(token: string, init: { body?: string } = {}) {
  return callRoute(routes.link, {
    path: `/alerts/${token}`,
    params: { token },
    ...(init.body !== undefined && {
      body: init.body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    }),
  });
}

describe("the alert of a first opening", () => {
  it("arrives at once on an investor's first opening, with a one-click way out, and not on the second", async () => {
    const watching = await administrator({ mode: "openings", digestHour: 8 });
    const digesting = await administrator({ mode: "digest", digestHour: 8 });
    const reader = await investor({ fullName: "Ada Reader" });

    await recordOpening(reader, deck, "192.0.2.10");
    const mail = await smtp.mailTo(watching.email, openingSubject(reader));
    expect(mail.text).toContain(`opened "Slide deck" for the first time`);
    expect(mail.text).toContain(`http://localhost:3000/financing/library/reading/${deck.id}`);
    const link = `http://localhost:3000/alerts/${alertPreferenceToken(watching.id)}`;
    expect(mail.text).toContain(link);
    expect(mail.headers["list-unsubscribe"]).toBe(`<${link}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    await recordOpening(reader, deck, "192.0.2.10");
    await sendDueAlerts();
    expect(mailsTo(watching, openingSubject(reader))).toHaveLength(1);
    // Only those who chose these alerts get them.
    expect(mailsTo(digesting, /opened/)).toHaveLength(0);
  });

  it("is not sent for an administrator's own opening", async () => {
    const watching = await administrator({ mode: "openings", digestHour: 8 });
    const colleague = await administrator();
    await recordOpening(colleague, deck, null);
    await sendDueAlerts();
    expect(mailsTo(watching, new RegExp(colleague.email))).toHaveLength(0);
  });

  it("is sent by the next tick when the mail server refused it", async () => {
    const watching = await administrator({ mode: "openings", digestHour: 8 });
    const reader = await investor();
    smtp.refuse(true);
    try {
      await recordOpening(reader, deck, null);
      // The refused attempt gives back the claim it took: the row is left unsent, free for the next tick.
      await expect.poll(() => refusedAlerts(watching), { timeout: 10_000 }).toBe(1);
    } finally {
      smtp.refuse(false);
    }
    // Another administrator's refused alert may still be on its way back from the mail server: ticks until both went.
    await expect
      .poll(
        async () => {
          await sendUnsentAlertMails();
          return unsentOpeningAlerts(watching);
        },
        { timeout: 10_000 },
      )
      .toBe(0);
    await smtp.mailTo(watching.email, openingSubject(reader));
    expect(mailsTo(watching, openingSubject(reader))).toHaveLength(1);
  });
});

const unsentOpeningAlerts = async (admin: PublicUser) =>
  (
    await getDb()
      .selectFrom("alert_mails")
      .select("key")
      .where("user_id", "=", admin.id)
      .where("sent_at", "is", null)
      .execute()
  ).length;
/** The administrator's alerts tried once, and given back unsent. */
const refusedAlerts = async (admin: PublicUser) =>
  (
    await getDb()
      .selectFrom("alert_mails")
      .select("key")
      .where("user_id", "=", admin.id)
      .where("attempts", "=", 1)
      .where("claimed_at", "is", null)
      .where("sent_at", "is", null)
      .execute()
  ).length;

describe("the daily digest", () => {
  it("is written and sent once by two instances racing, for an hour missed while none ran", async () => {
    // The digest's hour, 07:00 UTC, passed three hours ago while no instance ran.
    const day = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    const due = day + 7 * HOUR;
    testClock.freeze(due - 2 * DAY);
    const admin = await administrator({ mode: "digest", digestHour: 7 });
    const reader = await investor({ fullName: "Ada Reader" });
    testClock.freeze(due - 5 * HOUR);
    await recordOpening(reader, deck, null);
    await investor({ fullName: "Nia Newcomer", signed: false, createdAt: due - 4 * HOUR });
    // Signed up before the day: a waiting NDA, not a sign-up of the day.
    await investor({ fullName: "Will Waiting", signed: false, sent: true });

    testClock.freeze(due + 3 * HOUR);
    const other = secondInstance();
    try {
      await Promise.all([sendDueDigests(getDb()), sendDueDigests(other), sendDueDigests(getDb())]);
      // The next ticks, on either instance, find it sent.
      await sendDueAlerts(other);
      await sendDueAlerts();
    } finally {
      await other.destroy();
    }
    const digests = mailsTo(admin, /^Daily digest/);
    expect(digests).toHaveLength(1);
    // Nor did any other administrator's digest go twice.
    const sent = smtp.messages.filter((mail) => /^Daily digest/.test(mail.subject)).map((mail) => mail.to.join());
    expect(new Set(sent).size).toBe(sent.length);
    const text = (digests[0] as CaughtMail).text;
    expect(text).toMatch(/"Slide deck", by:\n\s+- Ada Reader </);
    expect(text).toMatch(/New sign-ups:[\s\S]*Nia Newcomer/);
    expect(text).toMatch(/NDAs sent and not yet signed:[\s\S]*Will Waiting/);
    expect(text).not.toMatch(/New sign-ups:[^:]*Will Waiting/);
    expect(text).toContain(alertPreferenceToken(admin.id));
    expect(digests[0].headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // The day after, at the hour, the next digest; one a day.
    testClock.freeze(due + DAY);
    expect(await sendDueDigests()).toBe(1);
    expect(await sendDueDigests()).toBe(0);
    expect(mailsTo(admin, /^Daily digest/)).toHaveLength(2);
  });

  it("lists ten readers of a document by their first opening, then how many more", async () => {
    const day = Math.floor(Date.now() / DAY) * DAY + 30 * DAY;
    const readers = [];
    for (let n = 0; n < 12; n += 1) readers.push(await investor({ fullName: `Reader ${String(n).padStart(2, "0")}` }));
    // Read in reverse, each twice: the list is in the order of each one's first opening.
    for (const [n, reader] of readers.toReversed().entries()) {
      testClock.freeze(day - 20 * HOUR + n * 60_000);
      await recordOpening(reader, deck, null);
      testClock.freeze(day - 2 * HOUR + n * 60_000);
      await recordOpening(reader, deck, null);
    }
    const facts = await digestFacts(day - DAY, day);
    expect(facts.documents).toEqual([
      {
        title: "Slide deck",
        readers: readers
          .toReversed()
          .slice(0, 10)
          .map((reader) => personLine(reader)),
        moreReaders: 2,
      },
    ]);
  });

  it("chosen after today's hour starts with tomorrow's", async () => {
    const day = Math.floor(Date.now() / DAY) * DAY + 10 * DAY;
    testClock.freeze(day + 9 * HOUR);
    const admin = await administrator({ mode: "digest", digestHour: 8 });
    await sendDueDigests();
    expect(mailsTo(admin, /^Daily digest/)).toHaveLength(0);
    testClock.freeze(day + DAY + 8 * HOUR);
    await sendDueDigests();
    expect(mailsTo(admin, /^Daily digest/)).toHaveLength(1);
  });
});

describe("turning alerts off", () => {
  it("stops the opening alerts and the digests", async () => {
    const day = Math.floor(Date.now() / DAY) * DAY + 20 * DAY;
    testClock.freeze(day);
    const watching = await administrator({ mode: "openings", digestHour: 8 });
    const digesting = await administrator({ mode: "digest", digestHour: 8 });
    for (const admin of [watching, digesting]) {
      const answer = await linkCall(alertPreferenceToken(admin.id), { body: "List-Unsubscribe=One-Click" });
      expect(answer.status).toBe(200);
      expect(await alertPreferenceOf(admin.id)).toEqual({ mode: "off", digestHour: 8 });
    }
    await recordOpening(await investor(), deck, null);
    testClock.freeze(day + 2 * DAY + 8 * HOUR);
    await sendDueAlerts();
    expect(smtp.messages.filter((mail) => [watching.email, digesting.email].some((e) => mail.to.includes(e)))).toEqual(
      [],
    );
    const audit = await getDb()
      .selectFrom("audit_events")
      .select(["details"])
      .where("action", "=", "alerts.changed")
      .where("actor_id", "=", watching.id)
      .orderBy("id")
      .execute();
    expect(audit.map((row) => JSON.parse(row.details ?? "{}").via)).toEqual(["page", "one-click"]);
  });
});

describe("the signed link", () => {
  it("shows and changes the choice without signing in", async () => {
    const admin = await administrator();
    const token = alertPreferenceToken(admin.id);
    const page = await linkCall(token);
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ email: admin.email, preference: { mode: "off", digestHour: 8 } });
    const changed = await linkCall(token, { body: "mode=digest&digestHour=17" });
    expect(changed.status).toBe(200);
    expect(await alertPreferenceOf(admin.id)).toEqual({ mode: "digest", digestHour: 17 });
  });

  it("refuses an altered link, a bad choice and a removed administrator, and changes nothing", async () => {
    const admin = await administrator({ mode: "digest", digestHour: 6 });
    const token = alertPreferenceToken(admin.id);
    const other = await administrator();
    const [id, mac] = token.split(".");
    const otherId = alertPreferenceToken(other.id).split(".")[0];
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === "A" ? "B" : "A"}${mac.at(-1)}`;
    for (const altered of [`${otherId}.${mac}`, `${id}.${flipped}`, id, "", `${id}.`]) {
      for (const body of [undefined, "List-Unsubscribe=One-Click"]) {
        const answer = await linkCall(altered, { body });
        expect(answer.status, `${altered} ${body}`).toBe(400);
        expect((await answer.json()).message).toMatch(/not valid/);
      }
    }
    for (const body of ["mode=weekly", "mode=digest&digestHour=24", "mode=digest&digestHour=x"]) {
      expect((await linkCall(token, { body })).status).toBe(400);
    }
    const json = await callRoute(routes.link, { path: `/alerts/${token}`, params: { token }, json: { mode: "off" } });
    expect(json.status).toBe(415);
    expect(await alertPreferenceOf(admin.id)).toEqual({ mode: "digest", digestHour: 6 });
    expect(await alertPreferenceOf(other.id)).toEqual({ mode: "off", digestHour: 8 });

    const demoted = await administrator({ mode: "openings", digestHour: 8 });
    await getDb().updateTable("users").set({ role: "investor" }).where("id", "=", demoted.id).execute();
    expect((await linkCall(alertPreferenceToken(demoted.id), { body: "List-Unsubscribe=One-Click" })).status).toBe(404);
  });
});

describe("the administrator's own page", () => {
  it("shows and stores the choice for an administrator, and is closed to an investor", async () => {
    const admin = await administrator();
    const headers = await sessionHeaders(admin.id);
    const saved = await callRoute(routes.page, {
      path: "/financing/alerts",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: "mode=openings&digestHour=9",
    });
    expect(saved.status).toBe(200);
    expect(await alertPreferenceOf(admin.id)).toEqual({ mode: "openings", digestHour: 9 });
    // One-click is the e-mail's: the signed-in page asks for a choice.
    const oneClick = await callRoute(routes.page, {
      path: "/financing/alerts",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(400);

    const reader = await investor();
    const refused = await callRoute(routes.page, {
      path: "/financing/alerts",
      headers: { ...(await sessionHeaders(reader.id)), "Content-Type": "application/x-www-form-urlencoded" },
      body: "mode=openings&digestHour=9",
    });
    expect(refused.status).toBeGreaterThanOrEqual(300);
    expect(refused.status).toBeLessThan(500);
    expect(await alertPreferenceOf(reader.id)).toEqual({ mode: "off", digestHour: 8 });
  });
});
