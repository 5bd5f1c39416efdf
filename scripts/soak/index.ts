/**
 * npm run soak: SOAK_CONNECTIONS (50) connections for SOAK_SECONDS (60) of
 * mixed traffic (public pages, logins with right and wrong passwords, the
 * investor and administrator screens, API calls) against the production
 * build on a fresh, seeded database. Passes when there is no 5xx and no
 * failed request, every refusal is the limiter's 429 where it is meant to
 * refuse, peak RSS ends within 20% of its value after the first 10 s, and the
 * server logged no error. Prints its figures; exits 1 when a criterion fails.
 * Shares the bench's server settings (BENCH_PORT, BUILD_DIR; scripts/bench),
 * and starts the server as `npm start` does (scripts/serve.js's heap flag).
 * Like the bench, it runs with --single-threaded-gc (package.json), so that its
 * own collector does not take the server's cores.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { config, origin } from "../bench/config";
import { printTable, type Row } from "../bench/report";
import {
  ADMIN,
  INVESTOR,
  addInvestors,
  createAdministrator,
  createLoginInvestor,
  seedInvestorsUpTo,
} from "../bench/seed";
import { buildIfNeeded, peakRss, startServer } from "../bench/server";
import { apiAccessToken, pageSessionCookie } from "../bench/session";
import { plannedTraffic, randomMix, wrongPasswordAccount, wrongPasswordPool, type Tally } from "./traffic";

const SECONDS = Number(process.env.SOAK_SECONDS || 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS || 50);
const WRONG_PASSWORD_ACCOUNTS = wrongPasswordPool(SECONDS);
/** Peak RSS 10 s into the run is the baseline its end is held to. */
const BASELINE_AFTER_MS = 10_000;
const RSS_GROWTH_ALLOWED = 0.2;
const SIGNED_INVESTOR = { email: "soak-signed@example.com", password: INVESTOR.password };

