// `npm start`: the one command that runs the site on a fresh clone. package.json runs it through
// scripts/with-node24.sh, which brings Node 24 when the machine's node is older. It installs the
// packages if they are missing, builds if the build is missing or older than the sources, and starts
// server.js (which migrates the database and serves) through scripts/serve.js.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

// The product runs on Node 24 LTS (.nvmrc); an older node would build and serve something CI never tested.
// Only `node scripts/start.js` run by hand gets here on one: `npm start` brings Node 24 first.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(`Node ${process.versions.node} is too old: the site runs on Node 24. Run: npm start`);
  process.exit(1);
}

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** @param {string} dir */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

run(process.execPath, ["scripts/ensure-installed.js"]);

const buildFile = path.join(process.env.BUILD_DIR || "build", "index.js");
const sourcesChanged =
  !fs.existsSync(buildFile) || Math.max(newestMtime("app"), newestMtime("migrations")) > fs.statSync(buildFile).mtimeMs;
if (sourcesChanged) run("npm", ["run", "build"]);

const { serve } = await import("./serve.js");
serve({ announce: true });
