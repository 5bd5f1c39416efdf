import fs from "node:fs";
import path from "node:path";
import { withDatabase, type DatabaseLocation } from "../../support/outside-database";
import type { CaughtMail } from "../../support/smtp-catcher";
import { E2E_DATABASE, E2E_LOG_FILE, E2E_MAIL_DIR } from "./server";

type ScannedServer = { logFile: string; database: DatabaseLocation; mails: CaughtMail[] };

/**
 * Run by the global teardown, after the e2e server has stopped, so it sees
 * every line of the whole run (and by each private server as it is disposed):
 * each line is one JSON event with a level, and none carries a password the
 * tests typed, a token the server mailed or issued, a password hash, or a
 * session cookie. Throws with the offending lines.
 */
export async function scanServerLog(server: ScannedServer = sharedServer()) {
  const logFile = server.logFile;
  const lines = fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  const secrets = [
    ...testPasswords().map((value) => ({ kind: "a test password", value })),
    ...mailedTokens(server.mails).map((value) => ({ kind: "a mailed token", value })),
    ...(await passwordHashes(server.database)).map((value) => ({ kind: "a password hash", value })),
    { kind: "an argon2 hash", value: "$argon2" },
    { kind: "the session cookie", value: "__session=" },
    { kind: "the refresh cookie", value: "__refresh=" },
  ];
  const problems: string[] = [];
  lines.forEach((line, index) => {
    const where = `${logFile}:${index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      problems.push(`${where} is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const event = parsed as { level?: unknown; event?: unknown };
    if (typeof event.level !== "string" || typeof event.event !== "string") {
      problems.push(`${where} has no level and event: ${line.slice(0, 200)}`);
    }
    for (const secret of secrets) {
      if (line.includes(secret.value)) problems.push(`${where} contains ${secret.kind}`);
    }
    // Session ids, API tokens and e-mailed tokens are all 32 random bytes in base64url: 43 characters.
    const tokenShaped = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
    if (tokenShaped.test(line)) {
      const shown = line.replace(tokenShaped, "<43 characters>").slice(0, 200);
      problems.push(`${where} contains something shaped like a secret token: ${shown}`);
    }
  });
  if (lines.length === 0) problems.push(`${logFile} is empty`);
  if (problems.length) {
    const shown = problems.slice(0, 30).join("\n");
    throw new Error(`The server log ${logFile} failed its scan (${problems.length}):\n${shown}`);
  }
  return { lines: lines.length, secrets: secrets.length };
}

/**
 * The passwords the specs type or send, read from their sources so a new spec's
 * password is covered too. Shorter strings are the policy's refusals
 * ("password", "1234567"), words that may rightly appear in a log line.
 */
function testPasswords(): string[] {
  const found = new Set<string>();
  const patterns = [
    /(?:password|passphrase)\w*\s*[:=]\s*"([^"]{10,})"/gi,
    /password\w*\([^)]*\)\.fill\("([^"]{10,})"\)/gi,
  ];
  for (const file of sourceFiles(path.resolve("tests/e2e"))) {
    const source = fs.readFileSync(file, "utf8");
    for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1]);
  }
  if (found.size === 0) throw new Error("The log scan found no test passwords to look for; its patterns are stale");
  return [...found];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The suite's shared server: its log, its database, and the mail its catcher wrote to disk. */
function sharedServer(): ScannedServer {
  const mails = fs.existsSync(E2E_MAIL_DIR)
    ? fs
        .readdirSync(E2E_MAIL_DIR)
        .map((file) => JSON.parse(fs.readFileSync(path.join(E2E_MAIL_DIR, file), "utf8")) as CaughtMail)
    : [];
  return { logFile: E2E_LOG_FILE, database: E2E_DATABASE, mails };
}

/** Every token in a link the catcher received (verification, reset). */
function mailedTokens(mails: CaughtMail[]): string[] {
  return mails.flatMap((mail) =>
    [...mail.text.matchAll(/https?:\/\/\S+\/([A-Za-z0-9_-]{43})\b/g)].map((match) => match[1]),
  );
}

async function passwordHashes(database: DatabaseLocation): Promise<string[]> {
  if ("path" in database && !fs.existsSync(database.path)) return [];
  return withDatabase(database, async (db) =>
    (await db.selectFrom("users").select("password_hash").execute()).map((row) => row.password_hash),
  );
}
