/**
 * The audit log at a million rows: a trail seeded in bulk, chained as the app chains it, then the
 * audit page's p95 for each single filter. Investors' own events, mostly: sign-ins, views of the
 * materials pages, the PDF's downloads and the video's openings; now and then the administrator
 * marks an investor's NDA. `seedAuditTrail` is exported for other rows that read one investor's activity.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { AUDIT_ROW_COLUMNS, auditRowHash, chainKeyOf, type ChainedContent } from "../../migrations/audit-chain.js";
import { TEST_KEYS } from "../../tests/support/test-keys";
import { dropIdleConnections, warmUp } from "./measure";
import type { Row } from "./report";
import { ADMIN, seedInvestorsUpTo, type BenchDatabase } from "./seed";
import { growthRow, judgedAgainstFloors, judgedLatency, type Judged } from "./verdicts";

/** The page's p95 on a quiet 2-core machine, kept as a reference (docs/performance.md), not as a verdict. */
const AUDIT_TARGET_MS = 50;

/** The investors whose events fill the trail (the table phase tops them up to its own count later). */
const AUDIT_INVESTORS = 10_000;
/** The trail's span: the seeded rows end now, one after another at even steps over this many days. */
const SPAN_DAYS = 365;
const DAY_MS = 86_400_000;
const BATCH = 1000;

const COLUMNS = AUDIT_ROW_COLUMNS;

type Account = { id: string; email: string };

/** The seeded row number `n`'s content: whose, what and when. */
function seededEvent(n: number, investors: Account[], admin: Account, at: number): ChainedContent {
  const investor = investors[(n * 7919) % investors.length];
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const own = (action: string, details: Record<string, unknown>, target: Account | null = null) => ({
    actor_id: investor.id,
    actor_email: investor.email,
    action,
    target_id: target?.id ?? null,
    target_email: target?.email ?? null,
    details: JSON.stringify(details),
    ip,
    at,
  });
  const slot = n % 100;
  if (slot < 30)
    return own("login.succeeded", { method: slot < 20 ? "password+totp" : "password", via: "web" }, investor);
  if (slot < 75) return own("materials.view", { page: slot < 60 ? "/financing/materials" : "/financing/video" });
  if (slot < 88) return own("file.download", { file: "download.pdf", downloadId: `bench-${n}` });
  if (slot < 98) return own("file.viewed", { file: "investorvideo.mp4", range: "bytes=0-", method: "GET" });
  const signed = slot === 99;
  return {
    actor_id: admin.id,
    actor_email: admin.email,
    action: signed ? "nda.signed.changed" : "nda.sent.changed",
    target_id: investor.id,
    target_email: investor.email,
    details: JSON.stringify(signed ? { state: true, mailed: true } : { state: true }),
    ip: "198.51.100.10",
    at,
  };
}

/**
 * The seeded rows after the head (its id and hash), in order, each sealed onto the one before under AUDIT_KEY:
 * rows `from` to `from + count` of a trail of `total` rows whose last ends now.
 */
function* chainedRows(
  { count, from, total }: TrailPart,
  head: { id: number; hash: string },
  investors: Account[],
  admin: Account,
) {
  const key = chainKeyOf(TEST_KEYS.AUDIT_KEY);
  const end = Date.now();
  const step = Math.floor((SPAN_DAYS * DAY_MS) / total);
  let prevHash = head.hash;
  for (let i = 0; i < count; i += 1) {
    const content = seededEvent(from + i, investors, admin, end - (total - from - i) * step);
    const hash = auditRowHash(key, prevHash, content);
    yield [
      head.id + 1 + i,
      ...COLUMNS.slice(1, 9).map((column) => content[column as keyof ChainedContent]),
      prevHash,
      hash,
    ];
    prevHash = hash;
  }
}

function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Which part of a seeded trail to append: `count` rows from row `from` of `total`, so the times grow with the ids. */
type TrailPart = { count: number; from: number; total: number };

/**
 * Appends `count` audit rows to the trail (the investors topped up to AUDIT_INVESTORS first), chained
 * onto its head, in one transaction that holds the chain's lock as the app's appends do, batch by
 * batch. The server's own rows from before (the set-up's sign-ins) stay first, at their real times: the
 * seeded history that follows them begins a year ago.
 */
