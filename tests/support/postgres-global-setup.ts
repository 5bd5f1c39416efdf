/**
 * The `postgres` test project's server: TEST_DATABASE_URL when it names one (CI starts it), or else a
 * throwaway cluster started here (scripts/pg-cluster.sh) and stopped at the end. Each test file then
 * makes a database of its own on it (test-database.ts).
 */
import type { TestProject } from "vitest/node";
import { startCluster, stopCluster } from "../../scripts/throwaway-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const PORT = "25433";

export default function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  const url = given || startCluster(PORT);
  project.provide("postgresUrl", url);
  return () => {
    if (!given) stopCluster(PORT);
  };
}
