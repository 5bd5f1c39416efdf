/** Lighthouse 13 (the CLI, driving Debian's Chromium headless) on the public pages, mobile and desktop presets. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { root } from "./config";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Scores = Record<(typeof CATEGORIES)[number], number> & { failing: string[] };

export function chromePath(): string | null {
  const candidates = [
    process.env.CHROME_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  return candidates.find((file): file is string => Boolean(file) && fs.existsSync(file!)) ?? null;
}

/** One Lighthouse report, as much of it as the bench reads. */
type Report = {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number }>;
  runtimeError?: { message: string };
};

/**
 * Scores 0-100 of the median of `runs` audits of one page. One run's performance score moves by several points
 * on the same page, so the figure is the run Lighthouse's own `computeMedianRun` picks: the one nearest the
 * median first paint and time to interactive (docs/performance.md, "Lighthouse: the median of five runs").
 * `spread` is the performance scores of all the runs. A run Lighthouse fails to record (NO_NAVSTART, NO_FCP:
 * it says to run it again) is run once more, and a second failure throws.
 */
export async function lighthouseScores(
  url: string,
  preset: "mobile" | "desktop",
  chrome: string,
  runs: number,
): Promise<Scores & { spread: number[]; retried: string[] }> {
  const reports: Report[] = [];
  const retried: string[] = [];
  for (let run = 0; run < runs; run += 1) {
    reports.push(
      await lighthouseReport(url, preset, chrome).catch((error: Error) => {
        retried.push(error.message.split("\n")[0]);
        return lighthouseReport(url, preset, chrome);
      }),
    );
  }
  const median = computeMedianRun(reports as unknown as Parameters<typeof computeMedianRun>[0]) as unknown as Report;
  const spread = reports.map((report) => categoryScore(report, "performance")).sort((a, b) => a - b);
  return { ...scoresOf(median), spread, retried };
}

/** One audit of one page; throws with Lighthouse's own message when it fails. */
async function lighthouseReport(url: string, preset: "mobile" | "desktop", chrome: string): Promise<Report> {
  const output = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ats-lh-")), "report.json");
  const args = [
    path.join(root, "node_modules/lighthouse/cli/index.js"),
    url,
    "--quiet",
    "--output=json",
    `--output-path=${output}`,
    `--only-categories=${CATEGORIES.join(",")}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    "--max-wait-for-load=45000",
    ...(preset === "desktop" ? ["--preset=desktop"] : []),
  ];
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: chrome },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let text = "";
    child.stderr.on("data", (chunk) => (text += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(text);
      else reject(new Error(`lighthouse ${url} (${preset}) exited ${code}: ${text.slice(-500)}`));
    });
  });
  const report = JSON.parse(fs.readFileSync(output, "utf8")) as Report;
  fs.rmSync(path.dirname(output), { recursive: true, force: true });
  if (report.runtimeError) throw new Error(`lighthouse ${url}: ${report.runtimeError.message} ${stderr.slice(-200)}`);
  return report;
}

function scoresOf(report: Report): Scores {
  // Weighted audits that lost points outside performance: what to fix for the 100s.
  const failing = CATEGORIES.filter((name) => name !== "performance").flatMap((name) =>
    (report.categories[name]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${name}: ${ref.id}`),
  );
  return {
    performance: categoryScore(report, "performance"),
    accessibility: categoryScore(report, "accessibility"),
    "best-practices": categoryScore(report, "best-practices"),
    seo: categoryScore(report, "seo"),
    failing,
  };
}

const categoryScore = (report: Report, name: (typeof CATEGORIES)[number]) =>
  Math.round((report.categories[name]?.score ?? 0) * 100);

/** The targets: performance 95 on mobile and 98 on desktop; the other three categories 100. */
export function meetsTargets(scores: Scores, preset: "mobile" | "desktop") {
  return (
    scores.performance >= (preset === "mobile" ? 95 : 98) &&
    scores.accessibility === 100 &&
    scores["best-practices"] === 100 &&
    scores.seo === 100
  );
}

export const formatScores = (scores: Scores) =>
  `perf ${scores.performance}, a11y ${scores.accessibility}, BP ${scores["best-practices"]}, SEO ${scores.seo}`;
