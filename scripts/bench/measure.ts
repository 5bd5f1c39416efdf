/**
 * The ways a figure is measured: throughput under load, one-at-a-time latency, and raw argon2
 * in a process set up like the server.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import autocannon from "autocannon";
import { coresButOne } from "../../app/server/cores.server";
import { serverProcessEnv } from "../serve.js";
import { config, host } from "./config";

export type Throughput = { perSecond: number; ok: number; failed: number; seconds: number };

/** Requests per second of 2xx/3xx answers for one URL, with config.connections connections for `seconds`. */
export async function throughput(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; seconds?: number } = {},
): Promise<Throughput> {
  const seconds = options.seconds ?? config.seconds;
  const result = await autocannon({
    url,
    connections: config.connections,
    duration: seconds,
    timeout: 30,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
  });
  const codes = result.statusCodeStats ?? {};
  const count = (prefix: string) =>
    Object.entries(codes)
      .filter(([code]) => code.startsWith(prefix))
      .reduce((sum, [, stat]) => sum + stat.count, 0);
  const ok = count("2") + count("3");
  const failed = result.requests.total - ok + result.errors;
  return { perSecond: ok / result.duration, ok, failed, seconds: result.duration };
}

/**
 * Two URLs measured back to back in alternating slices (a, b, b, a, a, b, …), so that
 * whatever else the shared machine does weighs on both alike, and each goes first as often; totals per URL.
 * `request` is the same for both: headers, and a method and body for a POST.
 * With `pids`, the servers answering a and b, each side also sums the CPU its server and the database's
 * backends spent in its slices (and its server's main thread's alone), and each slice starts once both servers
 * are idle: the requests a slice leaves queued would otherwise run beside the next one, on its CPU's shared
 * caches. Null without /proc.
 */
export async function sideBySide(
  a: string,
  b: string,
  request: { headers: Record<string, string>; method?: string; body?: string },
  slices = 4,
  pids?: { a: number; b: number },
) {
  const slice = config.seconds / (slices / 2);
  const side = () => ({
    ok: 0,
    failed: 0,
    seconds: 0,
    cpuMs: pids ? (0 as number | null) : null,
    loopCpuMs: pids ? (0 as number | null) : null,
  });
  const totals = { a: side(), b: side() };
  for (let i = 0; i < slices; i += 1) {
    const which = i % 4 === 0 || i % 4 === 3 ? "a" : "b";
    if (pids) await idle([pids.a, pids.b]);
    const cpu = () => {
      const [server, loop] = pids ? [serverCpuMs(pids[which]), loopCpuMs(pids[which])] : [null, null];
      return server === null || loop === null ? null : { all: server + databaseCpuMs(), loop };
    };
    const before = cpu();
    const run = await throughput(which === "a" ? a : b, { ...request, seconds: slice });
    const after = cpu();
    const total = totals[which];
    total.ok += run.ok;
    total.failed += run.failed;
    total.seconds += run.seconds;
    const measured = before !== null && after !== null;
    total.cpuMs = measured && total.cpuMs !== null ? total.cpuMs + after.all - before.all : null;
    total.loopCpuMs = measured && total.loopCpuMs !== null ? total.loopCpuMs + after.loop - before.loop : null;
  }
  const result = (total: ReturnType<typeof side>) => ({
    ...total,
    perSecond: total.ok / total.seconds,
    cpuMsPerRequest: total.cpuMs === null ? null : total.cpuMs / total.ok,
    loopCpuMsPerRequest: total.loopCpuMs === null ? null : total.loopCpuMs / total.ok,
  });
  return { a: result(totals.a), b: result(totals.b) };
}

/** Resolves once none of `pids` has used CPU for a tenth of a second (two seconds at most). */
async function idle(pids: number[]) {
  const used = () => pids.reduce((sum, pid) => sum + (serverCpuMs(pid) ?? 0), 0);
  let before = used();
  for (let waited = 0; waited < 2000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = used();
    if (now === before) return;
    before = now;
  }
}

/**
 * argon2.verify of `hash` per second, `atOnce` at a time (by default as many as the server lets run,
 * a core but one), for `seconds`: in a child process started like the server (same thread pool size),
 * so only the login's own work differs.
 */
export async function argon2VerifiesPerSecond(
  hash: string,
  password: string,
  seconds = config.seconds,
  atOnce = Math.min(config.connections, coresButOne()),
) {
  return (await argon2Verifies(hash, password, seconds, atOnce)).perSecond;
}

