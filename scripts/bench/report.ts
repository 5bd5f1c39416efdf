/** The one table of a run: printed to the terminal and written into docs/performance.md between markers. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./config";

/**
 * One row of the table: `value` is the figure its verdict judges and `target` what judges it; a latency row also
 * names the floor it is judged against, the client's own p95 (`absolute`, information only), the server's CPU
 * per request, and the load average (1 min) as it began.
 */
export type Row = {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
  floor?: string;
  absolute?: string;
  cpu?: string;
  load?: number;
};

const verdict = (pass: boolean | null) => (pass === null ? "not measured" : pass ? "pass" : "FAIL");

const HEADER = [
  "figure",
  "judged figure",
  "target",
  "floor",
  "absolute (information)",
  "CPU/request",
  "load",
  "result",
];

const cellsOf = (row: Row) => [
  row.figure,
  row.value,
  row.target,
  row.floor ?? "",
  row.absolute ?? "",
  row.cpu ?? "",
  row.load === undefined ? "" : row.load.toFixed(2),
  verdict(row.pass),
];

export function markdownTable(rows: Row[]): string {
  const lines = [`| ${HEADER.join(" | ")} |`, `|${HEADER.map(() => "---").join("|")}|`];
  for (const row of rows) lines.push(`| ${cellsOf(row).join(" | ")} |`);
  return lines.join("\n");
}

export function printTable(rows: Row[], notes: string[] = []) {
  const cells = rows.map(cellsOf);
  const header = HEADER;
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i].length)));
  const line = (cell: string[]) => cell.map((text, i) => text.padEnd(widths[i])).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const cell of cells) console.log(line(cell));
  if (notes.length > 0) console.log(`\n${notes.map((note) => `- ${note}`).join("\n")}`);
}

