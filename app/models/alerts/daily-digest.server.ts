/**
 * The daily digest: at the hour each administrator chose (UTC), one e-mail of the 24 hours before it: the
 * documents read and by whom, the new sign-ups, the NDAs sent and not yet signed. Each digest's key is its
 * administrator and day, so several instances ticking at once write it once and send it once; an hour missed
 * while no instance ran is sent at the next tick, once, and only the latest (decision 0036). Lists are cut to
 * a few names with "and N more", so a digest stays an e-mail whatever the numbers.
 */
import { type Kysely, sql } from "kysely";
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

type ReaderRow = { document_id: string; title: string; readers: number | string; full_name: string; email: string };

/**
 * The documents opened in [from, to), in the library's order, each with its first DIGEST_NAMES readers (by their
 * first opening) and how many there were: one query, a walk of the day's range of the openings' time index,
 * rather than a query per document (100 documents, 100,000 openings: 7.4 s -> see docs/performance.md).
 */
async function documentsRead(from: number, to: number, db: Kysely<Database>): Promise<DigestFacts["documents"]> {
  const { rows } = await sql<ReaderRow>`
    with firsts as (
      select o.document_id, o.user_id, min(o.opened_at) as first_at
      from document_opens o join users u on u.id = o.user_id
      where o.opened_at >= ${from} and o.opened_at < ${to} and u.role = 'investor'
      group by o.document_id, o.user_id
    ), ranked as (
      select document_id, user_id,
        row_number() over (partition by document_id order by first_at, user_id) as n,
        count(*) over (partition by document_id) as readers
      from firsts
    )
    select r.document_id, d.title, r.readers, u.full_name, u.email
    from ranked r join documents d on d.id = r.document_id join users u on u.id = r.user_id
    where r.n <= ${DIGEST_NAMES}
    order by d.position, d.created_at, d.id, r.n`.execute(db);
  const documents: DigestFacts["documents"] = [];
  let current: DigestFacts["documents"][number] | undefined;
  let currentId: string | undefined;
  for (const row of rows) {
    if (!current || currentId !== row.document_id) {
      current = { title: row.title, readers: [], moreReaders: Number(row.readers) };
      currentId = row.document_id;
      documents.push(current);
    }
    current.readers.push(personLine({ fullName: row.full_name, email: row.email }));
    current.moreReaders -= 1;
  }
  return documents;
}

const dayFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** What the digest of [from, to) says. */
export async function digestFacts(from: number, to: number, db: Kysely<Database> = getDb()): Promise<DigestFacts> {
  const documents = await documentsRead(from, to, db);
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
