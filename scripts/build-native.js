// `postinstall`: builds argon2 from its source, against the Node that runs the install (scripts/with-node24.sh
// points node-gyp at Node 24's headers). argon2 ships prebuilt binaries, and node-gyp-build loads one when no
// build of ours is there; the prebuilt one crashes on some machines this project runs on, so a build of our own
// always takes its place. better-sqlite3 builds from source by itself when its prebuilt download is out of reach.
// The compiler's sixty-odd lines are kept from the terminal unless the build fails: then they are the diagnosis.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const argon2 = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "argon2");
console.log("Building argon2 (password hashing) for this Node...");
const build = spawnSync("node-gyp", ["rebuild"], { cwd: argon2, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? "");
  process.stderr.write(build.stderr ?? "");
  console.error(build.error ? `node-gyp could not run: ${build.error.message}` : "Building argon2 failed (above).");
  process.exit(build.status ?? 1);
}