/** The command as typed, with the knobs that were set, so the run can be repeated. */
export function exactCommand(): string {
  const knobs = Object.entries(process.env)
    .filter(([name]) => name.startsWith("BENCH_") || name === "BUILD_DIR")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`);
  return [...knobs, "npm run bench"].join(" ");
}

const START = "<!-- bench:start (written by npm run bench; edit outside these markers) -->";
const END = "<!-- bench:end -->";
const BUSY_START =
  "<!-- bench:beside:start (written by BENCH_BESIDE=cpu npm run bench; edit outside these markers) -->";
const BUSY_END = "<!-- bench:beside:end -->";

const INTRO = `# Performance

Figures come from \`npm run bench\` (scripts/bench/), not from timed tests: it builds if needed,
starts the production server (\`node server.js\`) on 127.0.0.1 with a fresh database in a temporary
folder, seeds it, measures, prints one table and rewrites the section below. Every target is a ratio
measured side by side in one run, a size, or the server's own time (Server-Timing) against floors measured
beside it, because the machines are shared and noisy (decision 0032).

Knobs (environment): BENCH_SECONDS (load per throughput figure, default 8), BENCH_CONNECTIONS (8),
BENCH_SAMPLES (timed requests per table query, 60), BENCH_PORT (3480), BUILD_DIR (.tmp/build-bench),
BENCH_TABLE_INVESTORS (100000), BENCH_API_INVESTORS (10000), BENCH_LIGHTHOUSE_RUNS (5, mobile),
BENCH_CPU_PROF=1 (profile the server and print its hottest functions),
BENCH_ONLY=pages,logins,metrics,api,table,search,audit,stamping,sizes,lighthouse,administratorsPage,investorPage,readingReport,materials,hostilePdfs,
stampingShare,mixed (a subset), BENCH_WRITE=0 (leave this file alone), CHROME_PATH (the Chromium for Lighthouse), BENCH_POSTGRES=0 (no
PostgreSQL rows), BENCH_POSTGRES_PORT (the throwaway cluster's port, 25435), BENCH_BESIDE=cpu (a CPU-bound process
beside the whole run, written as a section of its own and set against the quiet run).

## How each figure is measured

- **public page vs static file**: GET /faq is fetched once and its HTML written into the build's
  client folder, so the same server serves the very same bytes as a static file under /build/.
  autocannon then drives both with the same connections and \`Accept-Encoding: gzip\`, in alternating
  slices (page, file, page, file) of one run; the figure is page requests/s over file requests/s.
- **login cost**: successful POST /api/auth/login (one verified investor, JSON body) set against
  argon2.verify of that investor's stored hash (the app's own parameters) in a child process
  started with the server's environment (scripts/bench/argon2-verify.js), so with the same thread pool: libuv's default
  four threads on two cores verify about a tenth slower than two, which flattered the login. As many checks at
  once as the server lets run (a core but one, app/models/account/password.server.ts), in alternating slices like the
  pages. The judged figure is CPU: the child's per verification (\`process.cpuUsage\`, every thread) over the
  server's per login (/proc, every thread, and PostgreSQL's backends), since a rate ratio counted the login's
  other work as free whenever a core was spare (decision 0032). The rates' ratio, and the event loop's and the
  database's share of a login's CPU, are information; a note gives raw argon2 on every core too, what the
  server's limit costs the logins' ceiling. AUTH_RATE_LIMIT_PER_MINUTE is raised for the run so the per-address
  limit is not what is measured.
- **metrics on vs off**: what the Prometheus metrics cost (docs/operations.md). Two fresh servers on the run's
  SQLite file: one as in production (metrics on, on a listener of their own) on BENCH_PORT + 1, one with
  \`METRICS=off\` (no listener, no request or statement observed) on BENCH_PORT + 2. Both are warmed for
  3 s, then the public page (GET /faq, \`Accept-Encoding: gzip\`) and the API login are each driven in eight
  slices (on, off, off, on, …, each once both servers are idle). They take turns, so only one is under load
  at a time, and the run's own server, loaded by the phases before, idles meanwhile. Each figure is CPU per
  answer, off over on: each server's event loop (where every observation runs) is its own, the rest (argon2's
  threads, PostgreSQL's backends) the two servers' mean, as the same code on the same input. A login must cost
  at most a twentieth more with metrics on (0.95). The page has no target: it shows the order of the
  instrumentation's cost on the cheapest answer there is. The rates are information.
- **administrator table**: p95 of sequential requests over one kept-alive loopback connection with an
  administrator's session cookie (logged in through the /financing/login form): first page, a deep page, a
  search (\`q=smith\`, one name in ten) and a filtered count (\`nda=signed\`). Before any is timed, the four
  are asked for ten times in turn, and each again five times before its own samples: a fresh server's first
  table pages are V8 compiling the table's code (over the first thirty the median falls from about 20 ms to
  13, the same with the young generation sized up front), a cost paid once per process and not the page's.
  Time is from sending the request to the last byte, so it includes rendering the whole page.
- **get_investors**: p95 of 10 sequential GET /api/user/get_investors with an administrator's bearer token; the
  page of 100: p95 of 20 sequential \`?limit=100&cursor=…\` at the middle of the list (the cursor reached by
  walking there 500 at a time, untimed).
- **PostgreSQL rows** ("PostgreSQL: …"): the login, get_investors and admin-table figures again, measured the same
  way on the same build with \`DATABASE_URL\` set, after the SQLite server has stopped: a throwaway PostgreSQL
  cluster on loopback (scripts/pg-cluster.sh, default settings, fsync on) on the same machine, so the database's
  own work competes with the server's for the cores. \`BENCH_POSTGRES=0\` leaves them out.
- **JavaScript shipped**: gzip bytes of the entry, each route of the page's branch (module and imports)
  from build/client/manifest-*.js, and the manifest file when the page loads it; shared chunks once.
- **hostile PDF upload**: POST /api/materials as an administrator of PDFs made to make each stamped copy
  costly (tests/support/hostile-pdfs.ts): 3000 empty pages, a deflate bomb split over four pages, and one of a
  single 120 MiB stream (the issue's 124 KB); each row says whether it was refused or kept, its time, and how
  far the server's resident memory rose meanwhile (sampled every 20 ms).
- **one-page PDF beside another reader's bursts** (scripts/bench/stamping-share.ts, decision 0027): p95 of a
  reader's sequential GET /pdfs/download.pdf alone, and while a second reader fires 20 GETs of a 50-page
  library PDF at once from a thread of its own (so that its work is not on the measuring client's event loop),
  each on a connection of its own, and again as soon as the last is answered: six slices
  of each, alternating, so that a machine busier for a while weighs on both. The burst's
  answers are tallied (200s, the 429s of copies beyond the reader's share); a 503, or a refusal of the one-page
  reader, fails the row. STAMPED_COPIES_PER_MINUTE is raised for the run, since a few accounts stand for many
  readers; the limit on copies in flight, which holds the burst, has no setting.
- **mixed load** (scripts/bench/mixed.ts): visitors, API logins, stamped downloads, video seeks and an
  administrator, each at a fixed rate of arrivals for 10 s alone, the visitors and the administrator again
  beside the logins alone, and then all together; a request's time runs from when it was due. Every class must
  answer without an error; the visitors' p95 together at most their p95 beside the logins plus the
  administrator's p95 beside the logins (one of the event loop's longest turns), the administrator's at most
  twice its own beside the logins (decision 0032). The floor holds the logins because their argon2 takes the
  core that a busy neighbour leaves the event loop. Each class's p95 alone, the server's own p95
  (Server-Timing) and the old absolute targets are shown as information.
- **memory**: VmHWM (peak resident set) of the server process from /proc/<pid>/status at the end of the run.
- **page weight**: bytes on the wire (gzip where the server compresses) of / and what its first render asks
  for: stylesheets, scripts and module preloads, icons, preloads other than video, eager images, the
  video poster, and every url() in the stylesheets (fonts counted whether or not the first screen uses them).
  The video itself is excluded.
- **Lighthouse**: Lighthouse 13 CLI with Debian's Chromium headless (CHROME_PATH overrides), default mobile
  preset and \`--preset=desktop\`, on /, /faq, /aboutus and /financing/login; categories performance,
  accessibility, best practices and SEO. Each page is audited five times on the mobile preset, and the row is
  the median run: the one Lighthouse's own \`computeMedianRun\` picks, nearest the median first paint and time
  to interactive. One run's performance score moves by several points on the same page, and Lighthouse's
  documentation on variability gives the median of five as about twice as stable as one. The row lists the five
  runs' performance scores. The desktop preset runs once: its five runs read 99-100 on every page (2026-11-28),
  far from its 98. Audits that lose points outside performance are listed under the table. A run that fails to
  record Chromium's trace (Lighthouse's own advice: run it again) is run once more, and the notes under the
  table say so. Scores from a loaded machine understate performance.
`;

/** Each row's verdict in a section of docs/performance.md, by figure (a repeated figure numbered in order). */
function verdictsIn(text: string, start: string, end: string): Map<string, string> {
  const verdicts = new Map<string, string>();
  if (!text.includes(start) || !text.includes(end)) return verdicts;
  const section = text.slice(text.indexOf(start), text.indexOf(end));
  const seen = new Map<string, number>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| ") || line.startsWith(`| ${HEADER[0]} |`)) continue;
    const cells = line.slice(2, -2).split(" | ");
    verdicts.set(keyed(seen, cells[0]), cells[cells.length - 1]);
  }
  return verdicts;
}

