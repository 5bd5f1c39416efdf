/**
 * The time every model reads, so that tests can check expiry boundaries
 * exactly (valid at the limit, refused one millisecond or second after).
 */
let offsetMs = 0;
let frozenAt: number | undefined;

export function now(): number {
  return frozenAt ?? Date.now() + offsetMs;
}

/** The current year, in UTC: what the copyright line runs to. */
export function currentYear(): number {
  return new Date(now()).getUTCFullYear();
}

export const testClock = {
  freeze(at: number) {
    frozenAt = at;
  },
  advance(ms: number) {
    if (frozenAt !== undefined) frozenAt += ms;
    else offsetMs += ms;
  },
  reset() {
    frozenAt = undefined;
    offsetMs = 0;
  },
};
