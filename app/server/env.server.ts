import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { firmSettingsFrom } from "~/content/firm-settings.server";
import type { SigningKeySetting } from "./nda-signing-key.server";

/** The shortest secret (SESSION_SECRET, AUDIT_KEY, DATA_KEY) accepted where a server faces the public. */
export const SECRET_MIN_LENGTH = 32;

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  APP_URL: z.string().url().optional(),
  DATABASE_PATH: z.string().min(1).default("data/portal.sqlite"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: "DATABASE_URL must be a postgres:// URL (unset, the app uses SQLite)." })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SESSION_SECRET: commaList,
  AUDIT_KEY: z
    .string()
    .trim()
    .min(SECRET_MIN_LENGTH)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_KEY: commaList.refine((keys) => keys.every((key) => key.length >= SECRET_MIN_LENGTH), {
    error: `each key needs at least ${SECRET_MIN_LENGTH} characters`,
  }),
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:$/.test(new URL(url).protocol) && new URL(url).hostname !== "", {
      error: "SMTP_URL must be smtp:// or smtps:// and name the mail server's host",
    })
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  CONTACT_EMAIL: z.string().email().optional(),
  INSTITUTIONAL_EMAIL: z.string().email().optional(),
  INVESTORS_EMAIL: z.string().email().optional(),
  SOCIAL_URL: z.string().url().optional(),
  CONTACT_FORM_URL: z.string().url().optional(),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).optional(),
  API_ALLOWED_ORIGINS: commaList,
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  STAMPED_COPIES_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  METRICS: z.enum(["on", "off"], { error: "METRICS is on (the default) or off." }).default("on"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  METRICS_TOKEN: commaList,
  NDA_SIGNING_P12: z.string().trim().min(1).optional(),
  NDA_SIGNING_P12_PASSPHRASE: z.string().optional(),
  NDA_ONE_SIDED: z.enum(["on", "off"], { error: "NDA_ONE_SIDED is on or off (the default)." }).default("off"),
  NDA_RETENTION_YEARS: z.coerce.number().int().min(1).max(100).default(7),
  SERVER_TIMING: z.enum(["on", "off"], { error: "SERVER_TIMING is on or off (the default)." }).default("off"),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string | undefined;
  appUrl: URL;
  /**
   * The origins the site's own pages are served from, the only ones whose forms it takes: APP_URL's,
   * or, with APP_URL unset, each loopback name of a local run on its port (localhost, 127.0.0.1, [::1]).
   */
  siteOrigins: string[];
  /** Whether APP_URL was set, rather than made from PORT for a local run. */
  appUrlConfigured: boolean;
  secureCookies: boolean;
  databasePath: string;
  /** PostgreSQL's address when the app runs on PostgreSQL; unset, SQLite at databasePath. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** How long one SQL statement may run on PostgreSQL before the server cancels it. */
  databaseStatementTimeoutMs: number;
  dataDir: string;
  outboxDir: string;
  sessionSecrets: string[];
  /** Keys the audit trail's hash chain and signs its exports (HMAC-SHA256). */
  auditKey: string;
  /** Encrypt secrets at rest (AES-256-GCM): the first encrypts, every one decrypts, so a key can be rotated. */
  dataKeys: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string;
  contactFormUrl: string | undefined;
  trustProxy: number | undefined;
  apiAllowedOrigins: string[];
  /** Raises (never lowers) the 10 auth requests a minute per IP, for test runs from one address. */
  authRateLimitPerMinute: number | undefined;
  /** Raises (never lowers) the 30 stamped copies a reader may start a minute, for load tests with few readers. */
  stampedCopiesPerMinute: number | undefined;
  /** SERVER_TIMING=on: each answer carries Server-Timing (its time and the database's share; the bench sets it). */
  serverTiming: boolean;
  metrics: {
    /** METRICS=off turns the instrumentation off: only the bench sets it, to measure what it costs. */
    enabled: boolean;
    /** A listener of the metrics' own (0: any free port); unset, none. */
    port: number | undefined;
    host: string;
    /** Bearer tokens a scrape may present (the first is current; the others are being rotated out); empty, none. */
    tokens: string[];
  };
  nda: {
    /** The PKCS#12 file a signed NDA is sealed under, or (outside production, unset) the one generated for a local run. */
    signingKey: SigningKeySetting | null;
    /** A firm whose NDA is one-sided completes it on the investor's signature; otherwise an administrator countersigns. */
    oneSided: boolean;
    /** How long a signed NDA and its evidence are kept after the investor's account is deleted. */
    retentionYears: number;
  };
};

let cached: Env | undefined;

/** The validated configuration, read once from process.env (see .env.example). */
export function getEnv(): Env {
  if (!cached) cached = parseEnv(process.env);
  return cached;
}

