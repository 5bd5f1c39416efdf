/**
 * `npm run bench:compare -- <build A> <build B> [path]`: two builds of the app served side by side on one
 * database of 100,000 investors, and one administrator's page (default /financing) asked of each in turn, A
 * then B, the same number of times. A build is a folder made by `BUILD_DIR=<folder> npm run build`, served by
 * this checkout's server.js; or a whole checkout (a git worktree with `server.js` and `build/`), served by its
 * own server.js, for a build older than this server's hooks into it.
 *
 * Why in turn: on a shared two-core machine the same build's median moves by half within half an hour,
 * so two runs one after the other compare the machine's moods as much as the builds. Interleaved, both
 * builds meet the same moments. It prints each build's p50, p95, mean and page size.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { config, origin } from "./config";
import { getCounted, percentile } from "./measure";
import { ADMIN, createAdministrator, seedInvestorsUpTo } from "./seed";
import { peakRss, startServer } from "./server";
import { pageSessionCookie } from "./session";

const ROUNDS = 300;
const WARM_UP_ROUNDS = 40;

async function main() {
  const [buildA, buildB, pagePath = "/financing"] = process.argv.slice(2);
  if (!buildA || !buildB) throw new Error("Usage: npm run bench:compare -- <build A> <build B> [path]");
  const builds = [buildA, buildB].map((folder) => path.resolve(folder));
  const served = builds.map(servedFrom);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "ats-compare-"));
  const database = path.join(temp, "portal.sqlite");
  const ports = [config.port, config.port + 1];
  const servers = [];
  try {
    for (const [index, { cwd, build }] of served.entries()) {
      servers.push(await startServer(database, { port: ports[index], cwd, env: { BUILD_DIR: build } }));
    }
    await createAdministrator(database);
    await seedInvestorsUpTo(database, config.tableInvestors);
    // One session serves both: they share the database and the session secret.
    const cookie = await pageSessionCookie(ADMIN);
    const ask = async (port: number) => {
      const answer = await getCounted(pagePath, { Cookie: cookie }, port);
      if (answer.status !== 200) throw new Error(`GET ${pagePath} on ${origin(port)} answered ${answer.status}.`);
      return answer;
    };
    for (let round = 0; round < WARM_UP_ROUNDS; round += 1) for (const port of ports) await ask(port);
    const times: number[][] = [[], []];
    const sizes = [0, 0];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, port] of ports.entries()) {
        const answer = await ask(port);
        times[index].push(answer.ms);
        sizes[index] = answer.bytes;
      }
    }
    console.log(`GET ${pagePath}, ${ROUNDS} times each, in turn (load average at the end ${os.loadavg()[0]}):`);
    for (const [index, folder] of builds.entries()) {
      const own = times[index];
      const mean = own.reduce((sum, ms) => sum + ms, 0) / own.length;
      const rss = peakRss(servers[index].pid);
      console.log(
        `${"AB"[index]} ${path.relative(process.cwd(), folder)}: p50 ${percentile(own, 0.5).toFixed(2)} ms, ` +
          `p95 ${percentile(own, 0.95).toFixed(2)} ms, mean ${mean.toFixed(2)} ms, ${sizes[index]} bytes` +
          (rss === null ? "" : `, server peak RSS ${(rss / 1e6).toFixed(1)} MB`),
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** A checkout serves its own build with its own server.js; a bare build is served by this checkout's. */
function servedFrom(folder: string): { cwd?: string; build: string } {
  const checkout = fs.existsSync(path.join(folder, "server.js"));
  const build = checkout ? path.join(folder, "build") : folder;
  if (!fs.existsSync(path.join(build, "index.js"))) throw new Error(`${build} holds no build (index.js).`);
  return checkout ? { cwd: folder, build } : { build };
}

await main();
