/**
 * The daily digest: at the hour each administrator chose (UTC), one e-mail of the 24 hours before it: the
 * documents read and by whom, the new sign-ups, the NDAs sent and not yet signed. Each digest's key is its
 * administrator and day, so several instances ticking at once write it once and send it once; an hour missed
 * while no instance ran is sent at the next tick, once, and only the latest (decision 0036). Lists are cut to
 * a few names with "and N more", so a digest stays an e-mail whatever the numbers.
 */
import type { Kysely } from "kysely";
import { alertEmails, type DigestFacts, personLine } from "~/content/alerts";
import { now } from "~/server/clock.server";
import { type Database, getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { alertMailExists, queueAlertMail, sendAlertMail } from "./alert-mails.server";
import { administratorsWhoChose, alertPreferenceLink } from "./alert-preferences.server";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The most names a list of the digest shows. */
export const DIGEST_NAMES = 10;

/** The latest time at `hour`:00 UTC that is not after `at`. */
export function latestDigestTime(at: number, hour: number): number {
  const today = Math.floor(at / DAY_MS) * DAY_MS + hour * HOUR_MS;
  return today <= at ? today : today - DAY_MS;
}

/** Writes and sends the digests due now that no instance wrote yet; how many this call wrote. */
export async function sendDueDigests(db: Kysely<Database> = getDb()): Promise<number> {
  const at = now();
  const facts = new Map<number, Promise<DigestFacts>>();
  let written = 0;
  for (const administrator of await administratorsWhoChose("digest", db)) {
    const due = latestDigestTime(at, administrator.digestHour);
    // A digest chosen after today's hour starts with the next one, rather than at once.
    if (administrator.chosenAt > due) continue;
    const key = `digest:${administrator.id}:${new Date(due).toISOString().slice(0, 10)}`;
    if (await alertMailExists(key, db)) continue;
    if (!facts.has(due)) facts.set(due, digestFacts(due - DAY_MS, due, db));
    const mail = alertEmails.digest(await facts.get(due)!, {
      readingLink: new URL("/financing/library/reading", getEnv().appUrl).href,
      preferenceLink: alertPreferenceLink(administrator.id),
    });
    const draft = { key, user_id: administrator.id, kind: "digest" as const, subject: mail.subject, body: mail.text };
    if (!(await queueAlertMail(draft, db))) continue;
    written += 1;
    await sendAlertMail(key, db);
  }
  return written;
}

const dayFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** What the digest of [from, to) says. */
export async function digestFacts(from: number, to: number, db: Kysely<Database> = getDb()): Promise<DigestFacts> {
  const read = await db
    .selectFrom("document_opens as o")
    .innerJoin("users as u", "u.id", "o.user_id")
    .innerJoin("documents as d", "d.id", "o.document_id")
    .select(["d.id", "d.title", "d.position", (eb) => eb.fn.count<string>("o.user_id").distinct().as("readers")])
    .where("o.opened_at", ">=", from)
    .where("o.opened_at", "<", to)
    .where("u.role", "=", "investor")
    .groupBy(["d.id", "d.title", "d.position"])
    .orderBy("d.position")
    .execute();
  const documents = await Promise.all(
    read.map(async (document) => {
      const readers = await db
        .selectFrom("document_opens as o")
        .innerJoin("users as u", "u.id", "o.user_id")
        .select(["u.full_name", "u.email", (eb) => eb.fn.min("o.opened_at").as("first")])
        .where("o.document_id", "=", document.id)
        .where("o.opened_at", ">=", from)
        .where("o.opened_at", "<", to)
        .where("u.role", "=", "investor")
        .groupBy(["u.id", "u.full_name", "u.email"])
        .orderBy("first")
        .limit(DIGEST_NAMES)
        .execute();
      return {
        title: document.title,
        readers: readers.map((reader) => personLine({ fullName: reader.full_name, email: reader.email })),
        moreReaders: Number(document.readers) - readers.length,
      };
    }),
  );
  const investors = db.selectFrom("users").where("role", "=", "investor");
  const signedUp = investors.where("created_at", ">=", from).where("created_at", "<", to);
  const waiting = investors.where("is_nda_sent", "=", 1).where("is_nda_signed", "=", 0);
  const [signUps, signUpCount, ndasWaiting, waitingCount] = await Promise.all([
    signedUp.select(["full_name", "email"]).orderBy("created_at").orderBy("id").limit(DIGEST_NAMES).execute(),
    signedUp.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
    waiting.select(["full_name", "email"]).orderBy("created_at").orderBy("id").limit(DIGEST_NAMES).execute(),
    waiting.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
  ]);
  const people = (rows: { full_name: string; email: string }[]) =>
    rows.map((row) => personLine({ fullName: row.full_name, email: row.email }));
  return {
    day: dayFormat.format(new Date(to)),
    documents,
    signUps: people(signUps),
    moreSignUps: Number(signUpCount.count) - signUps.length,
    ndasWaiting: people(ndasWaiting),
    moreNdasWaiting: Number(waitingCount.count) - ndasWaiting.length,
  };
}
