/** Lighthouse 12 (the CLI, driving Debian's Chromium headless) on the public pages, mobile and desktop presets. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

/** Scores 0-100 of one audit; throws with Lighthouse's own message when it fails. */
export async function lighthouseScores(url: string, preset: "mobile" | "desktop", chrome: string): Promise<Scores> {
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
  const report = JSON.parse(fs.readFileSync(output, "utf8")) as {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, { score: number | null }>;
    runtimeError?: { message: string };
  };
  // Weighted audits that lost points outside performance: what to fix for the 100s.
  const failing = CATEGORIES.filter((name) => name !== "performance").flatMap((name) =>
    (report.categories[name]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${name}: ${ref.id}`),
  );
  fs.rmSync(path.dirname(output), { recursive: true, force: true });
  if (report.runtimeError) throw new Error(`lighthouse ${url}: ${report.runtimeError.message} ${stderr.slice(-200)}`);
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: score("seo"),
    failing,
  };
}

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