/** As argon2VerifiesPerSecond, with the child's CPU time (every thread) per verification. */
export async function argon2Verifies(
  hash: string,
  password: string,
  seconds = config.seconds,
  atOnce = Math.min(config.connections, coresButOne()),
) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "argon2-verify.js"), String(seconds), String(atOnce)],
    {
      env: serverProcessEnv(),
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  child.stdin.end(JSON.stringify({ hash, password }));
  const [output, [code]] = await Promise.all([text(child.stdout), once(child, "exit")]);
  if (code !== 0) throw new Error(`The raw argon2 check exited with ${code}.`);
  return JSON.parse(output) as { perSecond: number; cpuMsPerVerify: number };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Closes the kept-alive connection. Call it after blocking work (seeding): the
 * server may have closed the idle socket meanwhile, and a request written onto it
 * before its close is read would fail with "socket hang up".
 */
export function dropIdleConnections() {
  agent.destroy();
}

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number } & ServerTime;

/** One request over a kept-alive loopback connection; `ms` is from sending to the last byte. */
export function request(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      { host, port: config.port, path, method: options.method ?? "GET", headers: options.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            ...serverTimeOf(res.headers),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The server's own time and its database's share (its Server-Timing header, on for the bench: serverEnv). */
export type ServerTime = { serverMs: number; databaseMs: number };

/** Server-Timing's `total` and `db`, NaN each when the answer has none. */
export function serverTimeOf(headers: http.IncomingHttpHeaders): ServerTime {
  const header = String(headers["server-timing"] ?? "");
  const duration = (name: string) => Number(new RegExp(`(?:^|,)\\s*${name};dur=([\\d.]+)`).exec(header)?.[1] ?? NaN);
  return { serverMs: duration("total"), databaseMs: duration("db") };
}

/**
 * A GET whose body is counted and dropped as it comes: its status, its length and its time to the last byte, in ms.
 * The bench shares two cores with the server, so a large body kept (a stamped PDF, a megabyte of video) would
 * cost the bench's own collector time that the server's figures would pay for. `port` names another server
 * than the bench's own.
 */
export function getCounted(
  path: string,
  headers: Record<string, string>,
  port = config.port,
): Promise<{ status: number; bytes: number; ms: number } & ServerTime> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host, port, path, headers, agent }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          ...serverTimeOf(res.headers),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** One GET that must answer 200; its time from sending to the last byte, and the server's own, in ms. */
export async function getOk(path: string, headers: Record<string, string>) {
  let answer = await getCounted(path, headers);
  // A database out of reach for a moment (a connection or a statement past its timeout on an overloaded machine)
  // is answered 503 with Retry-After: asked again, as a client would, and counted in the run's notes.
  for (let retry = 0; answer.status === 503 && retry < 3; retry += 1) {
    unavailableAnswers.push(path);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    answer = await getCounted(path, headers);
  }
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}, not 200.`);
  return answer;
}

/** The paths answered 503 and asked again (getOk), for the run's notes. */
export const unavailableAnswers: string[] = [];

/** Asks for `path` `times` times without timing it; throws on any non-200 answer. */
export async function warmUp(path: string, headers: Record<string, string>, times: number) {
  for (let i = 0; i < times; i += 1) await getOk(path, headers);
}

/** p95 and median of a set of times, in ms. */
export type Spread = { p95: number; p50: number };

const spread = (times: number[]): Spread => ({ p95: percentile(times, 0.95), p50: percentile(times, 0.5) });

/**
 * A row's timings: the client's (sending to the last byte), the server's own (Server-Timing's total) and its
 * database statements' share, the server process's CPU per request, and the load average as the row began.
 */
export type Latency = Spread & {
  samples: number;
  server: Spread;
  database: Spread;
  cpuMsPerRequest: number | null;
  /** The server's event loop's CPU time per request (its main thread's, to the nanosecond); null without /proc. */
  loopCpu: Spread | null;
  /**
   * What a request cost in CPU where its work is done: the event loop's, and on PostgreSQL its backends' as well
   * (SQLite's statements run on the event loop). Null without /proc.
   */
  requestCpu: Spread | null;
  loadAtStart: number;
};

type Timed = { ms: number } & ServerTime;

/**
 * p95 (and median) of `samples` sequential requests after a short warm-up; throws on any non-200 answer.
 * `beside`, a floor's request, is asked after each of the row's, so that both meet the same moments of a busy
 * machine; its timings come back as the Latency's `beside`.
 */
export async function latency(
  path: string,
  headers: Record<string, string>,
  samples = config.samples,
  beside?: () => Promise<Timed>,
): Promise<Latency & { beside?: Latency }> {
  await warmUp(path, headers, 5);
  return timedRequests(samples, () => getOk(path, headers), beside);
}

/** What a row's requests took, as a Latency. */
class Tally {
  readonly answers: Timed[] = [];
  cpuMs: number | null = 0;
  readonly loopCpuMs: number[] = [];
  readonly requestCpuMs: number[] = [];
  readonly loadAtStart = os.loadavg()[0];

  /** One request, and the server's CPU while it ran (read from /proc before and after). */
  async add(ask: () => Promise<Timed>) {
    const before = serverCpuMs();
    const loopBefore = loopCpuMs();
    const databaseBefore = databaseCpuMs();
    this.answers.push(await ask());
    const databaseAfter = databaseCpuMs();
    const loopAfter = loopCpuMs();
    const after = serverCpuMs();
    this.cpuMs = before === null || after === null || this.cpuMs === null ? null : this.cpuMs + after - before;
    if (loopBefore !== null && loopAfter !== null) {
      this.loopCpuMs.push(loopAfter - loopBefore);
      this.requestCpuMs.push(loopAfter - loopBefore + databaseAfter - databaseBefore);
    }
  }

  latency(): Latency {
    const of = (pick: (answer: Timed) => number) => spread(this.answers.map(pick));
    return {
      ...of((answer) => answer.ms),
      samples: this.answers.length,
      server: of((answer) => answer.serverMs),
      database: of((answer) => answer.databaseMs),
      cpuMsPerRequest: this.cpuMs === null ? null : this.cpuMs / this.answers.length,
      loopCpu: this.loopCpuMs.length === this.answers.length ? spread(this.loopCpuMs) : null,
      requestCpu: this.requestCpuMs.length === this.answers.length ? spread(this.requestCpuMs) : null,
      loadAtStart: this.loadAtStart,
    };
  }
}

/**
 * `samples` answers of `ask`, one after another, as a Latency (what `ask` does before its request is not timed);
 * with `beside`, one of its answers after each, timed apart (see latency).
 */
export async function timedRequests(
  samples: number,
  ask: () => Promise<Timed>,
  beside?: () => Promise<Timed>,
): Promise<Latency & { beside?: Latency }> {
  const own = new Tally();
  const floor = new Tally();
  for (let i = 0; i < samples; i += 1) {
    await own.add(ask);
    if (beside) await floor.add(beside);
  }
  return { ...own.latency(), ...(beside && { beside: floor.latency() }) };
}

/**
 * The measured server's main thread's CPU time so far, in ms to the nanosecond (/proc/<pid>/schedstat's first
 * field): the event loop, where a request's JavaScript and SQLite's statements run. Unlike the wall-clock time it
 * does not grow while the thread waits for a core, so a busy machine moves it least. Null without /proc.
 */
export function loopCpuMs(pid = measuredPid): number | null {
  if (pid === null) return null;
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

/** The server whose CPU the rows read (index.ts names it as each server starts). */
let measuredPid: number | null = null;

export function measureServer(pid: number) {
  measuredPid = pid;
}

/** The PostgreSQL cluster's postmaster, whose backends run the measured server's statements; null on SQLite. */
let postmasterPid: number | null = null;

export function measureDatabase(postmaster: number | null) {
  postmasterPid = postmaster;
}

/**
 * The CPU time so far, in ms to the nanosecond, of every process the postmaster has started (the backends
 * serving the server's pool among them); 0 on SQLite. A backend that exits between two readings takes its
 * time with it, which the pool's long-lived connections make rare.
 */
export function databaseCpuMs(): number {
  if (postmasterPid === null) return 0;
  let total = 0;
  for (const pid of childrenOf(postmasterPid)) total += loopCpuMs(pid) ?? 0;
  return total;
}

function childrenOf(pid: number): number[] {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((task) =>
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/**
 * The measured server's CPU time so far (user and system, every thread: the stamping threads too), in ms, from
 * /proc/<pid>/stat: what process.cpuUsage() would say inside it, read from outside. Null without /proc.
 */
export function serverCpuMs(pid = measuredPid): number | null {
  if (pid === null) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command's closing parenthesis begin at the third (state); utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}
