/**
 * The alerts' outbox (migration 022): each alert e-mail is a row keyed by what it is about, written once
 * whatever the number of instances (the key is unique; the first insert wins), then sent by whichever
 * instance claims it. A claim is a lease of CLAIM_LEASE_MS: an instance that stops mid-way, or a mail server
 * that refuses, leaves the row unsent, and the next tick of any instance sends it again. A row is marked
 * sent once its mail server took it: the one case that can send twice is an instance stopped between that
 * moment and the mark (decision 0036). Each call takes the database handle to use (one instance's), the
 * process's own by default.
 */
import type { Kysely } from "kysely";
import { now } from "~/server/clock.server";
import { type AlertMailsTable, type Database, getDb } from "~/server/db.server";
import { log } from "~/server/log.server";
import { type Mail, sendMail } from "~/server/mail.server";
import { MINUTE_MS } from "../throttle.server";
import { alertPreferenceLink } from "./alert-preferences.server";

/** How long an instance holds a mail it claimed before another may take it. */
export const CLAIM_LEASE_MS = 5 * MINUTE_MS;
/** An alert not sent within a day is news no more: it is left, and said so in the log. */
export const ALERT_MAIL_LIFETIME_MS = 24 * 60 * MINUTE_MS;
/** The most mails one tick sends again. */
const RETRY_BATCH = 100;

export type AlertMailDraft = Pick<AlertMailsTable, "key" | "user_id" | "kind" | "subject" | "body">;

/** Whether the mail of `key` was written already (by this instance or another). */
export async function alertMailExists(key: string, db: Kysely<Database> = getDb()): Promise<boolean> {
  return (await db.selectFrom("alert_mails").select("key").where("key", "=", key).executeTakeFirst()) !== undefined;
}

/** Writes the mail unless its key is taken; true if this call wrote it, and so should send it. */
export async function queueAlertMail(draft: AlertMailDraft, db: Kysely<Database> = getDb()): Promise<boolean> {
  const result = await db
    .insertInto("alert_mails")
    .values({ ...draft, created_at: now(), claimed_at: null, sent_at: null })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Claims the mail of `key` if it is unsent and no live lease holds it, and sends it; true once it is sent. */
export async function sendAlertMail(key: string, db: Kysely<Database> = getDb()): Promise<boolean> {
  const at = now();
  const claimed = await db
    .updateTable("alert_mails")
    .set((eb) => ({ claimed_at: at, attempts: eb("attempts", "+", 1) }))
    .where("key", "=", key)
    .where("sent_at", "is", null)
    .where((eb) => eb.or([eb("claimed_at", "is", null), eb("claimed_at", "<", at - CLAIM_LEASE_MS)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  const row = await db
    .selectFrom("alert_mails as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.subject", "m.body", "m.user_id", "u.email"])
    .where("m.key", "=", key)
    .executeTakeFirst();
  if (!row) return false;
  try {
    await sendMail(alertMail(row));
  } catch (error) {
    // The lease is given back, so the next tick tries again rather than waiting it out.
    await db.updateTable("alert_mails").set({ claimed_at: null }).where("key", "=", key).execute();
    log("warn", "alerts.mail_failed", { key, reason: (error as Error).message });
    return false;
  }
  await db.updateTable("alert_mails").set({ sent_at: now() }).where("key", "=", key).execute();
  return true;
}

/** The e-mail, with the one-click way out of RFC 8058 (a POST to the signed link turns alerts off). */
function alertMail(row: { subject: string; body: string; user_id: string; email: string }): Mail {
  const link = alertPreferenceLink(row.user_id);
  return {
    to: row.email,
    subject: row.subject,
    text: row.body,
    headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** Sends the mails left unsent (a refusal, an instance stopped mid-way), oldest first; how many went and are left. */
export async function sendUnsentAlertMails(db: Kysely<Database> = getDb()): Promise<{ sent: number; left: number }> {
  const at = now();
  const rows = await db
    .selectFrom("alert_mails")
    .select("key")
    .where("sent_at", "is", null)
    .where("created_at", ">", at - ALERT_MAIL_LIFETIME_MS)
    .where((eb) => eb.or([eb("claimed_at", "is", null), eb("claimed_at", "<", at - CLAIM_LEASE_MS)]))
    .orderBy("created_at")
    .limit(RETRY_BATCH)
    .execute();
  let sent = 0;
  for (const { key } of rows) if (await sendAlertMail(key, db)) sent += 1;
  return { sent, left: rows.length - sent };
}
