import fs from "node:fs";
import path from "node:path";
import type { CaughtMail } from "../../support/smtp-catcher";
import { E2E_MAIL_DIR } from "./server";

/** The first link in the e-mail that matches: shared with the integration tests. */
export { linkIn } from "../../support/mail-links";

/** Waits for an e-mail that the SMTP catcher received for `to`, matching `subject`. */
export async function waitForMail(to: string, subject: string | RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of fs.readdirSync(E2E_MAIL_DIR).sort().reverse()) {
      const mail = JSON.parse(fs.readFileSync(path.join(E2E_MAIL_DIR, file), "utf8")) as CaughtMail;
      const subjectMatches = typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject);
      if (subjectMatches && mail.to.some((address) => address.toLowerCase() === to.toLowerCase())) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No e-mail "${subject}" to ${to} within ${timeoutMs} ms`);
}

/** How many e-mails the catcher has received for `to` so far. */
export function mailCount(to: string): number {
  return fs
    .readdirSync(E2E_MAIL_DIR)
    .map((file) => JSON.parse(fs.readFileSync(path.join(E2E_MAIL_DIR, file), "utf8")) as CaughtMail)
    .filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase())).length;
}
