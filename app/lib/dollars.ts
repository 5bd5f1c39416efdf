/** Whole U.S. dollars as the pages write them: $250,000. */
export function formatDollars(amount: number): string {
  return `$${amount.toLocaleString("en-US", { maximumFractionDigits: 0 })}`;
}
