// The packages, installed exactly as the lockfile says (`npm ci`, as a deploy installs) when they are not
// there yet: the first step of `npm start` and `npm test` on a fresh clone. Runs on Node 24, so the native
// modules are built for it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (!fs.existsSync(path.join(root, "node_modules", ".package-lock.json"))) {
  // npm says nothing until it is done, a minute or more on a first run.
  console.log("Installing the packages (npm ci): this takes a minute or two on a first run...");
  const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
