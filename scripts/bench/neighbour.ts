/**
 * A CPU-bound neighbour for `BENCH_BESIDE=cpu`: one process spinning one core for the whole run, as a build or
 * another tenant would on a shared machine. A verdict that holds only on a quiet machine is a verdict on the
 * machine; the run beside it must give every ratio row the same verdict as the quiet run (docs/performance.md).
 */
import { spawn } from "node:child_process";

export function startCpuNeighbour(): { pid: number; stop: () => void } {
  const child = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  // The bench may fail or be interrupted: the spinning process must not outlive it.
  process.once("exit", stop);
  return { pid: child.pid ?? 0, stop };
}
