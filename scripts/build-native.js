// `postinstall`: builds argon2 from its source, against the Node that runs the install (scripts/with-node24.sh
// points node-gyp at Node 24's headers). argon2 ships prebuilt binaries, and node-gyp-build loads one when no
// build of ours is there; the prebuilt one crashes on some machines this project runs on, so a build of our own
// always takes its place. better-sqlite3 builds from source by itself when its prebuilt download is out of reach.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const argon2 = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "argon2");
execFileSync("node-gyp", ["rebuild"], { cwd: argon2, stdio: "inherit" });
