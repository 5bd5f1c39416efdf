/**
 * How a latency row is judged (docs/performance.md, "How each verdict is judged"): by the server's own p95
 * (Server-Timing), against floors measured in the same run on the same machine, so that a shared machine's
 * load weighs on the figure and on what it is judged by alike. The client's p95 stays in the row as information.
 */
import { getOk, latency, type Latency } from "./measure";
import type { Row } from "./report";

const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** The transport floor: a static file from the same server (no route, no session, no database). */
export const STATIC_FILE = "/favicon.svg";
/** The framework floor: a signed-in page whose loader reads nothing but the session. */
export const FRAMEWORK_PAGE = "/financing/security/password";
/** What multiplies a row's own statements' time in its limit: the data may cost half as much again. */
export const DATA_FACTOR = 1.5;
/** The transport floor is measured again when older than this: the machine's load moves within a run. */
const FLOOR_MAX_AGE_MS = 120_000;
const FLOOR_SAMPLES = 40;

let session: (() => Promise<string>) | null = null;
let transport: { timing: Latency; measuredAt: number } | null = null;

/** The session the framework floor is asked with, for the server just started (its floors are its own). */
export function useFrameworkSession(cookie: () => Promise<string>) {
  session = cookie;
  transport = null;
}

/** One request of the framework floor, for `latency`'s `beside`: asked after each of a row's own requests. */
export async function frameworkFloor() {
  if (!session) throw new Error("No session for the framework floor (useFrameworkSession).");
  return getOk(FRAMEWORK_PAGE, { Cookie: await session() });
}

/** The transport floor now: measured afresh when none was, or two minutes ago. */
export async function transportFloor(): Promise<Latency> {
  if (transport && Date.now() - transport.measuredAt < FLOOR_MAX_AGE_MS) return transport.timing;
  transport = { timing: await latency(STATIC_FILE, {}, FLOOR_SAMPLES), measuredAt: Date.now() };
  return transport.timing;
}

/** A row's timings with the framework floor's, taken in turn (latency's `beside`). */
export type Judged = Latency & { beside?: Latency };

/** A judged row's timings: `path`'s, each request followed by one of the framework floor's. */
export function judgedLatency(path: string, headers: Record<string, string>, samples?: number): Promise<Judged> {
  return latency(path, headers, samples, frameworkFloor);
}

/** The process's CPU per request (every thread), and the event loop's median. */
export const cpuText = (timing: Latency) =>
  (timing.cpuMsPerRequest === null ? "" : `${fmt(timing.cpuMsPerRequest, 2)} ms`) +
  (timing.loopCpu === null ? "" : ` (loop p50 ${fmt(timing.loopCpu.p50, 2)})`);

const absoluteText = (timing: Latency, reference?: string) =>
  `client p95 ${fmt(timing.p95)} ms (median ${fmt(timing.p50)})` +
  (reference ? `; quiet 2-core reference ${reference}` : "");

/**
 * A page or API row: `row ≤ F + 1.5 × D + a × F`, twice, and both must hold:
 * - on the server's p95 (Server-Timing's total), which holds the tail;
 * - on the event loop's CPU time per request at the median (the server's main thread, from /proc), which is what
 *   a regression of a few milliseconds moves: on a busy machine preemption decides every wall-clock p95 and
 *   median alike, the floor's too, and a loader slowed by 5 ms passed both at load 12-15.
 * F is the framework floor, the signed-in page that reads only the session, asked after each of the row's
 * requests so that both meet the same moments of the machine; D the data floor, the row's own statements' time
 * (Server-Timing's db, measured around each statement as it ran); `a` the row's allowance for its own work beyond
 * the framework and its data (rendering, serializing), in framework floors, so that it stretches as the floor does.
 */
