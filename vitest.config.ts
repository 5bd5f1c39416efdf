import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(__dirname, "app") },
  },
  test: {
    globals: true,
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "app/**/*.test.ts"],
          exclude: ["tests/integration/**/*.postgres.test.ts"],
        },
      },
      {
        // The integration suite again, on PostgreSQL: each file its own database on one throwaway server.
        // SQLite's own mechanics (its backup, busy lock, query plans, kept statements) stay in `suite`.
        extends: true,
        test: {
          name: "postgres",
          include: ["tests/integration/**/*.test.ts"],
          exclude: ["tests/integration/**/*.sqlite.test.ts"],
          globalSetup: ["tests/support/postgres-global-setup.ts"],
        },
      },
      {
        // Comparisons of response times: run after the suite, one file at a time, so that no other
        // test file's work lands in one side of a measured pair.
        extends: true,
        test: {
          name: "timing",
          include: ["tests/timing/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
    ],
  },
});
