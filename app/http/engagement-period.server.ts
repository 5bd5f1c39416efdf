/**
 * The period an engagement ranking covers, from the address (`?from=YYYY-MM-DD&to=YYYY-MM-DD`, UTC days,
 * both included); the last 30 days by default. A malformed or reversed period is a bad request.
 */
import { insightsContent } from "~/content/reading-insights";
import { now } from "~/server/clock.server";

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const LONGEST_DAYS = 731;

export type Period = { from: string; to: string; fromMs: number; toMs: number };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function parseDay(value: string): number | null {
  if (!DAY.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || dayOf(ms) !== value ? null : ms;
}

export function engagementPeriodOf(request: Request): Period {
  const params = new URL(request.url).searchParams;
  const today = Date.parse(`${dayOf(now())}T00:00:00Z`);
  const from = params.get("from") || dayOf(today - 29 * DAY_MS);
  const to = params.get("to") || dayOf(today);
  const [fromMs, toDay] = [parseDay(from), parseDay(to)];
  if (fromMs === null || toDay === null || toDay < fromMs || toDay - fromMs > LONGEST_DAYS * DAY_MS)
    throw new Response(insightsContent.engagement.badPeriod, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return { from, to, fromMs, toMs: toDay + DAY_MS };
}
