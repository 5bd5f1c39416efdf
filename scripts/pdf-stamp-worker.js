// @ts-check
// A thread of the stamping pool (app/server/stamp-pool.server.ts): stamps one PDF at a time, off the
// server's event loop. Like scripts/pdf-stampable.js, it imports the app's stamping module from its source
// (Node 24 strips its types), so that module must keep to plain imports.
import fs from "node:fs";
import os from "node:os";
import { move, workerData } from "piscina";

/**
 * A stamping thread yields the CPU to the server's event loop (decision 0027): it runs at the nice value its
 * pool gives it (app/server/stamp-pool.server.ts: 5 for a reader's only copy, 19 for one beside their others),
 * the loop at the process's own. A copy is batch work of tens or hundreds of ms; on a busy machine every other
 * reader's answers, and the next copy's turn, are decided on the loop, and a reader's long copies stamping on
 * one core held the loop's share of the other up (scripts/bench/stamping-share.ts). Linux gives each thread
 * its own nice value, by its thread id; where that cannot be read or set, the thread keeps the process's.
 */
try {
  const threadId = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(threadId)) os.setPriority(threadId, /** @type {{ nice: number }} */ (workerData).nice);
} catch {
  // Not Linux, or not allowed: the same work at the process's priority.
}

const source = new URL("../app/server/pdf-stamp.server.ts", import.meta.url).href;
const { stampPdf } = /** @type {typeof import("../app/server/pdf-stamp.server")} */ (await import(source));

/**
 * @param {{ pdf: Uint8Array, stamp: import("../app/server/pdf-stamp.server").Stamp }} task
 * @returns the stamped copy (a Uint8Array), its memory handed to the server rather than copied
 */
export default async function stamp({ pdf, stamp }) {
  return move(await stampPdf(pdf, stamp));
}
