/**
 * docs/operations.md and the Grafana dashboard it ships (docs/grafana-dashboard.json) against the
 * series the server serves: the dashboard is valid JSON that Grafana can import, every metric either
 * names is one a scrape has, and every series of the app's own is described on the page.
 */
import fs from "node:fs";
import path from "node:path";
import { collectProcessMetrics, queryObserver, renderMetrics, watchPool } from "~/server/metrics.server";
import { readScrape } from "../support/metrics-scrape";

const docs = path.resolve(__dirname, "../../docs");
const HISTOGRAM_SUFFIXES = ["_bucket", "_sum", "_count"];

type Panel = { type: string; title: string; targets?: { expr: string }[] };

let served: Set<string>;
let ownFamilies: string[];

beforeAll(async () => {
  // Everything the server itself would have: the process series, the query timing, PostgreSQL's pool.
  collectProcessMetrics();
  queryObserver("postgres");
  watchPool({ totalCount: 0, idleCount: 0, waitingCount: 0 });
  const scrape = readScrape((await renderMetrics()).text);
  served = new Set(
    scrape.families.flatMap((family) =>
      family.type === "HISTOGRAM"
        ? [family.name, ...HISTOGRAM_SUFFIXES.map((suffix) => family.name + suffix)]
        : [family.name],
    ),
  );
  ownFamilies = scrape.families.map((family) => family.name).filter((name) => name.startsWith("portal_"));
});

const metricNamesIn = (text: string) => [...new Set(text.match(/\b(?:portal|nodejs|process)_[a-z0-9_]+\b/g) ?? [])];

it("ships a dashboard Grafana can import, every query of which names series the server serves", () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(docs, "grafana-dashboard.json"), "utf8")) as {
    __inputs: { name: string; type: string; pluginId: string }[];
    panels: Panel[];
    title: string;
    uid: string;
  };
  expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: "DS_PROMETHEUS", pluginId: "prometheus" })]);
  expect(dashboard.uid).toBeTruthy();
  const queries = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
  expect(queries.length).toBeGreaterThan(20);
  const named = metricNamesIn(queries.join("\n"));
  for (const name of named) expect(served, name).toContain(name);
  // Every series of the app's own is on a panel.
  for (const family of ownFamilies) {
    expect(
      named.some((name) => name === family || HISTOGRAM_SUFFIXES.some((s) => name === family + s)),
      family,
    ).toBe(true);
  }
});

it("describes every series of the app's own, and names no series the server does not serve", () => {
  const page = fs.readFileSync(path.join(docs, "operations.md"), "utf8");
  for (const family of ownFamilies) expect(page, family).toContain(`| \`${family}\` |`);
  for (const name of metricNamesIn(page).filter((name) => !name.endsWith("_"))) expect(served, name).toContain(name);
});
