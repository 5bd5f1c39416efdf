/**
 * The mixed load (issue 32): four kinds of traffic at once, as a portal gets them, each at a fixed rate of
 * arrivals (an open model: a request is sent when its time comes, whether or not the ones before it have been
 * answered, so a slow server cannot slow its own load down, as a closed loop such as autocannon's does). Each
 * request's time runs from when it was due, not from when it was sent. Each class is measured alone, the judged
 * ones beside the logins too, then all together, in the same run.
 *
 * - visitors: the public pages, in turn;
 * - logins: the API login of an investor, at half the login capacity measured just before;
 * - readers: an investor's stamped copy of the shipped PDF, and a seek into the library's video;
 * - an administrator: the table's first page, a search, a deep page, and an NDA flag set and unset.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { config, host, number, origin } from "./config";
import { percentile, serverTimeOf, throughput } from "./measure";
import type { Row } from "./report";
import { ADMIN, addInvestors, INVESTOR, seedInvestorsUpTo, type BenchDatabase } from "./seed";
import { apiAccessToken, pageSessionCookie } from "./session";

type MixedRun = {
  database: BenchDatabase;
  investorHash: string;
  rows: Row[];
  notes: string[];
  adminCookie: () => Promise<string>;
};

/** Seconds each measurement lasts (alone, and together): BENCH_MIXED_SECONDS. */
const SECONDS = number("BENCH_MIXED_SECONDS", 10);
/** The rates, in requests a second, but the logins' (half the capacity measured in the phase). */
const RATES = {
  visitors: number("BENCH_MIXED_VISITORS", 40),
  downloads: number("BENCH_MIXED_DOWNLOADS", 2),
  seeks: number("BENCH_MIXED_SEEKS", 2),
  admin: number("BENCH_MIXED_ADMIN", 4),
};
/** A request unanswered after this long is an error. */
const TIMEOUT_MS = 30_000;
/** An investor whose NDA is signed, who logs in with the bench investor's password. */
const READER_EMAIL = "bench-mixed-reader@example.com";
/** The investor whose NDA flag the administrator sets and unsets (seeded with none). */
const FLAGGED_EMAIL = "investor3@example.com";

const PUBLIC_PAGES = ["/", "/faq", "/pricing", "/aboutus"];
const ADMINISTRATOR = "administrator: table pages and NDA flags";
const LOGINS = "investors: API logins";

