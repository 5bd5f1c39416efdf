/**
 * The administrators page (/financing/admins): its list reads each administrator's second factor, so
 * it is measured with the bench's administrator signed in, as a page of the administrator's portal. It is
 * also the row the whole bench is held to: measured on the fresh server before any phase (`alone`), and
 * again in its place among the phases, the two must stay within 1.5× of each other.
 */
import type { Latency } from "./measure";
import type { Row } from "./report";
import { cpuText, judgedAgainstFloors, judgedLatency } from "./verdicts";

export const ADMINISTRATORS_PAGE = "/financing/admins";
/**
 * Its allowance beyond the framework and its statements: a short list of cards, a little more than the
 * framework floor's page. At load 14-16 its event loop's CPU measured 0.01-0.04 floors beyond F + 1.5 D; a loader
 * made 5 ms slower (BENCH_SLOW_LOADER_MS=5), well over half a floor.
 */
const ALLOWANCE_IN_FLOORS = 0.25;
/** How far the page in the whole bench may stray from the page alone. */
const WHOLE_BENCH_RATIO = 1.5;

type AdministratorsRun = {
  rows: Row[];
  adminCookie: () => Promise<string>;
  alone: Latency | null;
};

/** The page on the fresh server, before any phase has run. */
export async function administratorsPageAlone(adminCookie: () => Promise<string>) {
  return judgedLatency(ADMINISTRATORS_PAGE, { Cookie: await adminCookie() });
}

export async function administratorsPage(run: AdministratorsRun) {
  const timing = await judgedLatency(ADMINISTRATORS_PAGE, { Cookie: await run.adminCookie() });
  run.rows.push(await judgedAgainstFloors("administrators page", timing, ALLOWANCE_IN_FLOORS, "≤ 50 ms"));
  if (!run.alone) return;
  // On the CPU a request costs (the event loop's, the backends' on PostgreSQL), as the growth rows are: what the
  // phases before leave behind (a statement's plan, a heap, caches) costs CPU; a busy neighbour costs waiting.
  const cpu = (latency: Latency) => latency.requestCpu?.p50 ?? latency.server.p50;
  const ratio = cpu(timing) / cpu(run.alone);
  run.rows.push({
    figure: "administrators page: in the whole bench vs alone",
    value: `${ratio.toFixed(2)}× (CPU median ${cpu(timing).toFixed(2)} vs ${cpu(run.alone).toFixed(2)} ms)`,
    target: `≤ ${WHOLE_BENCH_RATIO}×`,
    floor: "the same page on the fresh server, before any phase",
    absolute:
      `server p95 ${timing.server.p95.toFixed(1)} vs ${run.alone.server.p95.toFixed(1)} ms; ` +
      `client p95 ${timing.p95.toFixed(1)} vs ${run.alone.p95.toFixed(1)} ms`,
    cpu: `${cpuText(timing)} vs ${cpuText(run.alone)}`,
    load: timing.loadAtStart,
    pass: ratio <= WHOLE_BENCH_RATIO,
  });
}
