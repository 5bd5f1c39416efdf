/**
 * The calendar quarter a setting names (OPERATING_START), so that a server can tell when the
 * sentence pages show has gone stale. Pages show the text as written; only these forms are read:
 * "the fourth quarter of 2025" (the words pages use), "Q4 2025" and "2025-Q4".
 */
export type Quarter = { year: number; quarter: 1 | 2 | 3 | 4 };

const ORDINALS = ["first", "second", "third", "fourth"];

const IN_WORDS = /^(?:the )?(first|second|third|fourth) quarter of (\d{4})$/i;
const QUARTER_THEN_YEAR = /^Q([1-4])[ /-]?(\d{4})$/i;
const YEAR_THEN_QUARTER = /^(\d{4})[ -]?Q([1-4])$/i;

/** The quarter the whole text names, or undefined when it names none (or says more than a quarter). */
export function quarterNamedIn(text: string): Quarter | undefined {
  const plain = text.trim().replace(/\s+/g, " ");
  const inWords = IN_WORDS.exec(plain);
  if (inWords) return quarterOf(Number(inWords[2]), ORDINALS.indexOf(inWords[1].toLowerCase()) + 1);
  const quarterFirst = QUARTER_THEN_YEAR.exec(plain);
  if (quarterFirst) return quarterOf(Number(quarterFirst[2]), Number(quarterFirst[1]));
  const yearFirst = YEAR_THEN_QUARTER.exec(plain);
  if (yearFirst) return quarterOf(Number(yearFirst[1]), Number(yearFirst[2]));
  return undefined;
}

/** Whether the quarter ended before `today` (in UTC): the quarter `today` is in has not passed. */
export function quarterHasPassed({ year, quarter }: Quarter, today: Date): boolean {
  const currentYear = today.getUTCFullYear();
  const currentQuarter = Math.floor(today.getUTCMonth() / 3) + 1;
  return year < currentYear || (year === currentYear && quarter < currentQuarter);
}

function quarterOf(year: number, quarter: number): Quarter {
  return { year, quarter: quarter as Quarter["quarter"] };
}
