import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "./env.server";
import { log } from "./log.server";
import { countMail } from "./metrics.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** Extra header fields (an alert's List-Unsubscribe, say). */
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

/** A hanging SMTP server must not hold a visitor's request, or a shutdown, for long (docs/decisions/0005). */
export const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 };

/**
 * SMTP_URL with the timeouts as query options, which is where nodemailer reads
 * a URL's settings: an options object given beside a URL is taken as message
 * defaults, and one with a `url` keeps only what the URL says, so either way
 * the timeouts were lost (a silent server held a request for 30 s). A value
 * the operator puts in the URL wins.
 */
export function withSmtpTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  return url.href;
}

let transport: Transporter | undefined;

function getTransport(): Transporter {
  if (!transport) {
    const { smtpUrl } = getEnv();
    transport = smtpUrl
      ? nodemailer.createTransport(withSmtpTimeouts(smtpUrl))
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  }
  return transport;
}

/** Sends one e-mail, or writes it to the outbox when no SMTP_URL is set. Throws on failure. */
export async function sendMail(mail: Mail): Promise<void> {
  try {
    await deliver(mail);
  } catch (error) {
    countMail("failed");
    throw error;
  }
  countMail("sent");
}

async function deliver(mail: Mail) {
  const env = getEnv();
  const info = await getTransport().sendMail({ from: env.mailFrom, ...mail });
  if (env.smtpUrl) {
    log("info", "mail.sent", { subject: mail.subject });
    return;
  }
  const file = path.join(env.outboxDir, `${Date.now()}-${randomBytes(4).toString("hex")}.eml`);
  // The outbox holds live links: its reader is the server's user alone, whatever the umask.
  await fs.mkdir(env.outboxDir, { recursive: true, mode: 0o700 });
  await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
  // Development only (no SMTP_URL): the links are what a developer needs to go on.
  log("info", "mail.outbox", { file, to: mail.to, subject: mail.subject, links: findLinks(mail.text) });
}

/**
 * Sends and reports instead of throwing: a mail failure must never change the
 * answer a visitor sees, so callers record the outcome and move on.
 */
export async function trySendMail(mail: Mail): Promise<boolean> {
  try {
    await sendMail(mail);
    return true;
  } catch (error) {
    log("error", "mail.failed", { subject: mail.subject, reason: (error as Error).message });
    return false;
  }
}

function findLinks(text: string): string[] {
  return text.match(/https?:\/\/\S+/g) ?? [];
}

/** Tests point SMTP_URL at a fresh catcher per file. */
export function resetMailTransportForTests() {
  transport?.close();
  transport = undefined;
}
