import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL, E2E_ON_POSTGRES } from "./tests/e2e/support/server";

/**
 * Debian's Chromium headless shell: the same engine and version as its `chromium`, without the whole
 * browser's GPU process and window machinery, as Playwright's own headless runs use. On a slow machine it
 * ran the same 92 tests in half the time (291 s against 577 s). The whole browser is the fallback.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const executablePath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const chromium = {
  ...devices["Desktop Chrome"],
  channel: undefined,
  launchOptions: {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

/**
 * Specs that upload the firm's NDA template into the shared server's database. A template changes every
 * investor's way once they give their details (their copy is offered, "NDA sent" set, at once), so these run
 * in projects of their own after the browser projects, never beside a spec of the manual path. A lone run
 * of one of them: `--no-deps`.
 */
const NDA_TEMPLATE_SPECS = /nda-signing\.spec\.ts$/;

const browserIgnore = [
  /\.http\.spec\.ts$/,
  NDA_TEMPLATE_SPECS,
  ...(E2E_ON_POSTGRES ? [/\.layout\.spec\.ts$/, /\.public\.spec\.ts$/] : []),
];

/**
 * One production server (built app, its own SQLite file, a real SMTP catcher)
 * serves both projects: the whole suite runs once with JavaScript and once without.
 * `E2E_ENGINE=postgres` (npm run test:e2e:postgres) runs the browser projects again with that
 * server on PostgreSQL; the HTTP-level specs stay on SQLite, whose file, lock and WAL many of them
 * look at, and those about PostgreSQL start clusters of their own. Layout sweeps (`*.layout.spec.ts`:
 * every page at phone widths) stay on SQLite too: what they measure is the page's box, which no
 * engine changes, and each page's behaviour on PostgreSQL is its own spec's. So do the public pages'
 * specs (`*.public.spec.ts`): those pages read nothing from the database, so no engine can change them.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/support/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Room for a machine half as fast as the one the suite was written on: on one such machine the longest
  // journeys without JavaScript took 1.5-2 times their time with it, and ran out of a 30 s (or test.slow's
  // 90 s) budget mid-way. A test that passes takes no longer for it.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    trace: "off",
    screenshot: "off",
  },
  projects: [
    { name: "js-on", testIgnore: browserIgnore, use: { ...chromium, javaScriptEnabled: true } },
    { name: "js-off", testIgnore: browserIgnore, use: { ...chromium, javaScriptEnabled: false } },
    ...[true, false].map((javaScriptEnabled) => ({
      name: `nda-${javaScriptEnabled ? "js-on" : "js-off"}`,
      testMatch: NDA_TEMPLATE_SPECS,
      dependencies: ["js-on", "js-off"],
      use: { ...chromium, javaScriptEnabled },
    })),
    // HTTP-level checks (headers, status codes, the API) need no browser, so they run once.
    ...(E2E_ON_POSTGRES ? [] : [{ name: "http", testMatch: /\.http\.spec\.ts$/ }]),
  ],
});
