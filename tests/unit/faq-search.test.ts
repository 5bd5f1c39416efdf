import { FAQ_PAGE_SIZE } from "~/content/constants";
import { faqEntries, type FaqEntry } from "~/content/faq";
import {
  clampShow,
  FAQ_QUERY_MAX_LENGTH,
  faqSearchParams,
  filterFaqEntries,
  normalizeQuery,
  searchFaq,
} from "~/lib/faq-search";

function makeEntries(count: number): FaqEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `q${index + 1}`,
    question: `Question number ${index + 1}?`,
    answer: index % 2 === 0 ? "An even answer about Limit orders." : "An odd answer.",
  }));
}

describe("filterFaqEntries", () => {
  const entries = makeEntries(6);

  it("returns every entry for an empty or blank query", () => {
    expect(filterFaqEntries(entries, "")).toHaveLength(6);
    expect(filterFaqEntries(entries, "   ")).toHaveLength(6);
  });

  it("matches the answer text case-insensitively", () => {
    expect(filterFaqEntries(entries, "LIMIT ORDERS").map((e) => e.id)).toEqual(["q1", "q3", "q5"]);
    expect(filterFaqEntries(entries, "limit orders").map((e) => e.id)).toEqual(["q1", "q3", "q5"]);
  });

  it("matches the question text case-insensitively", () => {
    expect(filterFaqEntries(entries, "question NUMBER 4").map((e) => e.id)).toEqual(["q4"]);
  });

  it("returns nothing when nothing matches", () => {
    expect(filterFaqEntries(entries, "zebra")).toEqual([]);
  });

  it("does not change the entries it is given", () => {
    const copy = structuredClone(entries);
    filterFaqEntries(entries, "odd");
    expect(entries).toEqual(copy);
  });
});

describe("normalizeQuery", () => {
  it("trims and bounds the query", () => {
    expect(normalizeQuery("  hours ")).toBe("hours");
    expect(normalizeQuery(null)).toBe("");
    expect(normalizeQuery("x".repeat(500))).toHaveLength(FAQ_QUERY_MAX_LENGTH);
  });
});

describe("clampShow", () => {
  it("shows one page when show is missing or not a whole number", () => {
    for (const raw of [null, "", "abc", "1e3", "12.5", "-5", "0x20", " "]) {
      expect(clampShow(raw, 40), String(raw)).toBe(FAQ_PAGE_SIZE);
    }
  });

  it("never shows less than one page", () => {
    expect(clampShow("0", 40)).toBe(FAQ_PAGE_SIZE);
    expect(clampShow("3", 40)).toBe(FAQ_PAGE_SIZE);
  });

  it("never shows more than every match", () => {
    expect(clampShow("30", 22)).toBe(22);
    expect(clampShow("999999", 22)).toBe(22);
    expect(clampShow("99999999999999999999", 22)).toBe(FAQ_PAGE_SIZE);
  });

  it("keeps a value in range", () => {
    expect(clampShow("20", 40)).toBe(20);
    expect(clampShow("15", 40)).toBe(15);
  });
});

describe("searchFaq", () => {
  const entries = makeEntries(25);

  it("shows the first page and offers the next", () => {
    const page = searchFaq(entries, new URLSearchParams());
    expect(page.visible.map((e) => e.id)).toEqual(entries.slice(0, FAQ_PAGE_SIZE).map((e) => e.id));
    expect(page.matchCount).toBe(25);
    expect(page.nextShow).toBe(2 * FAQ_PAGE_SIZE);
    expect(page.firstNew).toEqual(entries[FAQ_PAGE_SIZE]);
    expect(page.query).toBe("");
  });

  it("adds a page at a time and stops offering more when all are shown", () => {
    expect(searchFaq(entries, new URLSearchParams("show=20")).visible).toHaveLength(20);
    expect(searchFaq(entries, new URLSearchParams("show=20")).nextShow).toBe(30);
    const last = searchFaq(entries, new URLSearchParams("show=30"));
    expect(last.visible).toHaveLength(25);
    expect(last.nextShow).toBeNull();
    expect(last.firstNew).toBeNull();
  });

  it("pages within the matches of a search", () => {
    const page = searchFaq(entries, new URLSearchParams("q=LIMIT&show=10"));
    expect(page.matchCount).toBe(13);
    expect(page.visible).toHaveLength(10);
    expect(page.nextShow).toBe(20);
    expect(searchFaq(entries, new URLSearchParams("q=limit&show=20")).nextShow).toBeNull();
  });

  it("says when nothing matches", () => {
    const page = searchFaq(entries, new URLSearchParams("q=zebra"));
    expect(page).toEqual({ query: "zebra", visible: [], matchCount: 0, nextShow: null, firstNew: null });
  });

  it("tolerates garbage in show", () => {
    for (const show of ["-1", "NaN", "Infinity", "%00", "1000000000000"]) {
      expect(searchFaq(entries, new URLSearchParams({ show })).visible.length).toBeGreaterThanOrEqual(FAQ_PAGE_SIZE);
    }
  });
});

describe("faqSearchParams", () => {
  it("leaves the URL clean for an empty query and the first page", () => {
    expect(faqSearchParams({ query: "" })).toBe("");
    expect(faqSearchParams({ query: "", show: FAQ_PAGE_SIZE })).toBe("");
  });

  it("carries the query and a larger show", () => {
    expect(faqSearchParams({ query: "good 'til", show: 20 })).toBe("?q=good+%27til&show=20");
  });
});

describe("the site's FAQ", () => {
  it("has at least twenty entries with unique ids and plain-text answers", () => {
    expect(faqEntries.length).toBeGreaterThanOrEqual(20);
    expect(new Set(faqEntries.map((e) => e.id)).size).toBe(faqEntries.length);
    for (const entry of faqEntries) {
      expect(entry.answer).not.toMatch(/<[a-z/]/i);
      expect(entry.question.trim()).not.toBe("");
    }
  });

  it("states the trading hours and the GTC limit", () => {
    expect(filterFaqEntries(faqEntries, "9:30am to 4:00pm").length).toBeGreaterThan(0);
    expect(filterFaqEntries(faqEntries, "60 days").length).toBeGreaterThan(0);
  });
});
