/**
 * npm run mail:retry
 *
 * Sends again the contact messages whose e-mail failed (stored with mailed_at
 * empty), oldest first, to CONTACT_EMAIL through SMTP_URL, and marks each one
 * sent; then the administrators' alert e-mails left unsent (which every running
 * instance also sends again each minute: docs/decisions/0036). Messages younger than a minute are left to the form's own attempt.
 * Safe to run at any time and as often as wanted (from cron, say): a message
 * is only marked once its mail server has accepted it. Exits 1 while some
 * or alerts are still unsent (the mail server still refuses), 0 otherwise.
 */
import "dotenv/config";
import { sendUnsentAlertMails } from "../app/models/alerts/alert-mails.server";
import { retryUnmailedContactMessages } from "../app/models/contact/contact.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

// Whatever this writes (the database, a key, a copy) is its user's alone.
process.umask(0o077);

await migrateDatabase();
try {
  const { sent, left } = await retryUnmailedContactMessages();
  console.log(`Contact messages sent again: ${sent}; still unsent: ${left}.`);
  const alerts = await sendUnsentAlertMails();
  console.log(`Alert e-mails sent again: ${alerts.sent}; still unsent: ${alerts.left}.`);
  process.exitCode = left > 0 || alerts.left > 0 ? 1 : 0;
} finally {
  await closeDatabase();
}
