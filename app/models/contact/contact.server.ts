import { contactMailSubject, contactMailText } from "~/content/contact";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { trySendMail } from "~/server/mail.server";

export type NewContactMessage = {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  ip: string | null;
};

export type StoredContactMessage = Omit<NewContactMessage, "ip"> & { id: number; createdAt: Date };

/**
 * A message the form has handed over is at least this old before a retry may
 * send it again: by then the form's own attempt has ended (mail times out in
 * seconds), so the two never send the same message at once.
 */
export const CONTACT_RETRY_MIN_AGE_MS = 60_000;

/** Keeps a visitor's message before it is mailed, so an SMTP failure never loses it. */
export async function saveContactMessage(input: NewContactMessage): Promise<StoredContactMessage> {
  const row = await getDb()
    .insertInto("contact_messages")
    .values({
      first_name: input.firstName,
      last_name: input.lastName,
      email: input.email,
      message: input.message,
      ip: input.ip,
      created_at: now(),
      mailed_at: null,
    })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
  const { ip: _ip, ...message } = input;
  return { ...message, id: row.id, createdAt: new Date(row.created_at) };
}

/**
 * E-mails a stored message to the firm's mailbox, Reply-To the visitor. Only
 * a message the SMTP server accepted gets mailed_at; the others stay null,
 * and those rows are the queue `npm run mail:retry` works through.
 */
export async function mailContactMessage(message: StoredContactMessage): Promise<boolean> {
  const mailed = await trySendMail({
    to: getEnv().contactEmail,
    replyTo: message.email,
    subject: contactMailSubject(message.firstName, message.lastName),
    text: contactMailText({ ...message, receivedAt: message.createdAt }),
  });
  if (mailed) {
    await getDb().updateTable("contact_messages").set({ mailed_at: now() }).where("id", "=", message.id).execute();
  }
  return mailed;
}

/**
 * Sends again, oldest first, every message whose e-mail has not gone out.
 * Stops at the first failure (a mail server that is down for one message is
 * down for the next); `left` counts the messages still unmailed.
 */
export async function retryUnmailedContactMessages(): Promise<{ sent: number; left: number }> {
  const rows = await getDb()
    .selectFrom("contact_messages")
    .selectAll()
    .where("mailed_at", "is", null)
    .where("created_at", "<=", now() - CONTACT_RETRY_MIN_AGE_MS)
    .orderBy("id")
    .execute();
  let sent = 0;
  for (const row of rows) {
    const mailed = await mailContactMessage({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      message: row.message,
      createdAt: new Date(row.created_at),
    });
    if (!mailed) break;
    sent += 1;
  }
  const result = { sent, left: rows.length - sent };
  log(result.left > 0 ? "warn" : "info", "contact.retry", result);
  return result;
}

/** The messages whose e-mail has not gone out yet, however recent: the mail retry backlog the metrics show. */
export async function countUnmailedContactMessages(): Promise<number> {
  const row = await getDb()
    .selectFrom("contact_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("mailed_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