export async function seedAuditTrail(database: BenchDatabase, part: TrailPart) {
  await seedInvestorsUpTo(database, AUDIT_INVESTORS);
  const accounts = `select id, email from users where role = 'investor' order by created_at limit ${AUDIT_INVESTORS}`;
  const adminQuery = `select id, email from users where email = '${ADMIN.email}'`;
  const head = "select id, hash from audit_events order by id desc limit 1";
  const placeholders = (rows: number, numbered: boolean) =>
    Array.from(
      { length: rows },
      (_, r) => `(${COLUMNS.map((_, c) => (numbered ? `$${r * COLUMNS.length + c + 1}` : "?")).join(", ")})`,
    ).join(", ");

  if (typeof database === "string") {
    const db = new Database(database);
    try {
      db.pragma("busy_timeout = 5000");
      const investors = db.prepare(accounts).all() as Account[];
      const [admin] = db.prepare(adminQuery).all() as Account[];
      const insert = db.prepare(
        `insert into audit_events (${COLUMNS.join(", ")}) values ${placeholders(BATCH, false)}`,
      );
      db.transaction(() => {
        const last = db.prepare(head).get() as { id: number; hash: string };
        for (const batch of batches(chainedRows(part, last, investors, admin), BATCH)) {
          if (batch.length === BATCH) insert.run(...batch.flat());
          else {
            db.prepare(
              `insert into audit_events (${COLUMNS.join(", ")}) values ${placeholders(batch.length, false)}`,
            ).run(...batch.flat());
          }
        }
      }).immediate();
      db.exec("analyze");
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const investors = (await client.query<Account>(accounts)).rows;
    const [admin] = (await client.query<Account>(adminQuery)).rows;
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock(hashtext('audit_events'))");
    const last = (await client.query<{ id: string; hash: string }>(head)).rows[0];
    for (const batch of batches(chainedRows(part, { id: Number(last.id), hash: last.hash }, investors, admin), BATCH)) {
      await client.query(
        `insert into audit_events (${COLUMNS.join(", ")}) values ${placeholders(batch.length, true)}`,
        batch.flat(),
      );
    }
    await client.query("commit");
    await client.query("vacuum analyze audit_events");
  } finally {
    await client.end();
  }
}

export const AUDIT_ROWS = 1_000_000;
/** The small size of the audit page's growth rows. */
const SMALL_AUDIT_ROWS = 10_000;
/** The page's allowance beyond the framework and its statements: verifying nothing new, rendering 50 rows. */
const ALLOWANCE_IN_FLOORS = 3;
/** Rounds of every filter's page, untimed, before the first is timed (the first also verifies the seeded chain). */
const WARM_UP_ROUNDS = 5;

/**
 * The audit page's p95 for each single filter at SMALL_AUDIT_ROWS rows and at AUDIT_ROWS, the second judged
 * against the floors measured beside it, and each filter's growth from one to the other.
 */
export async function auditPageRows(database: BenchDatabase, cookie: string): Promise<Row[]> {
  const today = new Date();
  const day = (daysAgo: number) => new Date(today.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  const filters = [
    { name: "no filter", query: "" },
    { name: "person", query: "?person=investor4242%40example.com" },
    { name: "kind (NDA signed)", query: "?kind=nda.signed.changed" },
    { name: "investor", query: "?investor=investor4242%40example.com" },
    { name: "date range (a week)", query: `?from=${day(100)}&to=${day(94)}` },
  ];
  const headers = { Cookie: cookie };
  const timings = async () => {
    dropIdleConnections();
    // The first page load verifies the seeded rows (the chain watch walks what is new once): not what is measured.
    for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
      for (const filter of filters) await warmUp(`/financing/audit${filter.query}`, headers, 1);
    }
    const each: Judged[] = [];
    for (const filter of filters) each.push(await judgedLatency(`/financing/audit${filter.query}`, headers));
    return each;
  };
  // The first rows of a trail of a million (the oldest), then the rest: the times keep growing with the ids.
  await seedAuditTrail(database, { count: SMALL_AUDIT_ROWS, from: 0, total: AUDIT_ROWS });
  const small = await timings();
  await seedAuditTrail(database, { count: AUDIT_ROWS - SMALL_AUDIT_ROWS, from: SMALL_AUDIT_ROWS, total: AUDIT_ROWS });
  const large = await timings();
  const rows: Row[] = [];
  for (const [index, filter] of filters.entries()) {
    rows.push(
      await judgedAgainstFloors(
        `audit page at ${AUDIT_ROWS.toLocaleString("en-US")} rows: ${filter.name}`,
        large[index],
        ALLOWANCE_IN_FLOORS,
        `≤ ${AUDIT_TARGET_MS} ms`,
      ),
      growthRow(
        `audit page, ${filter.name}`,
        { timing: small[index], size: SMALL_AUDIT_ROWS },
        { timing: large[index], size: AUDIT_ROWS },
        1.5,
      ),
    );
  }
  return rows;
}