type Answer = { ok: boolean; serverMs: number };
type Outcome = Answer & { ms: number; turn: number };
type LoadClass = {
  name: string;
  perSecond: number;
  /** Sends one request; resolves whether it was answered as it should be, and the server's own time. */
  send: (turn: number) => Promise<Answer>;
  /**
   * The verdict beside "no error": a p95 limit from the class's own p95 beside the logins and the
   * administrator's (the longest turns the event loop takes in this load), both measured in the same run.
   */
  target: { p95?: (besideLogins: number, administratorBesideLogins: number) => number; words: string };
  /** A millisecond figure for a quiet 2-core machine: information, not a verdict (it reads the machine). */
  reference?: string;
  /** The kind of request a turn sends, where a class sends more than one: its notes break the times down by it. */
  kindOf?: (turn: number) => string;
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One request: whether its status was `expected` (the body is read and dropped), and its Server-Timing total. */
function send(
  path: string,
  expected: number,
  options: { method?: string; headers?: Record<string, string>; body?: string; firstByteOnly?: boolean } = {},
): Promise<Answer> {
  return new Promise((answer) => {
    let serverMs = NaN;
    const resolve = (ok: boolean) => answer({ ok, serverMs });
    const req = http.request(
      {
        host,
        port: config.port,
        path,
        method: options.method ?? "GET",
        headers: options.headers,
        agent: options.firstByteOnly ? false : agent,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        serverMs = serverTimeOf(res.headers).serverMs;
        if (options.firstByteOnly) {
          res.once("data", () => {
            resolve(res.statusCode === expected);
            req.destroy();
          });
          res.once("end", () => resolve(res.statusCode === expected));
          return;
        }
        res.resume();
        res.on("end", () => resolve(res.statusCode === expected));
        res.on("error", () => resolve(false));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", () => resolve(false));
    req.end(options.body);
  });
}

/** Runs the classes side by side at their rates for SECONDS; each request's time counts from when it was due. */
async function openLoad(classes: LoadClass[]): Promise<Map<string, Outcome[]>> {
  const outcomes = new Map(classes.map((load) => [load.name, [] as Outcome[]]));
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(
    classes.map(
      (load) =>
        new Promise<void>((scheduled) => {
          let turn = 0;
          const tick = () => {
            const now = performance.now();
            for (let due = start + (turn * 1000) / load.perSecond; due <= now && due < end;) {
              const intended = due;
              const sentTurn = turn;
              const sent = load.send(sentTurn).then((answer) => {
                outcomes.get(load.name)!.push({ ...answer, ms: performance.now() - intended, turn: sentTurn });
              });
              inFlight.push(sent);
              turn += 1;
              due = start + (turn * 1000) / load.perSecond;
            }
            const next = start + (turn * 1000) / load.perSecond;
            if (next >= end) return scheduled();
            setTimeout(tick, Math.max(0, next - performance.now()));
          };
          tick();
        }),
    ),
  );
  await Promise.all(inFlight);
  return outcomes;
}

const fmt = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(1));

/** p95 together and alone of each kind of request a class sends. */
function byKind(load: LoadClass, together: Outcome[], alone: Outcome[]) {
  const kinds = [...new Set(together.map((outcome) => load.kindOf!(outcome.turn)))];
  return kinds
    .map((kind) => {
      const of = (outcomes: Outcome[]) => summary(outcomes.filter((outcome) => load.kindOf!(outcome.turn) === kind));
      const [mixed, apart] = [of(together), of(alone)];
      return `${kind} p95 ${fmt(mixed.p95)} ms of ${mixed.count} (alone ${fmt(apart.p95)} ms)`;
    })
    .join(", ");
}

function summary(outcomes: Outcome[]) {
  const times = outcomes.map((outcome) => outcome.ms);
  const serverTimes = outcomes.map((outcome) => outcome.serverMs).filter((ms) => !Number.isNaN(ms));
  return {
    count: outcomes.length,
    errors: outcomes.filter((outcome) => !outcome.ok).length,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    serverP95: percentile(serverTimes, 0.95),
  };
}

async function classes(run: MixedRun): Promise<LoadClass[]> {
  await seedInvestorsUpTo(run.database, 1000);
  await addInvestors(run.database, [
    { email: READER_EMAIL, fullName: "Bench Mixed Reader", hash: run.investorHash, n: 1, nda: 2 },
  ]);
  const reader = { email: READER_EMAIL, password: INVESTOR.password };
  const readerCookie = await pageSessionCookie(reader);
  const readerToken = await apiAccessToken(reader);
  const adminCookie = await run.adminCookie();
  const adminToken = await apiAccessToken(ADMIN);

  const library = await fetch(`${origin()}/api/materials`, { headers: { Authorization: `Bearer ${readerToken}` } });
  const { documents } = (await library.json()) as { documents: { id: string; kind: string; size: number }[] };
  const video = documents.find((document) => document.kind === "video");
  if (!video) throw new Error("The library has no video to seek into.");

  const capacity = await throughput(`${origin()}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: INVESTOR.email, password: INVESTOR.password }),
    seconds: 4,
  });
  const loginRate = number("BENCH_MIXED_LOGINS", Math.max(1, Math.round(capacity.perSecond / 2)));
  run.notes.push(
    `mixed load: login capacity ${fmt(capacity.perSecond)}/s (closed loop, ${config.connections} connections); rates per second: visitors ${RATES.visitors}, logins ${loginRate}, stamped downloads ${RATES.downloads}, seeks ${RATES.seeks}, administrator ${RATES.admin}; ${SECONDS} s each.`,
  );

  const json = { "Content-Type": "application/json" };
  const adminPage = (path: string) => () => send(path, 200, { headers: { Cookie: adminCookie } });
  const adminRequests = [
    { kind: "first page", send: adminPage("/financing") },
    { kind: "search", send: adminPage("/financing?q=smith") },
    { kind: "page 10", send: adminPage("/financing?page=10") },
    {
      kind: "NDA change",
      send: (turn: number) =>
        send("/api/user/update_nda_sent", 201, {
          method: "POST",
          headers: { ...json, Authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ email: FLAGGED_EMAIL, state: turn % 8 === 3 }),
        }),
    },
  ];
  return [
    {
      name: "visitors: public pages",
      perSecond: RATES.visitors,
      send: (turn) => send(PUBLIC_PAGES[turn % PUBLIC_PAGES.length], 200, { headers: { "Accept-Encoding": "gzip" } }),
      // The loop answers one request at a time: a page may wait for one of its longest turns, not for a queue of them.
      target: {
        p95: (besideLogins, administratorBesideLogins) => besideLogins + administratorBesideLogins,
        words: "p95 ≤ its p95 beside the logins + the administrator's p95 beside the logins; no error",
      },
      reference: "p95 ≤ 10 ms",
    },
    {
      name: LOGINS,
      perSecond: loginRate,
      send: () =>
        send("/api/auth/login", 200, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ email: INVESTOR.email, password: INVESTOR.password }),
        }),
      target: { words: "no error" },
    },
    {
      name: "investors: stamped PDF downloads",
      perSecond: RATES.downloads,
      send: () => send("/pdfs/download.pdf", 200, { headers: { Cookie: readerCookie } }),
      // Stamped below the default priority (decision 0027): a busy neighbour at the default decides its time.
      target: { words: "no error" },
      reference: "p95 ≤ 200 ms",
    },
    {
      name: "investors: video seeks (first byte)",
      perSecond: RATES.seeks,
      send: () =>
        send(`/financing/materials/${video.id}/file`, 206, {
          headers: { Cookie: readerCookie, Range: `bytes=${Math.floor(video.size / 2)}-` },
          firstByteOnly: true,
        }),
      target: { words: "no error" },
    },
    {
      name: ADMINISTRATOR,
      perSecond: RATES.admin,
      send: (turn) => adminRequests[turn % adminRequests.length].send(turn),
      target: { p95: (besideLogins) => 2 * besideLogins, words: "p95 ≤ twice its p95 beside the logins; no error" },
      reference: "p95 ≤ 50 ms",
      kindOf: (turn) => adminRequests[turn % adminRequests.length].kind,
    },
  ];
}

/**
 * A judged class's floor is its load beside the logins alone, at the same rates: the logins' argon2 takes a core's
 * share that on a machine with a busy neighbour the event loop then waits for, so a floor without them would set
 * the quiet machine's times against the busy machine's load (measured so, the same code failed beside a
 * CPU-bound process and passed without it). Beside the logins the floor meets the same shortage, and what the
 * verdict still sees is what the other classes add: the administrator's turns, the stamping, the seeks.
 */
export async function mixedLoad(run: MixedRun) {
  const loads = await classes(run);
  const logins = loads.find((load) => load.name === LOGINS)!;
  const alone = new Map<string, Outcome[]>();
  for (const load of loads) alone.set(load.name, (await openLoad([load])).get(load.name)!);
  const besideLogins = new Map<string, Outcome[]>();
  for (const load of loads.filter((load) => load.target.p95))
    besideLogins.set(load.name, (await openLoad([load, logins])).get(load.name)!);
  const clientDelay = monitorEventLoopDelay({ resolution: 1 });
  clientDelay.enable();
  const together = await openLoad(loads);
  clientDelay.disable();
  run.notes.push(
    `mixed load: the bench's own event loop, together: delay p95 ${fmt(clientDelay.percentile(95) / 1e6)} ms, ` +
      `p99 ${fmt(clientDelay.percentile(99) / 1e6)} ms, max ${fmt(clientDelay.max / 1e6)} ms (it counts in every time).`,
  );
  const administratorFloor = summary(besideLogins.get(ADMINISTRATOR)!).p95;
  for (const load of loads) {
    const mixed = summary(together.get(load.name)!);
    const apart = summary(alone.get(load.name)!);
    const floor = besideLogins.has(load.name) ? summary(besideLogins.get(load.name)!) : undefined;
    const limit = floor && load.target.p95?.(floor.p95, administratorFloor);
    const within = limit === undefined || mixed.p95 <= limit;
    if (load.kindOf)
      run.notes.push(
        `mixed load: ${load.name}, by request: ${byKind(load, together.get(load.name)!, alone.get(load.name)!)}.`,
      );
    run.rows.push({
      figure: `mixed load: ${load.name}`,
      value:
        `p50 ${fmt(mixed.p50)}, p95 ${fmt(mixed.p95)}, p99 ${fmt(mixed.p99)} ms, ${mixed.errors} errors of ${mixed.count}` +
        (floor ? ` (beside the logins: p95 ${fmt(floor.p95)} ms, ${floor.errors} errors)` : ""),
      target: limit === undefined ? load.target.words : `${load.target.words} (≤ ${fmt(limit)} ms)`,
      floor: floor ? "the class beside the logins alone, at the same rates" : "each class alone",
      absolute:
        `alone: p95 ${fmt(apart.p95)} ms, ${apart.errors} errors; server's p95 together ${fmt(mixed.serverP95)} ms, ` +
        `alone ${fmt(apart.serverP95)} ms` +
        (load.reference ? `; quiet 2-core reference ${load.reference}` : ""),
      pass: within && mixed.errors === 0 && apart.errors === 0 && (floor?.errors ?? 0) === 0,
    });
  }
}
