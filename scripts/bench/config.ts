/** Every knob of `npm run bench`, from the environment, with defaults that keep a run well under ten minutes. */
import path from "node:path";

/** A positive number from the environment, or `fallback` when it is unset. */
export function number(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not '${raw}'.`);
  return value;
}

export const root = path.resolve(import.meta.dirname, "../..");

export const config = {
  /** Its own build folder, so a run never disturbs anyone else's build (BUILD_DIR overrides). */
  buildDir: path.resolve(root, process.env.BUILD_DIR || ".tmp/build-bench"),
  port: number("BENCH_PORT", 3480),
  /** Seconds of load for each throughput figure (pages, logins, raw argon2). */
  seconds: number("BENCH_SECONDS", 8),
  connections: number("BENCH_CONNECTIONS", 8),
  /** Timed requests per administrator-table query (p95 taken over these). */
  samples: number("BENCH_SAMPLES", 60),
  tableInvestors: number("BENCH_TABLE_INVESTORS", 100_000),
  apiInvestors: number("BENCH_API_INVESTORS", 10_000),
  /** Lighthouse runs per page on the mobile preset; the row is their median run (scripts/bench/lighthouse.ts). */
  lighthouseRuns: number("BENCH_LIGHTHOUSE_RUNS", 5),
  /** BENCH_CPU_PROF=1 starts the server with --cpu-prof and prints where its time went. */
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  /** BENCH_WRITE=0 prints the table without rewriting docs/performance.md. */
  writeDoc: process.env.BENCH_WRITE !== "0",
  /** BENCH_POSTGRES=0 leaves out the PostgreSQL rows (which start a throwaway cluster: scripts/pg-cluster.sh). */
  postgres: process.env.BENCH_POSTGRES !== "0",
  /** BENCH_SLOW_LOADER_MS: the run serves a copy of the build whose BENCH_SLOW_ROUTE loader spins this long first. */
  slowLoaderMs: process.env.BENCH_SLOW_LOADER_MS ? number("BENCH_SLOW_LOADER_MS", 5) : null,
  slowRoute: process.env.BENCH_SLOW_ROUTE || "routes/financing.admins",
  /** The port of that throwaway cluster (BENCH_POSTGRES_PORT), so two runs on one machine need not share one. */
  postgresPort: process.env.BENCH_POSTGRES_PORT || "25435",
  /**
   * BENCH_BESIDE=cpu: a process spinning one core runs beside the whole run (scripts/bench/neighbour.ts), and
   * the table is written as the run beside it, its verdicts set against the last quiet run's.
   */
  besideCpu: process.env.BENCH_BESIDE === "cpu",
};

export const host = "127.0.0.1";
export const origin = (port = config.port) => `http://${host}:${port}`;