const MB = 1024 * 1024;
const fmt = (value: number, digits = 1) => value.toFixed(digits);
const step = (text: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${text}`);

async function seed(databasePath: string) {
  await createAdministrator(databasePath);
  // One real hash serves every account that logs in: they all share the investor's password.
  const hash = await createLoginInvestor(databasePath);
  await addInvestors(databasePath, [
    { email: SIGNED_INVESTOR.email, fullName: "Signed Investor", hash, n: 1, nda: 2 },
    ...Array.from({ length: WRONG_PASSWORD_ACCOUNTS }, (_, i) => ({
      email: wrongPasswordAccount(i),
      fullName: `Pool Investor ${i}`,
      hash,
      n: 10 + i,
    })),
  ]);
  await seedInvestorsUpTo(databasePath, 1_000);
}

function growth(from: number | null, to: number | null) {
  if (from === null || to === null) return "unavailable (no /proc)";
  return `${fmt(from / MB)} MB → ${fmt(to / MB)} MB (+${fmt((to / from - 1) * 100)}%)`;
}

type LogLine = { level?: string; event?: string; status?: number };

function readLog(file: string): LogLine[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return { level: "error", event: `not JSON: ${line.slice(0, 120)}` };
      }
    });
}

async function main() {
  step(`build: ${buildIfNeeded()} (${path.relative(process.cwd(), config.buildDir)})`);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "ats-soak-"));
  const databasePath = path.join(temp, "portal.sqlite");
  const logFile = path.join(temp, "server.log");
  // The real per-address auth limit (the bench lifts it), and client addresses from X-Forwarded-For.
  const server = await startServer(databasePath, {
    logFile,
    env: { TRUST_PROXY: "1", AUTH_RATE_LIMIT_PER_MINUTE: undefined },
  });
  const rows: Row[] = [];
  const notes: string[] = [];
  const tally: Tally = new Map();
  let baselineRss: number | null = null;
  const rssSeries: string[] = [];
  try {
    step(`server ${server.pid} on ${origin()}, database ${databasePath}`);
    await seed(databasePath);
    const planned = plannedTraffic(
      {
        investorCookie: await pageSessionCookie(INVESTOR),
        signedInvestorCookie: await pageSessionCookie(SIGNED_INVESTOR),
        adminCookie: await pageSessionCookie(ADMIN),
        adminBearer: await apiAccessToken(ADMIN),
      },
      INVESTOR,
      WRONG_PASSWORD_ACCOUNTS,
    );

    step(`${CONNECTIONS} connections for ${SECONDS} s, ${planned.length} kinds of request at random`);
    const started = Date.now();
    const sampler = setInterval(() => {
      const rss = peakRss(server.pid);
      if (rss === null) return;
      const second = Math.round((Date.now() - started) / 1000);
      if (baselineRss === null && Date.now() - started >= BASELINE_AFTER_MS) baselineRss = rss;
      if (second % 10 === 0) rssSeries.push(`${second} s ${fmt(rss / MB, 0)} MB`);
    }, 1_000);
    // autocannon answers with a thenable, not a Promise: no .finally on it.
    const result = await Promise.resolve(
      autocannon({
        url: origin(),
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 30,
        requests: [randomMix(planned, tally)],
      }),
    ).finally(() => clearInterval(sampler));
    const finalRss = peakRss(server.pid);

    const unexpected: string[] = [];
    let refusedByDesign = 0;
    for (const { label, expected, byDesign } of planned) {
      const counts = tally.get(label)!;
      for (const [status, count] of counts) {
        if (byDesign.includes(status)) refusedByDesign += count;
        else if (!expected.includes(status)) unexpected.push(`${label}: ${count} × ${status}`);
      }
      const summary = [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`);
      notes.push(`${label}: ${summary.join(", ") || "no answer"}`);
    }
    const serverErrors = Object.entries(result.statusCodeStats)
      .filter(([code]) => code.startsWith("5"))
      .reduce((sum, [, stat]) => sum + stat.count, 0);

    rows.push(
      {
        figure: "requests",
        value: `${result.requests.total} in ${result.duration} s (${fmt(result.requests.average, 0)}/s); latency p50 ${
          result.latency.p50
        } ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        target: "",
        pass: null,
      },
      { figure: "5xx answers", value: String(serverErrors), target: "0", pass: serverErrors === 0 },
      {
        figure: "failed requests (errors, timeouts)",
        value: `${result.errors} errors, ${result.timeouts} timeouts`,
        target: "0",
        pass: result.errors === 0 && result.timeouts === 0,
      },
      {
        figure: "answers outside the plan",
        value: unexpected.length === 0 ? "none" : unexpected.join("; "),
        target: "none",
        pass: unexpected.length === 0,
      },
      {
        figure: "refused by design (429, the limiter)",
        value: `${refusedByDesign}, all to the busy address`,
        target: "> 0, nowhere else",
        pass: refusedByDesign > 0,
      },
      {
        figure: "peak RSS: after 10 s → at the end",
        value: growth(baselineRss, finalRss),
        target: `≤ +${RSS_GROWTH_ALLOWED * 100}%`,
        pass: baselineRss === null || finalRss === null ? null : finalRss <= baselineRss * (1 + RSS_GROWTH_ALLOWED),
      },
    );
    notes.push(`peak RSS every 10 s: ${rssSeries.join(", ")}.`);
  } finally {
    await server.stop();
    step("server stopped");
  }

  const log = readLog(logFile);
  const errors = log.filter((line) => line.level === "error");
  const warnings = log.filter((line) => line.level === "warn");
  const logged5xx = log.filter((line) => line.event === "http.request" && Number(line.status) >= 500).length;
  rows.push({
    figure: "server log",
    value: `${log.length} lines; ${errors.length} errors, ${warnings.length} warnings, ${logged5xx} 5xx requests`,
    target: "no error, no 5xx",
    pass: errors.length === 0 && logged5xx === 0,
  });
  const events = (lines: LogLine[]) => [...new Set(lines.map((line) => line.event))].join(", ");
  if (errors.length > 0) notes.push(`error events: ${events(errors)}`);
  if (warnings.length > 0) notes.push(`warning events: ${events(warnings)}`);
  notes.push(`load average (1 min) at the end ${fmt(os.loadavg()[0], 2)} on ${os.cpus().length} cores.`);

  printTable(rows, notes);
  // SOAK_KEEP=1 keeps the database and the server log for a closer look.
  if (process.env.SOAK_KEEP) console.log(`kept ${temp}`);
  else fs.rmSync(temp, { recursive: true, force: true });
  const failed = rows.filter((row) => row.pass === false);
  if (failed.length > 0) {
    console.error(`\nsoak FAILED: ${failed.map((row) => row.figure).join("; ")}`);
    process.exitCode = 1;
  } else {
    console.log("\nsoak passed");
  }
}

main().catch((error: unknown) => {
  console.error(`soak failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
