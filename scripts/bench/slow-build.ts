/**
 * BENCH_SLOW_LOADER_MS=5 (BENCH_SLOW_ROUTE names the route, the administrators page by default): the bench
 * serves a scratch copy of the build whose one loader first spins its thread's CPU for that long, so a run shows that
 * the row's verdict catches a regression of that size. The copy is the build's server file with a few lines
 * appended that wrap the route's loader; its client files are the build's own (a link).
 */
import fs from "node:fs";
import path from "node:path";
import { config } from "./config";

/** The build the run's servers load: the measured build, or its slowed copy. */
export function servedBuildDir(): string {
  if (config.slowLoaderMs === null) return config.buildDir;
  const slowed = `${config.buildDir}-slow`;
  fs.rmSync(slowed, { recursive: true, force: true });
  fs.mkdirSync(slowed, { recursive: true });
  fs.symlinkSync(path.join(config.buildDir, "client"), path.join(slowed, "client"));
  const wrap = `
{
  const route = routes[${JSON.stringify(config.slowRoute)}];
  if (!route?.module.loader) throw new Error("BENCH_SLOW_ROUTE: no loader for ${config.slowRoute}.");
  const original = route.module;
  route.module = {
    ...original,
    // ${config.slowLoaderMs} ms of the thread's own CPU, however long a busy machine keeps it from a core meanwhile.
    loader: (args) => {
      const used = () => { const { user, system } = process.threadCpuUsage(); return user + system; };
      const until = used() + ${config.slowLoaderMs * 1000};
      while (used() < until);
      return original.loader(args);
    },
  };
}
`;
  fs.writeFileSync(
    path.join(slowed, "index.js"),
    fs.readFileSync(path.join(config.buildDir, "index.js"), "utf8") + wrap,
  );
  return slowed;
}
