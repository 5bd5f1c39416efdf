/**
 * The ways a figure is measured: throughput under load, one-at-a-time latency, and raw argon2
 * in a process set up like the server.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
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
 * Two URLs measured back to back in alternating slices (a, b, a, b), so that
 * whatever else the shared machine does weighs on both alike; totals per URL.
 * `request` is the same for both: headers, and a method and body for a POST.
 */
export async function sideBySide(
  a: string,
  b: string,
  request: { headers: Record<string, string>; method?: string; body?: string },
  slices = 4,
) {
  const slice = config.seconds / (slices / 2);
  const totals = { a: { ok: 0, failed: 0, seconds: 0 }, b: { ok: 0, failed: 0, seconds: 0 } };
  for (let i = 0; i < slices; i += 1) {
    const which = i % 2 === 0 ? "a" : "b";
    const run = await throughput(which === "a" ? a : b, { ...request, seconds: slice });
    totals[which].ok += run.ok;
    totals[which].failed += run.failed;
    totals[which].seconds += run.seconds;
  }
  return {
    a: { ...totals.a, perSecond: totals.a.ok / totals.a.seconds },
    b: { ...totals.b, perSecond: totals.b.ok / totals.b.seconds },
  };
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
  return (JSON.parse(output) as { perSecond: number }).perSecond;
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

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number };

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
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
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
): Promise<{ status: number; bytes: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host, port, path, headers, agent }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, bytes, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** One GET that must answer 200; its time from sending to the last byte, in ms. */
async function getOk(path: string, headers: Record<string, string>) {
  const answer = await getCounted(path, headers);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}, not 200.`);
  return answer.ms;
}

/** Asks for `path` `times` times without timing it; throws on any non-200 answer. */
export async function warmUp(path: string, headers: Record<string, string>, times: number) {
  for (let i = 0; i < times; i += 1) await getOk(path, headers);
}

/** p95 (and median) of `samples` sequential requests after a short warm-up; throws on any non-200 answer. */
export async function latency(path: string, headers: Record<string, string>, samples = config.samples) {
  await warmUp(path, headers, 5);
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) times.push(await getOk(path, headers));
  return { p95: percentile(times, 0.95), p50: percentile(times, 0.5), samples: times.length };
}

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}
