import { FAQ_PAGE_SIZE } from "~/content/constants";
import type { FaqEntry } from "~/content/faq";

/** Longer queries are cut; no question is this long, and it bounds the work per request. */
export const FAQ_QUERY_MAX_LENGTH = 100;
/** How long typing pauses before the list follows the search box. */
export const FAQ_SEARCH_DEBOUNCE_MS = 250;

export type FaqPage = {
  /** The search as applied: trimmed and cut to FAQ_QUERY_MAX_LENGTH. */
  query: string;
  /** The entries to show: the first `show` matches. */
  visible: FaqEntry[];
  /** How many entries match the search in all. */
  matchCount: number;
  /** The `show` value for Load More, or null when every match is shown. */
  nextShow: number | null;
  /** The first entry Load More adds, or null when every match is shown. */
  firstNew: FaqEntry | null;
};

export function normalizeQuery(raw: string | null | undefined): string {
  return (raw ?? "").trim().slice(0, FAQ_QUERY_MAX_LENGTH);
}

/** Case-insensitive substring match on the question or the answer; an empty query matches all. */
export function filterFaqEntries(entries: readonly FaqEntry[], query: string): FaqEntry[] {
  const needle = normalizeQuery(query).toLocaleLowerCase("en-US");
  if (!needle) return [...entries];
  return entries.filter(
    (entry) =>
      entry.question.toLocaleLowerCase("en-US").includes(needle) ||
      entry.answer.toLocaleLowerCase("en-US").includes(needle),
  );
}

/**
 * How many matches to show, from the untrusted `?show=`: at least one page,
 * at most every match; anything that is not a whole number shows one page.
 */
export function clampShow(raw: string | null | undefined, matchCount: number): number {
  const requested = /^\d{1,6}$/.test((raw ?? "").trim()) ? Number((raw ?? "").trim()) : FAQ_PAGE_SIZE;
  return Math.min(Math.max(requested, FAQ_PAGE_SIZE), Math.max(matchCount, FAQ_PAGE_SIZE));
}

/** The FAQ list for a URL's `?q=` and `?show=`. */
export function searchFaq(entries: readonly FaqEntry[], params: URLSearchParams): FaqPage {
  const query = normalizeQuery(params.get("q"));
  const matches = filterFaqEntries(entries, query);
  const show = clampShow(params.get("show"), matches.length);
  const visible = matches.slice(0, show);
  return {
    query,
    visible,
    matchCount: matches.length,
    nextShow: visible.length < matches.length ? visible.length + FAQ_PAGE_SIZE : null,
    firstNew: matches[visible.length] ?? null,
  };
}

/** The search part of a FAQ URL; an empty query and the first page leave the URL clean. */
export function faqSearchParams({ query, show }: { query: string; show?: number }): string {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (show && show > FAQ_PAGE_SIZE) params.set("show", String(show));
  const search = params.toString();
  return search ? `?${search}` : "";
}
