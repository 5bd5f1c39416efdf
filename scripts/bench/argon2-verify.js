// Raw argon2 verifications per second, run in a process of its own with the server's
// thread pool (scripts/serve.js sizes it to the cores), so the login cost compares like with like.
// Usage: node argon2-verify.js <seconds> <verifications at once>, with the hash and password on stdin as JSON.
// Prints the verifications a second and the process's CPU time (every thread) per verification.
import { text } from "node:stream/consumers";
import argon2 from "argon2";

const [seconds, concurrency] = process.argv.slice(2).map(Number);
const { hash, password } = JSON.parse(await text(process.stdin));
const cpuBefore = process.cpuUsage();
const started = performance.now();
const until = started + seconds * 1000;
let done = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      if (!(await argon2.verify(hash, password))) throw new Error("The raw argon2 check did not verify.");
      done += 1;
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  JSON.stringify({
    perSecond: done / ((performance.now() - started) / 1000),
    cpuMsPerVerify: (cpu.user + cpu.system) / 1000 / done,
  }),
);
