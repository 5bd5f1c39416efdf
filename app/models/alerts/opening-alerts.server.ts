/**
 * The alert of a first opening: when an investor opens a document for the first time, each administrator
 * who chose these alerts gets one e-mail, written to the alerts' outbox as the opening is recorded and sent
 * at once, so it arrives within the minute; one the mail server refused goes with the next tick.
 */
import { alertEmails, personLine } from "~/content/alerts";
import { formatRegistrationTime } from "~/lib/investor-table";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { queueAlertMail, sendAlertMail } from "./alert-mails.server";
import { administratorsWhoChose, alertPreferenceLink } from "./alert-preferences.server";

export type Opening = { userId: string; documentId: string; title: string; openedAt: number };

/**
 * Writes the alerts of an opening if it is its investor's first of the document, and starts sending them;
 * resolves once they are written (the sending goes on, so a copy never waits for a mail server).
 */
export async function alertFirstOpening(opening: Opening): Promise<void> {
  const db = getDb();
  const reader = await db
    .selectFrom("users as u")
    .innerJoin("document_readers as r", (join) =>
      join.onRef("r.user_id", "=", "u.id").on("r.document_id", "=", opening.documentId),
    )
    .select(["u.email", "u.full_name", "u.role", "r.opens"])
    .where("u.id", "=", opening.userId)
    .executeTakeFirst();
  if (!reader || reader.role !== "investor" || Number(reader.opens) !== 1) return;
  const administrators = await administratorsWhoChose("openings");
  const readingLink = new URL(`/financing/library/reading/${opening.documentId}`, getEnv().appUrl).href;
  const keys: string[] = [];
  for (const administrator of administrators) {
    const key = `opening:${administrator.id}:${opening.documentId}:${opening.userId}`;
    const mail = alertEmails.firstOpening({
      reader: personLine({ fullName: reader.full_name, email: reader.email }),
      title: opening.title,
      openedAt: formatRegistrationTime(new Date(opening.openedAt).toISOString()),
      readingLink,
      preferenceLink: alertPreferenceLink(administrator.id),
    });
    const written = await queueAlertMail({
      key,
      user_id: administrator.id,
      kind: "opening",
      subject: mail.subject,
      body: mail.text,
    });
    if (written) keys.push(key);
  }
  void (async () => {
    for (const key of keys) await sendAlertMail(key);
  })().catch((error: unknown) => log("warn", "alerts.opening_failed", { error }));
}
