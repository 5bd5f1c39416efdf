import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { firmSettingsFrom, unsetFirmSettings } from "~/content/firm";

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
    .min(32)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).optional(),
  CONTACT_EMAIL: z.string().email().optional(),
  INSTITUTIONAL_EMAIL: z.string().email().optional(),
  INVESTORS_EMAIL: z.string().email().optional(),
  SOCIAL_URL: z.string().url().optional(),
  CONTACT_FORM_URL: z.string().url().optional(),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).optional(),
  API_ALLOWED_ORIGINS: commaList,
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string | undefined;
  appUrl: URL;
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
  /** Signs audit exports; read through getAuditKey, which makes one when it is unset. */
  auditKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string;
  contactFormUrl: string | undefined;
  trustProxy: number | undefined;
  apiAllowedOrigins: string[];
  /** Raises (never lowers) the 10 auth requests a minute per IP, for test runs from one address. */
  authRateLimitPerMinute: number | undefined;
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
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST,
    appUrl,
    secureCookies: appUrl.protocol === "https:",
    databasePath,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
    dataDir,
    outboxDir: path.join(dataDir, "outbox"),
    sessionSecrets:
      raw.SESSION_SECRET.length > 0
        ? raw.SESSION_SECRET
        : [generatedSecret(dataDir, "session-secret", "SESSION_SECRET")],
    auditKey: raw.AUDIT_KEY,
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM ?? `${firmName} <${contactEmail}>`,
    contactEmail,
    contactFormUrl: raw.CONTACT_FORM_URL,
    trustProxy: raw.TRUST_PROXY,
    apiAllowedOrigins: raw.API_ALLOWED_ORIGINS.map((origin) => new URL(origin).origin),
    authRateLimitPerMinute: raw.AUTH_RATE_LIMIT_PER_MINUTE,
  };
}

/** The shortest SESSION_SECRET a production server accepts. */
export const SESSION_SECRET_MIN_LENGTH = 32;

/**
 * Why a server started with NODE_ENV=production must not serve, one sentence
 * each: without these it would mail nobody, mint insecure links and cookies, or
 * show the firm's investors a mailbox that does not exist. Empty when it may start.
 */
export function productionConfigurationProblems(source: Record<string, string | undefined>): string[] {
  const value = (name: string) => source[name]?.trim() || undefined;
  const problems: string[] = [];
  if (!value("SMTP_URL")) {
    problems.push("SMTP_URL is not set: e-mail would only be written to a folder on this machine.");
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
  const secrets = (value("SESSION_SECRET") ?? "").split(",").map((secret) => secret.trim());
  if (!value("SESSION_SECRET")) {
    problems.push(`SESSION_SECRET is not set: set at least ${SESSION_SECRET_MIN_LENGTH} random characters.`);
  } else if (secrets.some((secret) => secret.length < SESSION_SECRET_MIN_LENGTH)) {
    problems.push(`SESSION_SECRET is too short: each secret needs at least ${SESSION_SECRET_MIN_LENGTH} characters.`);
  }
  if (!value("CONTACT_EMAIL")) {
    problems.push("CONTACT_EMAIL is not set: pages and e-mails would show a placeholder mailbox.");
  }
  return problems;
}

/** The firm's settings still at their placeholders: a production server starts, but says so. */
export function placeholderWarnings(source: Record<string, string | undefined>): string[] {
  return unsetFirmSettings(source)
    .filter((name) => name !== "CONTACT_EMAIL")
    .map((name) => `${name} is not set: the site shows a placeholder where it is used.`);
}

function isLoopback(hostname: string) {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The key of the audit exports' signatures: AUDIT_KEY, or one generated into the data folder the
 * first time an export is made or checked. Only the audit scripts need it, so the server never makes one.
 */
export function getAuditKey(): string {
  const env = getEnv();
  return env.auditKey ?? generatedSecret(env.dataDir, "audit-key", "AUDIT_KEY");
}

/**
 * A fresh clone must run with nothing configured, so an unset secret is generated once and kept
 * beside the database: sessions then survive restarts, and an export made today verifies tomorrow.
 */
function generatedSecret(dataDir: string, fileName: string, setting: string): string {
  const file = path.join(dataDir, fileName);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  console.warn(`${setting} is not set: generated one into ${file}. Set ${setting} in production.`);
  return secret;
}