const keyed = (seen: Map<string, number>, figure: string) => {
  const count = (seen.get(figure) ?? 0) + 1;
  seen.set(figure, count);
  return count === 1 ? figure : `${figure} (${count})`;
};

/**
 * The run beside a CPU-bound process set against the last quiet run, row by row: the figures whose verdict
 * differs, and how many agree. A ratio or floor verdict that a busy neighbour flips judges the machine.
 */
export function againstQuietRun(rows: Row[]): string[] {
  const file = path.join(root, "docs/performance.md");
  const quiet = verdictsIn(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "", START, END);
  if (quiet.size === 0) return ["no quiet run in docs/performance.md to set this run against."];
  const seen = new Map<string, number>();
  let same = 0;
  const differ: string[] = [];
  const onlyHere: string[] = [];
  for (const row of rows) {
    const figure = keyed(seen, row.figure);
    const before = quiet.get(figure);
    if (before === undefined) onlyHere.push(figure);
    else if (before === verdict(row.pass)) same += 1;
    else differ.push(`${figure}: ${before} quiet, ${verdict(row.pass)} beside the neighbour`);
  }
  return [
    `against the quiet run above: ${same} of ${same + differ.length} rows measured in both give the same verdict` +
      (differ.length === 0 ? "." : `; ${differ.length} differ: ${differ.join("; ")}.`),
    ...(onlyHere.length > 0 ? [`not in the quiet run: ${onlyHere.join("; ")}.`] : []),
  ];
}

/**
 * Rewrites the run's section of docs/performance.md: the quiet run's ("Last run"), or with `beside` the run
 * beside a CPU-bound process, which follows it.
 */
export function writeDoc(rows: Row[], notes: string[], { beside = false } = {}) {
  const file = path.join(root, "docs/performance.md");
  const [start, end] = beside ? [BUSY_START, BUSY_END] : [START, END];
  const section = [
    start,
    beside ? "## Last run beside a CPU-bound process" : "## Last run",
    "",
    `- date: ${new Date().toISOString()}`,
    `- cores (os.cpus().length): ${os.cpus().length}; Node ${process.version}; ${os.platform()} ${os.arch()}`,
    `- command: \`${exactCommand()}\``,
    "",
    markdownTable(rows),
    "",
    ...notes.map((note) => `- ${note}`),
    end,
  ].join("\n");
  let text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : `${INTRO}\n${START}\n${END}\n`;
  if (!text.includes(start) || !text.includes(end)) text = `${text.trimEnd()}\n\n${start}\n${end}\n`;
  text = text.slice(0, text.indexOf(start)) + section + text.slice(text.indexOf(end) + end.length);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
