/** Parts of a video played, as [from, to] pairs in ms: their union, and its length. */
export type PlayedRange = [number, number];

/** The union of the ranges, sorted, touching ones joined. */
export function unionOfRanges(ranges: readonly PlayedRange[]): PlayedRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const union: PlayedRange[] = [];
  for (const [from, to] of sorted) {
    const last = union.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else union.push([from, to]);
  }
  return union;
}

export function lengthOfRanges(ranges: readonly PlayedRange[]): number {
  return unionOfRanges(ranges).reduce((sum, [from, to]) => sum + (to - from), 0);
}
