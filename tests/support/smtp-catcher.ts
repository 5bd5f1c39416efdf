import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CaughtMail = {
  to: string[];
  from: string;
  replyTo: string;
  subject: string;
  text: string;
  /** Each header field as sent (its value unfolded), by its name in lower case. */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

export type SmtpCatcher = {
  url: string;
  messages: CaughtMail[];
  /** Resolves with the first message (already caught or still to come) that matches. */
  waitFor(match: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  /** Resolves with the first message to `address` whose subject is `subject` (a string) or matches it (a RegExp). */
  mailTo(address: string, subject: string | RegExp, timeoutMs?: number): Promise<CaughtMail>;
  /** Makes the next sessions fail (a refusing server) until called with false. */
  refuse(on: boolean): void;
  close(): Promise<void>;
};

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for tests. */
export async function startSmtpCatcher(onMessage?: (mail: CaughtMail) => void): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (refusing) return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = [parsed.to ?? []].flat().flatMap((group) => group.value.map((a) => a.address ?? ""));
          const mail = {
            to,
            from: parsed.from?.text ?? "",
            replyTo: parsed.replyTo?.text ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [
                key,
                line
                  .slice(line.indexOf(":") + 1)
                  .replace(/\r?\n\s+/g, " ")
                  .trim(),
              ]),
            ),
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? "",
              contentType: a.contentType,
              content: a.content,
            })),
          };
          messages.push(mail);
          onMessage?.(mail);
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });

  // A client cut off in the middle of a mail (a server killed by a test) is a socket error the server
  // emits, marked with the client's address; with no listener it would be thrown in the test's process.
  // That mail is simply not caught. Any other error (the server's own) still fails the test.
  server.on("error", (error: Error & { remoteAddress?: string }) => {
    if (error.remoteAddress === undefined) throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  const catcher: SmtpCatcher = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse(on) {
      refusing = on;
    },
    mailTo(address, subject, timeoutMs) {
      const subjectMatches = (text: string) => (typeof subject === "string" ? text === subject : subject.test(text));
      return catcher.waitFor((mail) => mail.to.includes(address) && subjectMatches(mail.subject), timeoutMs);
    },
    waitFor(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching e-mail within ${timeoutMs} ms (caught ${messages.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return catcher;
}