/** Tests change process.env between files; this forgets what was read. */
export function resetEnvForTests() {
  cached = undefined;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const blankToUndefined = Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, value === "" ? undefined : value]),
  );
  const result = envSchema.safeParse(blankToUndefined);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const raw = result.data;
  const appUrl = new URL(raw.APP_URL ?? `http://localhost:${raw.PORT}`);
  const databasePath = path.resolve(raw.DATABASE_PATH);
  const dataDir = path.dirname(databasePath);
  const { name: firmName, mailboxes } = firmSettingsFrom(source);
  const contactEmail = mailboxes.info;
  const kept = (fileName: string, setting: string) => generatedSecret(source, dataDir, fileName, setting);
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST,
    appUrl,
    siteOrigins: raw.APP_URL ? [appUrl.origin] : LOOPBACK_NAMES.map((name) => `http://${name}:${raw.PORT}`),
    appUrlConfigured: raw.APP_URL !== undefined,
    secureCookies: appUrl.protocol === "https:",
    databasePath,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
    dataDir,
    outboxDir: path.join(dataDir, "outbox"),
    sessionSecrets: raw.SESSION_SECRET.length > 0 ? raw.SESSION_SECRET : [kept("session-secret", "SESSION_SECRET")],
    auditKey: raw.AUDIT_KEY ?? kept("audit-key", "AUDIT_KEY"),
    dataKeys: raw.DATA_KEY.length > 0 ? raw.DATA_KEY : [kept("data-key", "DATA_KEY")],
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM ?? `${firmName} <${contactEmail}>`,
    contactEmail,
    contactFormUrl: raw.CONTACT_FORM_URL,
    trustProxy: raw.TRUST_PROXY,
    apiAllowedOrigins: raw.API_ALLOWED_ORIGINS.map((origin) => new URL(origin).origin),
    authRateLimitPerMinute: raw.AUTH_RATE_LIMIT_PER_MINUTE,
    stampedCopiesPerMinute: raw.STAMPED_COPIES_PER_MINUTE,
    serverTiming: raw.SERVER_TIMING === "on",
    metrics: {
      enabled: raw.METRICS === "on",
      port: raw.METRICS_PORT,
      host: raw.METRICS_HOST,
      tokens: raw.METRICS_TOKEN,
    },
    nda: {
      signingKey: raw.NDA_SIGNING_P12
        ? {
            p12Path: path.resolve(raw.NDA_SIGNING_P12),
            passphrase: raw.NDA_SIGNING_P12_PASSPHRASE ?? "",
            generated: false,
          }
        : productionRulesApply(source)
          ? // The production rules refuse to serve without one (production-rules.server.ts); a script has no need of it.
            null
          : {
              p12Path: path.join(dataDir, "nda-signing.p12"),
              passphrase: kept("nda-signing-passphrase", "NDA_SIGNING_P12"),
              generated: true,
            },
      oneSided: raw.NDA_ONE_SIDED === "on",
      retentionYears: raw.NDA_RETENTION_YEARS,
    },
  };
}

/**
 * Whether the production rules apply: NODE_ENV=production, or an APP_URL that is not a loopback
 * address, whatever NODE_ENV says. A server the public can reach must never run on a developer's
 * defaults (links printed to the log, secrets generated beside the database).
 */
export function productionRulesApply(source: Record<string, string | undefined>): boolean {
  return source.NODE_ENV?.trim() === "production" || isPublicAppUrl(source.APP_URL);
}

/** The names a local run answers to when APP_URL is unset. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export function isPublicAppUrl(appUrl: string | undefined): boolean {
  const value = appUrl?.trim();
  return !!value && URL.canParse(value) && !isLoopback(new URL(value).hostname);
}

export function isLoopback(hostname: string) {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A fresh clone must run with nothing configured, so outside production an unset secret is generated
 * once and kept beside the database, with a warning: sessions then survive restarts, the audit chain
 * verifies tomorrow, and secrets encrypted today decrypt. Under the production rules nothing is
 * generated: a key kept beside the data it protects protects nothing.
 */
function generatedSecret(
  source: Record<string, string | undefined>,
  dataDir: string,
  fileName: string,
  setting: string,
): string {
  if (productionRulesApply(source)) {
    throw new Error(`Invalid configuration:\n  ${setting} is not set: it is required in production.`);
  }
  const file = path.join(dataDir, fileName);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole beside it, then linked into place: of two processes starting at once, one key wins.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, randomBytes(32).toString("hex"), { mode: 0o600 });
  try {
    fs.linkSync(partial, file);
    console.warn(`${setting} is not set: generated one into ${file}. Set ${setting} in production.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return fs.readFileSync(file, "utf8").trim();
}
