/**
 * npm run bench: the performance figures of the issue, measured side by side
 * in one run on 127.0.0.1 (docs/performance.md says how each one is taken).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { config, origin } from "./config";
import { argon2VerifiesPerSecond, latency, request, sideBySide, throughput } from "./measure";
import { summarizeProfiles } from "./profile";
import { printTable, writeDoc, type Row } from "./report";
import { ADMIN, INVESTOR, createAdministrator, createLoginInvestor, seedInvestorsUpTo } from "./seed";
import { buildIfNeeded, peakRss, startServer, type RunningServer } from "./server";
import { javascriptShipped, pageWeight } from "./sizes";

const KB = 1024;
const fmt = (value: number, digits = 1) => value.toFixed(digits);
const step = (text: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

async function main() {
  const startedAt = Date.now();
  step(`build: ${buildIfNeeded()} (${path.relative(process.cwd(), config.buildDir)})`);

  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "ats-bench-"));
  const databasePath = path.join(temp, "portal.sqlite");
  const profileDir = config.cpuProfile ? path.join(temp, "profiles") : null;
  const rows: Row[] = [];
  const notes: string[] = [];
  let server: RunningServer | undefined;
  let staticCopy: string | undefined;
  try {
    server = await startServer(databasePath, profileDir);
    step(`server ${server.pid} on ${origin()}, database ${databasePath}`);

    createAdministrator(databasePath);
    const investorHash = await createLoginInvestor(databasePath);
    seedInvestorsUpTo(databasePath, config.apiInvestors);
    step(`seeded an administrator and ${config.apiInvestors} investors`);

    // Public page vs the same bytes as a static file.
    const faq = await request("/faq");
    if (faq.status !== 200) throw new Error(`GET /faq answered ${faq.status}.`);
    const staticName = `bench-faq-${process.pid}.html`;
    staticCopy = path.join(config.buildDir, "client", staticName);
    fs.writeFileSync(staticCopy, faq.body);
    step("GET /faq vs the same HTML as a static file");
    const pages = await sideBySide(`${origin()}/faq`, `${origin()}/build/${staticName}`, { "Accept-Encoding": "gzip" });
    const pageRatio = pages.a.perSecond / pages.b.perSecond;
    rows.push({
      figure: "public page vs static file",
      value: `${fmt(pageRatio, 3)} (${fmt(pages.a.perSecond)} vs ${fmt(pages.b.perSecond)} req/s)`,
      target: "≥ 0.5",
      pass: pages.a.failed === 0 && pageRatio >= 0.5,
    });

    // Login cost.
    step("POST /api/auth/login vs raw argon2.verify");
    const logins = await throughput(`${origin()}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: INVESTOR.email, password: INVESTOR.password }),
    });
    const verifies = await argon2VerifiesPerSecond(investorHash, INVESTOR.password);
    const loginRatio = logins.perSecond / verifies;
    rows.push({
      figure: "login cost",
      value: `${fmt(loginRatio, 3)} (${fmt(logins.perSecond)} logins/s vs ${fmt(verifies)} verify/s)`,
      target: "≥ 0.9",
      pass: logins.failed === 0 && loginRatio >= 0.9,
    });
    if (logins.failed > 0) notes.push(`login: ${logins.failed} of ${logins.ok + logins.failed} logins did not succeed.`);

    // get_investors at 10,000 investors.
    const apiLogin = await request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    if (apiLogin.status !== 200) throw new Error(`The administrator's API login answered ${apiLogin.status}.`);
    const { accessToken } = JSON.parse(apiLogin.body.toString("utf8")) as { accessToken: string };
    step(`GET /api/user/get_investors at ${config.apiInvestors} investors`);
    const list = await latency("/api/user/get_investors", { Authorization: `Bearer ${accessToken}` }, 10);
    rows.push({
      figure: `get_investors at ${config.apiInvestors.toLocaleString("en-US")} investors`,
      value: `p95 ${fmt(list.p95)} ms (median ${fmt(list.p50)})`,
      target: "≤ 150 ms",
      pass: list.p95 <= 150,
    });

    // The administrator table at 100,000 investors.
    seedInvestorsUpTo(databasePath, config.tableInvestors);
    step(`seeded up to ${config.tableInvestors} investors; administrator table`);
    const cookie = await adminSessionCookie();
    const deepPage = Math.max(1, Math.floor((config.tableInvestors / 50) * 0.75));
    const tableQueries = [
      { name: "first page", path: "/financing", limit: 20 },
      { name: `deep page (${deepPage})`, path: `/financing?page=${deepPage}`, limit: 20 },
      { name: "search (q=smith)", path: "/financing?q=smith", limit: 50 },
      { name: "filtered count (nda=signed)", path: "/financing?nda=signed", limit: 20 },
    ];
    for (const query of tableQueries) {
      const timing = await latency(query.path, { Cookie: cookie });
      rows.push({
        figure: `admin table at ${config.tableInvestors.toLocaleString("en-US")}: ${query.name}`,
        value: `p95 ${fmt(timing.p95)} ms (median ${fmt(timing.p50)})`,
        target: `≤ ${query.limit} ms`,
        pass: timing.p95 <= query.limit,
      });
    }

    // JavaScript shipped.
    step("JavaScript shipped and page weight");
    const shippedPages: { path: string; route: string; headers: Record<string, string>; publicPage: boolean }[] = [
      { path: "/", route: "routes/_site._index", headers: {}, publicPage: true },
      { path: "/faq", route: "routes/_site.faq", headers: {}, publicPage: true },
      { path: "/financing/login", route: "routes/financing.login", headers: {}, publicPage: true },
      { path: "/financing", route: "routes/financing._index", headers: { Cookie: cookie }, publicPage: false },
    ];
    for (const page of shippedPages) {
      const answer = await request(page.path, { headers: page.headers });
      if (answer.status !== 200) throw new Error(`GET ${page.path} answered ${answer.status}.`);
      const shipped = javascriptShipped(page.route, answer.body.toString("utf8"));
      rows.push({
        figure: `JavaScript shipped: ${page.path === "/financing" ? "administrator table" : page.path}`,
        value: `${fmt(shipped.bytes / KB)} kB gzip (${shipped.files} files)`,
        target: page.publicPage ? "≤ 90 kB" : "no target",
        pass: page.publicPage ? shipped.bytes <= 90 * KB : true,
      });
      const largest = shipped.largest.map((file) => `${file.url} ${fmt(file.bytes / KB)} kB`).join(", ");
      notes.push(`JavaScript of ${page.path}, largest files: ${largest}.`);
    }

    const weight = await pageWeight("/");
    rows.push({
      figure: "page weight of / (video excluded)",
      value: `${fmt(weight.bytes / KB)} kB (${weight.files} files)`,
      target: "≤ 250 kB",
      pass: weight.bytes <= 250 * KB,
    });
    const kinds = Object.entries(weight.byKind).sort((a, b) => b[1] - a[1]);
    notes.push(`page weight of / by kind: ${kinds.map(([kind, bytes]) => `${kind} ${fmt(bytes / KB)} kB`).join(", ")}.`);

    const rss = peakRss(server.pid);
    rows.push({
      figure: "memory: server peak RSS",
      value: rss === null ? "unavailable (no /proc)" : `${fmt(rss / (KB * KB))} MB`,
      target: "≤ 250 MB",
      pass: rss === null ? null : rss <= 250 * KB * KB,
    });
    rows.push({ figure: "Lighthouse", value: "not run by the bench yet", target: "95 mobile / 98 desktop; 100 a11y, BP, SEO", pass: null });
  } finally {
    if (staticCopy) fs.rmSync(staticCopy, { force: true });
    await server?.stop();
    step("server stopped");
  }

  notes.push(`${config.connections} connections, ${config.seconds} s per throughput figure; run took ${fmt((Date.now() - startedAt) / 1000, 0)} s.`);
  printTable(rows);
  if (profileDir) summarizeProfiles(profileDir);
  if (config.writeDoc) console.log(`\nwritten to ${path.relative(process.cwd(), writeDoc(rows, notes))}`);
  fs.rmSync(temp, { recursive: true, force: true });
}

/** Logs the administrator in through the page form, as a browser without JavaScript would; returns the Cookie header. */
async function adminSessionCookie(): Promise<string> {
  const answer = await request("/financing/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin() },
    body: new URLSearchParams(ADMIN).toString(),
  });
  const cookies = ([] as string[]).concat(answer.headers["set-cookie"] ?? []);
  const session = cookies.map((line) => line.split(";")[0]).find((pair) => pair.startsWith("__session="));
  if (answer.status !== 302 || !session) throw new Error(`The administrator's login answered ${answer.status} without a session.`);
  return session;
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
