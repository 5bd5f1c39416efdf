/**
 * The process's metrics in the Prometheus text format (docs/operations.md says what each one means).
 * They live in a registry of this module's own, never prom-client's global one, so that what a
 * listener serves is this instance's series and nothing else's. Every label value comes from a small
 * fixed set written here or in the caller's code, never from a request: a path, an address, an id or
 * a token never becomes a label. The callers count through the typed functions below.
 */
import type { LogEvent } from "kysely";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";
import { AUTH_METHODS, type AuthMethod } from "./auth-method.server";

const registry = new Registry();
const registers = [registry];

/** The text a scrape gets, and its Content-Type. */
export async function renderMetrics(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}

let defaultsCollected = false;

/** Event-loop lag, heap, RSS, GC and the rest of prom-client's process series; once, by the server alone. */
export function collectProcessMetrics() {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry });
}

// HTTP

/** The methods a route can serve; any other is counted as "other" (server.js answers it 405). */
const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const httpRequests = new Counter({
  name: "portal_http_requests_total",
  help: "HTTP requests answered, by route (a Remix route id, static or unmatched), method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers,
});

const httpRequestDuration = new Histogram({
  name: "portal_http_request_duration_seconds",
  help: "Time from a request's arrival to the last byte of its answer, by route and method.",
  labelNames: ["route", "method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/** One answered request; `route` is a label from the fixed set of app/http/route-label.server.ts. */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number) {
  const methodLabel = HTTP_METHODS.has(method) ? method : "other";
  httpRequests.inc({ route, method: methodLabel, status });
  httpRequestDuration.observe({ route, method: methodLabel }, seconds);
}

// Sign-ins

export const LOGIN_FAILURE_REASONS = [
  "wrong_password",
  "unknown_email",
  "locked",
  "second_factor_failed",
  "second_factor_locked",
] as const;
export type LoginFailureReason = (typeof LOGIN_FAILURE_REASONS)[number];

const logins = new Counter({
  name: "portal_logins_total",
  help: "Sign-ins that succeeded (a session or API tokens issued), by method.",
  labelNames: ["method"] as const,
  registers,
});
for (const method of AUTH_METHODS) logins.inc({ method }, 0);

const loginFailures = new Counter({
  name: "portal_login_failures_total",
  help: "Sign-in steps that failed, by reason: a wrong password or unknown address, an address locked, a second factor refused or locked.",
  labelNames: ["reason"] as const,
  registers,
});
for (const reason of LOGIN_FAILURE_REASONS) loginFailures.inc({ reason }, 0);

const signUps = new Counter({
  name: "portal_signups_total",
  help: "Accounts registered (new addresses; a repeated sign-up of a known address is not counted).",
  registers,
});

export function countSignIn(method: AuthMethod) {
  logins.inc({ method });
}

export function countLoginFailure(reason: LoginFailureReason) {
  loginFailures.inc({ reason });
}

export function countSignUp() {
  signUps.inc();
}

// Mail

const mails = new Counter({
  name: "portal_mails_total",
  help: "E-mails handed to the SMTP server (or, without SMTP_URL, written to the outbox), by outcome: sent or failed.",
  labelNames: ["outcome"] as const,
  registers,
});
mails.inc({ outcome: "sent" }, 0);
mails.inc({ outcome: "failed" }, 0);

export function countMail(outcome: "sent" | "failed") {
  mails.inc({ outcome });
}

// The audit trail

const auditRowsWritten = new Counter({
  name: "portal_audit_rows_written_total",
  help: "Rows this process appended to the audit trail.",
  registers,
});

export function countAuditRow() {
  auditRowsWritten.inc();
}

const auditChainVerifiedRow = new Gauge({
  name: "portal_audit_chain_verified_row",
  help: "The id of the last audit row whose chain this process has verified (0: none yet).",
  registers,
});
const auditChainIntact = new Gauge({
  name: "portal_audit_chain_intact",
  help: "1 when the last check of the audit chain found it whole up to its newest row, 0 when it found a break.",
  registers,
});
const auditChainCheckedAt = new Gauge({
  name: "portal_audit_chain_checked_timestamp_seconds",
  help: "When the audit chain was last checked (Unix time, seconds; 0: not yet).",
  registers,
});

/** The outcome of a check of the audit chain: intact up to `verifiedRow`, or broken after it. */
export function recordAuditChainCheck({
  intact,
  verifiedRow,
  at,
}: {
  intact: boolean;
  verifiedRow: number;
  at: number;
}) {
  auditChainIntact.set(intact ? 1 : 0);
  auditChainVerifiedRow.set(verifiedRow);
  auditChainCheckedAt.set(at / 1000);
}

// Rate limits

/** The throttles of app/models/throttle.server.ts, the contact form and questions, by the name of the key they count. */
export const RATE_LIMIT_RULES = [
  "auth-ip",
  "code-ip",
  "reset-mail",
  "verify-mail",
  "contact",
  "login-lock",
  "code-lock",
  "questions",
] as const;
export type RateLimitRuleName = (typeof RATE_LIMIT_RULES)[number];

const rateLimitRefusals = new Counter({
  name: "portal_rate_limit_refusals_total",
  help: "Requests a throttle or lock refused, by rule.",
  labelNames: ["rule"] as const,
  registers,
});
for (const rule of RATE_LIMIT_RULES) rateLimitRefusals.inc({ rule }, 0);

export function countRateLimitRefusal(rule: RateLimitRuleName) {
  rateLimitRefusals.inc({ rule });
}

// The database

export type Engine = "sqlite" | "postgres";

const dbQueryDuration = new Histogram({
  name: "portal_db_query_duration_seconds",
  help: "Time the database took to answer one statement, by engine and operation.",
  labelNames: ["engine", "operation"] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers,
});

const dbQueryErrors = new Counter({
  name: "portal_db_query_errors_total",
  help: "Statements the database refused or failed (busy, unavailable, a constraint), by engine and operation.",
  labelNames: ["engine", "operation"] as const,
  registers,
});

/** Kysely's operation node kinds, as the operation label; raw SQL and the rest are "other". */
const OPERATIONS = {
  SelectQueryNode: "select",
  InsertQueryNode: "insert",
  UpdateQueryNode: "update",
  DeleteQueryNode: "delete",
} as const;

/**
 * Kysely's `log` callback for one engine: every statement's time, and its errors. The label objects
 * are made once here, so a statement costs two look-ups and an observation.
 */
export function queryObserver(engine: Engine): (event: LogEvent) => void {
  const labelsOf = new Map<string, { engine: Engine; operation: string }>();
  for (const operation of [...Object.values(OPERATIONS), "other"]) {
    const labels = { engine, operation };
    dbQueryErrors.inc(labels, 0);
    labelsOf.set(operation, labels);
  }
  const other = labelsOf.get("other")!;
  const byKind = new Map(Object.entries(OPERATIONS).map(([kind, operation]) => [kind, labelsOf.get(operation)!]));
  return (event) => {
    const labels = byKind.get(event.query.query.kind) ?? other;
    dbQueryDuration.observe(labels, event.queryDurationMillis / 1000);
    if (event.level === "error") dbQueryErrors.inc(labels);
  };
}

type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number };

let watchedPool: PoolCounts | undefined;

/** PostgreSQL's pool, read at each scrape; registered only once a pool exists, so SQLite shows none. */
const poolGauges: Metric[] = [
  new Gauge({
    name: "portal_db_pool_connections",
    help: "Connections PostgreSQL's pool holds (busy and idle).",
    registers: [],
    collect() {
      this.set(watchedPool?.totalCount ?? 0);
    },
  }),
  new Gauge({
    name: "portal_db_pool_idle_connections",
    help: "Connections of PostgreSQL's pool that are idle.",
    registers: [],
    collect() {
      this.set(watchedPool?.idleCount ?? 0);
    },
  }),
  new Gauge({
    name: "portal_db_pool_waiting_requests",
    help: "Queries waiting for a connection of PostgreSQL's pool.",
    registers: [],
    collect() {
      this.set(watchedPool?.waitingCount ?? 0);
    },
  }),
];

export function watchPool(pool: PoolCounts) {
  if (!watchedPool) for (const gauge of poolGauges) registry.registerMetric(gauge);
  watchedPool = pool;
}

// Read at each scrape

type ScrapeReaders = {
  /** Contact messages whose e-mail has not gone out (mailed_at null): the mail retry backlog. */
  unmailedContactMessages: () => Promise<number>;
  /** Whether the instance can serve (GET /readyz's answer). */
  ready: () => Promise<boolean>;
  /** Password hashes and checks running now, and waiting for their turn at a core. */
  passwordWork: () => { running: number; waiting: number };
};

let readers: ScrapeReaders | undefined;

/** What the gauges below read at each scrape; a reader that fails gives NaN (unknown), not a stale value. */
export function readAtScrape(given: ScrapeReaders) {
  readers = given;
}

new Gauge({
  name: "portal_contact_messages_unmailed",
  help: "Contact messages stored whose e-mail has not gone out (npm run mail:retry sends them), read at each scrape.",
  registers,
  async collect() {
    this.set(readers ? await readers.unmailedContactMessages().catch(() => Number.NaN) : Number.NaN);
  },
});

new Gauge({
  name: "portal_password_hashes_running",
  help: "Password hashes and checks (argon2) running now; at most a core but one at a time.",
  registers,
  collect() {
    this.set(readers ? readers.passwordWork().running : Number.NaN);
  },
});

new Gauge({
  name: "portal_password_hashes_waiting",
  help: "Password hashes and checks waiting for their turn at a core: sign-ins queueing behind argon2.",
  registers,
  collect() {
    this.set(readers ? readers.passwordWork().waiting : Number.NaN);
  },
});

new Gauge({
  name: "portal_ready",
  help: "1 when the instance can serve (database reachable and migrated, mail configured), as GET /readyz; read at each scrape.",
  registers,
  async collect() {
    const ready = readers ? await readers.ready().catch(() => false) : false;
    this.set(ready ? 1 : 0);
  },
});
