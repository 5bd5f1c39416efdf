import { quarterHasPassed, quarterNamedIn } from "~/lib/quarter";

const on = (isoDate: string) => new Date(`${isoDate}T12:00:00Z`);

describe("quarterNamedIn", () => {
  it("reads the words pages use, and the short forms", () => {
    expect(quarterNamedIn("the fourth quarter of 2025")).toEqual({ year: 2025, quarter: 4 });
    expect(quarterNamedIn("  The First  quarter of 2027 ")).toEqual({ year: 2027, quarter: 1 });
    expect(quarterNamedIn("second quarter of 2026")).toEqual({ year: 2026, quarter: 2 });
    expect(quarterNamedIn("Q3 2026")).toEqual({ year: 2026, quarter: 3 });
    expect(quarterNamedIn("q3-2026")).toEqual({ year: 2026, quarter: 3 });
    expect(quarterNamedIn("2026-Q3")).toEqual({ year: 2026, quarter: 3 });
    expect(quarterNamedIn("2026 Q3")).toEqual({ year: 2026, quarter: 3 });
  });

  it("names no quarter in anything else", () => {
    for (const text of [
      "",
      "2026",
      "early 2027",
      "the first half of 2027",
      "the fifth quarter of 2026",
      "Q5 2026",
      "Q0 2026",
      "Q4 26",
      "the fourth quarter of 2025 or later",
      "sometime in the fourth quarter of 2025",
    ]) {
      expect(quarterNamedIn(text), text).toBeUndefined();
    }
  });
});

describe("quarterHasPassed", () => {
  const q4of2025 = { year: 2025, quarter: 4 } as const;

  it("has passed from the first day after the quarter", () => {
    expect(quarterHasPassed(q4of2025, on("2026-01-01"))).toBe(true);
    expect(quarterHasPassed(q4of2025, on("2026-11-26"))).toBe(true);
    expect(quarterHasPassed({ year: 2026, quarter: 3 }, on("2026-11-26"))).toBe(true);
  });

  it("has not passed while it lasts, to its last day", () => {
    expect(quarterHasPassed(q4of2025, on("2025-10-01"))).toBe(false);
    expect(quarterHasPassed(q4of2025, new Date("2025-12-31T23:59:59.999Z"))).toBe(false);
  });

  it("has not passed before it starts", () => {
    expect(quarterHasPassed(q4of2025, on("2025-09-30"))).toBe(false);
    expect(quarterHasPassed({ year: 2027, quarter: 1 }, on("2026-11-26"))).toBe(false);
  });
});
