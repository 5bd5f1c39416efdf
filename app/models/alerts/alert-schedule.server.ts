/**
 * The alerts' clock (server.js): every minute, each instance writes the digests that are due and no instance
 * wrote yet, and sends the alert e-mails left unsent. Minutes suffice: a digest goes at its hour's first tick,
 * and a first opening's alert, sent as it is recorded, is tried again within the minute if that failed.
 */
import type { Kysely } from "kysely";
import { runEvery } from "~/models/housekeeping.server";
import { MINUTE_MS } from "~/models/throttle.server";
import type { Database } from "~/server/db.server";
import { sendUnsentAlertMails } from "./alert-mails.server";
import { sendDueDigests } from "./daily-digest.server";

export const ALERT_TICK_MS = MINUTE_MS;

/** One tick: the digests due, then the mails left unsent. */
export async function sendDueAlerts(db?: Kysely<Database>) {
  await sendDueDigests(db);
  await sendUnsentAlertMails(db);
}

export function startAlerts(): () => void {
  return runEvery("alerts", ALERT_TICK_MS, () => sendDueAlerts());
}
