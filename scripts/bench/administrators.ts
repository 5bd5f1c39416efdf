/**
 * The administrators page (/financing/admins): its list reads each administrator's second factor, so
 * it is measured with the bench's administrator signed in, as a page of the administrator's portal.
 */
import { latency } from "./measure";
import type { Row } from "./report";

const PAGE_P95_TARGET_MS = 50;

export async function administratorsPage(run: { rows: Row[]; adminCookie: () => Promise<string> }) {
  const timing = await latency("/financing/admins", { Cookie: await run.adminCookie() });
  run.rows.push({
    figure: "administrators page",
    value: `p95 ${timing.p95.toFixed(1)} ms (median ${timing.p50.toFixed(1)})`,
    target: `≤ ${PAGE_P95_TARGET_MS} ms`,
    pass: timing.p95 <= PAGE_P95_TARGET_MS,
  });
}
