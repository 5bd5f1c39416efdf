import { firm } from "./firm";
import { sentence } from "./sentence";

/** "2024–2026": from the first year to the current one; one year while they are the same. */
export function copyrightYears(firstYear: number, currentYear: number): string {
  return currentYear > firstYear ? `${firstYear}–${currentYear}` : String(firstYear);
}

/** The footer's last line, for a page rendered in `currentYear`. */
export function copyrightLine(currentYear: number): string {
  return `© ${copyrightYears(firm.firstCopyrightYear, currentYear)} ${sentence(firm.name)} All rights reserved.`;
}
