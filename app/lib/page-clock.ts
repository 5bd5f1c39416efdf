/**
 * The time each page of a document is on screen while it is read: counted only while the tab is visible
 * and the reader active. Without input (a key, a pointer, a scroll, a touch) for IDLE_AFTER_MS the clock
 * stops at that moment; the next input, a page turned or the tab shown again restarts it.
 * The time is kept per page until `take` hands it over for a report.
 */
export const IDLE_AFTER_MS = 60_000;

export type PageTime = { page: number; ms: number };

export class PageClock {
  private page: number | null = null;
  /** When the running stretch began; null while the clock stands. */
  private since: number | null = null;
  private lastInput: number;
  private pending = new Map<number, number>();

  constructor(
    private readonly now: () => number,
    private visible: boolean,
  ) {
    this.lastInput = now();
  }

  /** A page is on screen (turning to it is the reader's input). */
  show(page: number) {
    const at = this.settle();
    this.stop(at);
    this.page = page;
    this.lastInput = at;
    this.start(at);
  }

  /** The reader did something. */
  input() {
    const at = this.settle();
    this.lastInput = at;
    this.start(at);
  }

  /** The tab was hidden or shown again (coming back to it is the reader's input). */
  visibility(visible: boolean) {
    const at = this.settle();
    this.visible = visible;
    if (!visible) return this.stop(at);
    this.lastInput = at;
    this.start(at);
  }

  /** The time counted since the last take, per page, and nothing kept; the clock runs on. */
  take(): PageTime[] {
    const at = this.settle();
    if (this.since !== null) {
      this.stop(at);
      this.since = at;
    }
    const taken = [...this.pending].map(([page, ms]) => ({ page, ms: Math.round(ms) })).filter((time) => time.ms > 0);
    this.pending.clear();
    return taken;
  }

  /** Now, the clock stopped first where the reader went idle. */
  private settle(): number {
    const at = this.now();
    const idleFrom = this.lastInput + IDLE_AFTER_MS;
    if (this.since !== null && at >= idleFrom) this.stop(Math.max(idleFrom, this.since));
    return at;
  }

  private start(at: number) {
    if (this.since === null && this.visible && this.page !== null) this.since = at;
  }

  private stop(at: number) {
    if (this.since === null || this.page === null) return;
    this.pending.set(this.page, (this.pending.get(this.page) ?? 0) + (at - this.since));
    this.since = null;
  }
}
