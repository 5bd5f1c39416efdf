// `npm run start:server`, and the last step of `npm start`: runs server.js in a
// child process, with the settings that only take effect if they are in place
// before Node starts (docs/performance.md, "The fast path: server"):
// - libuv's thread pool, which runs argon2 and the files' reads, is sized to the cores: more
//   threads hash no faster, but each one that has hashed keeps its 19 MiB. The app hashes on
//   a core but one of them at a time (password.server.ts), so a thread stays free for files;
// - V8 grows its heap by 20% at a time rather than its default factor (up to
//   twice): left to itself on a large machine it lets the heap run far ahead of
//   what the server uses. Measured side by side: same page times, a third less peak memory.
// - the young generation's semi-spaces stop at 4 MB: Node 24's V8 grows them to 64 MB
//   on a machine with this much memory (RSS about 320 MB under the soak, against 210);
//   at 16 MB the library's streamed buffers and strings outlived the young collections
//   and set off a full one every few requests, stopping the server 10-25 ms each time
//   (docs/performance.md, "Memory on Node 24" and "The collector and the library's files");
// - V8's own thread pool (its collector's helpers) is sized to the cores, one fewer than
//   there are: Node's default is four threads whatever the machine, and on two cores they
//   took the request's core from under it (docs/performance.md, "The bench's own collector").
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Node's own flags for the server process (V8 does not take this one from NODE_OPTIONS). */
export const SERVER_NODE_FLAGS = ["--heap-growing-percent=20", "--max-semi-space-size=4", "--v8-pool-size=0"];

/**
 * The environment the server process starts with; an operator's own setting wins. MALLOC_ARENA_MAX: glibc's
 * allocator gives each thread that allocates (the thread pool's, the stamping thread) an arena of its own,
 * and each keeps what it freed; with one arena the process peaked some 60 MB lower across the bench, with
 * logins, pages, downloads and seeks as fast (docs/performance.md, "One allocator arena").
 */
export function serverProcessEnv(env = process.env) {
  return { UV_THREADPOOL_SIZE: String(availableParallelism()), MALLOC_ARENA_MAX: "1", ...env };
}

/**
 * Runs server.js until it exits, passing on the signals that stop it, and exits with its code. `announce`
 * (`npm start`): once listening, the server also says its address in plain words.
 */
export function serve({ announce = false } = {}) {
  const args = [...SERVER_NODE_FLAGS, path.join(root, "server.js"), ...(announce ? ["--announce"] : [])];
  const server = spawn(process.execPath, args, {
    cwd: root,
    env: serverProcessEnv(),
    stdio: "inherit",
  });
  for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT"])) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serve();
