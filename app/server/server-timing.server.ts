/**
 * Server-Timing (SERVER_TIMING=on): each answer says how long the server took to its headers (`total`) and
 * how much of that its database statements took (`db`), so that a client on a busy machine can tell the
 * server's time from its own queueing (the bench judges the server's). Durations only, nothing else: no
 * statement, route or name. Every answer the app builds is whole before its headers (a page is rendered to
 * a string, a stamped copy is stamped), so `total` is the server's work; the bytes after it are transport.
 */
import type { LogEvent } from "kysely";
import { addDatabaseTime, type RequestTiming } from "./request-context.server";

/** The header's value: milliseconds, to the hundredth. */
export function serverTimingHeader(startedNs: bigint, timing: RequestTiming, nowNs = process.hrtime.bigint()) {
  const totalMs = Number(nowNs - startedNs) / 1e6;
  return `total;dur=${totalMs.toFixed(2)}, db;dur=${timing.databaseMs.toFixed(2)}`;
}

/**
 * Kysely's `log` callback: each statement's time to the request that ran it (for Server-Timing), and to the
 * metrics' observer when they are on; undefined when neither wants it, so Kysely keeps no hook at all.
 */
export function statementObserver(
  serverTiming: boolean,
  metrics: ((event: LogEvent) => void) | undefined,
): ((event: LogEvent) => void) | undefined {
  if (!serverTiming) return metrics;
  return (event) => {
    addDatabaseTime(event.queryDurationMillis);
    metrics?.(event);
  };
}