export async function judgedAgainstFloors(
  figure: string,
  timing: Judged,
  allowanceInFloors: number,
  reference?: string,
): Promise<Row> {
  const floor = timing.beside;
  if (!floor) throw new Error(`${figure}: measured without the framework floor beside it.`);
  const limit = (framework: number, data: number) => framework + DATA_FACTOR * data + allowanceInFloors * framework;
  const wallLimit = limit(floor.server.p95, timing.database.p95);
  // Without /proc (not Linux), the wall-clock median stands in for the event loop's CPU.
  const [own, framework, what] =
    timing.loopCpu && floor.loopCpu
      ? [timing.loopCpu.p50, floor.loopCpu.p50, "loop CPU p50"]
      : [timing.server.p50, floor.server.p50, "server p50"];
  const cpuLimit = limit(framework, timing.database.p50);
  const staticFile = (await transportFloor()).server;
  return {
    figure,
    value: `server p95 ${fmt(timing.server.p95)}, ${what} ${fmt(own, 2)} ms`,
    target: `≤ ${fmt(wallLimit)}, ≤ ${fmt(cpuLimit, 2)} ms (F + ${DATA_FACTOR} D + ${allowanceInFloors} F)`,
    floor:
      `F ${fmt(floor.server.p95)}, ${fmt(framework, 2)}; D ${fmt(timing.database.p95)}, ${fmt(timing.database.p50, 2)} ` +
      `(transport p95 ${fmt(staticFile.p95)}) ms`,
    absolute: absoluteText(timing, reference),
    cpu: cpuText(timing),
    load: timing.loadAtStart,
    pass: timing.server.p95 <= wallLimit && own <= cpuLimit,
  };
}

/** The investors' growth rows' small size, measured before any phase. */
export const SMALL_SIZE_INVESTORS = 1000;

/** A growth row's small size's timing, by the row's key, and the answer's rows for a list. */
export type GrowthSmallSizes = Map<string, { timing: Judged; rows?: number }>;

/**
 * How a row's cost grows with the data: its CPU per request at the median (the event loop's, and on PostgreSQL
 * its backends' too) at the large size over the small one, per row of the answer for a list (`rows` at each
 * size). CPU time, since a wall-clock ratio of two sizes measured minutes apart on a shared machine reads the
 * machine's load as much as the data: at load 10-15 three rows whose CPU ratio was 1.0-1.2× read 1.8-2.3× on the
 * clock. Where both sizes were measured beside the framework floor, each size's CPU is counted in floors: what
 * the phases between them leave in the server (a heap to collect grown by a large answer) costs every request
 * more CPU, the floor's as much as the row's, and is not the row's growth with its data. The server's wall-clock
 * median ratio stays in the row as information. Without /proc, the wall clock.
 */
export function growthRow(
  figure: string,
  small: { timing: Judged; size: number; rows?: number },
  large: { timing: Judged; size: number; rows?: number },
  limit: number,
): Row {
  const perRow = small.rows !== undefined && large.rows !== undefined;
  const onCpu = small.timing.requestCpu !== null && large.timing.requestCpu !== null;
  const inFloors = onCpu && Boolean(small.timing.beside?.requestCpu && large.timing.beside?.requestCpu);
  const per = (side: typeof small, ms: number) => ms / (perRow ? side.rows! : 1);
  const cpu = (side: typeof small) => per(side, side.timing.requestCpu!.p50);
  const floor = (side: typeof small) => side.timing.beside!.requestCpu!.p50;
  const cost = (side: typeof small) =>
    inFloors ? cpu(side) / floor(side) : onCpu ? cpu(side) : per(side, side.timing.server.p50);
  const wall = (side: typeof small) => per(side, side.timing.server.p50);
  const ratio = cost(large) / cost(small);
  const sizes = `${small.size.toLocaleString("en-US")} → ${large.size.toLocaleString("en-US")}`;
  const unit = perRow ? " per row" : "";
  const digits = perRow ? 4 : 2;
  const what = inFloors
    ? `CPU median${unit} ${fmt(cpu(small), digits)} → ${fmt(cpu(large), digits)} ms, ` +
      `floor ${fmt(floor(small), 2)} → ${fmt(floor(large), 2)} ms`
    : `${onCpu ? "CPU" : "server"} median${unit} ${fmt(cost(small), digits)} → ${fmt(cost(large), digits)} ms`;
  return {
    figure: `growth ${sizes}: ${figure}`,
    value: `${fmt(ratio, 2)}× (${what})`,
    target: `≤ ${limit}×${unit}${inFloors ? " in framework floors" : ""}`,
    floor: `the same row at ${small.size.toLocaleString("en-US")}${inFloors ? ", each beside the framework floor" : ""}`,
    absolute:
      `server median${unit} ${fmt(wall(small), digits)} → ${fmt(wall(large), digits)} ms ` +
      `(${fmt(wall(large) / wall(small), 2)}×); client median ${fmt(small.timing.p50)} → ${fmt(large.timing.p50)} ms`,
    cpu: `${cpuText(small.timing)} → ${cpuText(large.timing)}`,
    load: large.timing.loadAtStart,
    pass: ratio <= limit,
  };
}
