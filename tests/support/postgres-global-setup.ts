/**
 * The `postgres` test project's server: TEST_DATABASE_URL when it names one (CI starts it), or else a
 * throwaway cluster started here (scripts/pg-cluster.sh) and stopped at the end. Each test file then
 * makes a database of its own on it (test-database.ts).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const script = path.resolve(import.meta.dirname, "../../scripts/pg-cluster.sh");
const PORT = "55433";

export default function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  const url = given || execFileSync(script, ["start", PORT], { encoding: "utf8" }).trim();
  project.provide("postgresUrl", url);
  return () => {
    if (!given) execFileSync(script, ["stop", PORT]);
  };
}
