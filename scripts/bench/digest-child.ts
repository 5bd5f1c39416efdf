/**
 * The daily digest measured alone (scripts/bench/digest.ts): in a process of its own, against the bench's
 * database, one administrator's digest due at DIGEST_DUE (ms) is written and sent (to the outbox) as the
 * server's tick would; prints one line of JSON: the time it took and the process's resident memory before
 * and at its peak.
 */
import { getUserByEmail } from "../../app/models/account/user.server";
import { setAlertPreference } from "../../app/models/alerts/alert-preferences.server";
import { sendDueDigests } from "../../app/models/alerts/daily-digest.server";
import { testClock } from "../../app/server/clock.server";
import { closeDatabase, getDb } from "../../app/server/db.server";

const due = Number(process.env.DIGEST_DUE);
const admin = await getUserByEmail(process.env.DIGEST_ADMIN ?? "");
if (!admin) throw new Error("The bench's administrator is missing.");
testClock.freeze(due - 2 * 86_400_000);
await setAlertPreference(admin, { mode: "digest", digestHour: new Date(due).getUTCHours() }, { ip: null, via: "page" });
await getDb().deleteFrom("alert_mails").where("kind", "=", "digest").execute();
testClock.freeze(due + 60_000);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const written = await sendDueDigests();
const ms = performance.now() - started;
const peakRss = process.resourceUsage().maxRSS * 1024;
const mail = await getDb().selectFrom("alert_mails").select("body").where("kind", "=", "digest").executeTakeFirst();
await closeDatabase();
console.log(JSON.stringify({ written, ms, rssBefore, peakRss, bytes: Buffer.byteLength(mail?.body ?? "") }));
