import { availableParallelism } from "node:os";

/**
 * How many threads a CPU-bound pool (password hashing, PDF stamping) may keep busy at once: a core
 * but one, at least one. The core left over is the event loop's, so pages, downloads and the
 * administrator's table are still answered while logins or stamped copies pile up
 * (docs/performance.md, "Room for the event loop").
 */
export function coresButOne(): number {
  return Math.max(1, availableParallelism() - 1);
}
