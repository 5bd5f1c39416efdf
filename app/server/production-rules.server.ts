/**
 * The production rules (docs/decisions/0011): what a server that the public can reach, or that runs
 * with NODE_ENV=production, refuses to start without, and what it only warns about. server.js asks
 * these before it reads the configuration, so a refused start writes nothing.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { firmSettingVariables, unsetFirmSettings } from "~/content/firm-settings.server";
import { quarterHasPassed, quarterNamedIn } from "~/lib/quarter";
import { isLoopback, isPublicAppUrl, SECRET_MIN_LENGTH } from "./env.server";
import { describeP12 } from "./nda-signing-key.server";
import { secretWeakness } from "./secret-strength.server";

/** Above this many auth requests a minute per address, a public server's throttle would no longer slow a guesser. */
export const AUTH_RATE_LIMIT_CEILING = 100;

/**
 * Why a server under the production rules must not serve, one sentence each: without these it
 * would mail nobody, mint insecure links and cookies, sign with a guessable secret, show the
 * firm's investors a mailbox that does not exist, or leave its operator nothing to graph and alert
 * on (or metrics anyone could read). Empty when it may start.
 */
export function productionConfigurationProblems(source: Record<string, string | undefined>): string[] {
  const value = (name: string) => source[name]?.trim() || undefined;
  const problems: string[] = [];
  const smtpUrl = value("SMTP_URL");
  if (!smtpUrl) {
    problems.push("SMTP_URL is not set: e-mail would only be written to a folder on this machine.");
  } else if (!URL.canParse(smtpUrl) || new URL(smtpUrl).hostname === "") {
    problems.push("SMTP_URL names no mail server: write it as smtp://user:password@host:587.");
  }
  const appUrl = value("APP_URL");
  if (!appUrl) {
    problems.push("APP_URL is not set: the links in e-mails need the site's public https:// address.");
  } else if (!URL.canParse(appUrl)) {
    problems.push(`APP_URL is not a URL: ${appUrl}`);
  } else {
    const url = new URL(appUrl);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
      problems.push(`APP_URL must be https:// for a host other than loopback (it is ${url.origin}).`);
    }
  }
  problems.push(...secretProblems("SESSION_SECRET", value("SESSION_SECRET"), "signs the session cookies"));
  problems.push(...secretProblems("AUDIT_KEY", value("AUDIT_KEY"), "keys the audit trail's chain"));
  problems.push(...secretProblems("DATA_KEY", value("DATA_KEY"), "encrypts the authenticator secrets"));
  if (!value("CONTACT_EMAIL")) {
    problems.push("CONTACT_EMAIL is not set: pages and e-mails would show a placeholder mailbox.");
  }
  problems.push(...signingKeyProblems(value("NDA_SIGNING_P12"), source.NDA_SIGNING_P12_PASSPHRASE));
  const metricsToken = value("METRICS_TOKEN");
  if (value("METRICS") !== "off" && !value("METRICS_PORT") && !metricsToken) {
    problems.push(
      "METRICS_PORT is not set, nor METRICS_TOKEN: the metrics could not be scraped; set METRICS_PORT (a listener of their own, on loopback) or METRICS_TOKEN (a bearer token for /metrics).",
    );
  }
  if (metricsToken) problems.push(...secretProblems("METRICS_TOKEN", metricsToken, "guards /metrics"));
  const authLimit = Number(value("AUTH_RATE_LIMIT_PER_MINUTE") ?? 0);
  // The test suites raise it on loopback, where every request comes from one address.
  if (authLimit > AUTH_RATE_LIMIT_CEILING && isPublicAppUrl(appUrl)) {
    problems.push(
      `AUTH_RATE_LIMIT_PER_MINUTE is ${authLimit}: a public server allows at most ${AUTH_RATE_LIMIT_CEILING} (unset: 10).`,
    );
  }
  return problems;
}

/** PKCS#12 files (by hash) and passphrases found to open: each costs tens of milliseconds to open. */
const openedSigningKeys = new Set<string>();

/** The certificate signed NDAs are sealed under: set, readable, and opened by its passphrase. */
function signingKeyProblems(file: string | undefined, passphrase = ""): string[] {
  if (!file) {
    return [
      "NDA_SIGNING_P12 is not set: it is the certificate (PKCS#12) signed NDAs are sealed under; set it and NDA_SIGNING_P12_PASSPHRASE.",
    ];
  }
  try {
    const bytes = fs.readFileSync(path.resolve(file));
    const opened = `${createHash("sha256").update(bytes).digest("hex")}:${passphrase}`;
    if (!openedSigningKeys.has(opened)) {
      describeP12(bytes, passphrase);
      openedSigningKeys.add(opened);
    }
    return [];
  } catch (error) {
    return [`NDA_SIGNING_P12 (${file}) cannot be used: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** A comma-separated secret setting: set, and each of its secrets long and not guessable. */
function secretProblems(name: string, setting: string | undefined, purpose: string): string[] {
  if (!setting) return [`${name} is not set: it ${purpose}; set at least ${SECRET_MIN_LENGTH} random characters.`];
  return setting
    .split(",")
    .map((secret) => secret.trim())
    .flatMap((secret, index, all) => {
      const weakness = secretWeakness(secret);
      if (!weakness) return [];
      return [`${name}${all.length > 1 ? ` (secret ${index + 1})` : ""} ${weakness}.`];
    });
}

/** The firm's settings still at their placeholders: a production server starts, but says so. */
export function placeholderWarnings(source: Record<string, string | undefined>, today = new Date()): string[] {
  return [
    ...unsetFirmSettings(source)
      // CONTACT_EMAIL is required (above); OPERATING_START's default is the firm's own sentence, stale only once past.
      .filter((name) => name !== "CONTACT_EMAIL" && name !== "OPERATING_START")
      .map((name) => `${name} is not set: the site shows a placeholder where it is used.`),
    ...operatingStartWarnings(source, today),
  ];
}

/** OPERATING_START once its quarter has passed, or when it names no quarter to check: pages would promise a past date. */
export function operatingStartWarnings(source: Record<string, string | undefined>, today: Date): string[] {
  const setting = source.OPERATING_START?.trim();
  const text = setting || firmSettingVariables.OPERATING_START;
  const quarter = quarterNamedIn(text);
  if (!quarter) {
    return [
      `OPERATING_START (${text}) names no quarter this server can check: write it as "the first quarter of 2027", "Q1 2027" or "2027-Q1".`,
    ];
  }
  if (!quarterHasPassed(quarter, today)) return [];
  const named = setting ? `OPERATING_START (${text})` : `OPERATING_START is not set, and its default (${text})`;
  return [`${named} has passed: pages still say the firm expects to begin operating then.`];
}
