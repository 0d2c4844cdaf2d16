/**
 * @module
 * The pace of a reader of many evaluations' objects (./content.ts): at most {@link OBJECT_READS_PER_WINDOW}
 * objects opened in any {@link OBJECT_READ_WINDOW_MS}, per isolate. Why: the local runtime (workerd under
 * `npm start`) runs every Durable Object in one process, keeps an object resident for 10 s after its last
 * request, and caps SQLite's heap for the whole process at 512 MiB (workerd's `sqlite3_hard_heap_limit64`); each
 * resident evaluation object's database holds some of it. A results page of 1,000 items read straight through
 * opened thousands of objects within seconds, and past ~3,000 resident any SQLite call of that process failed
 * with `SQLITE_NOMEM` (the page answered 500, the crons' sweeps failed). Paced, the objects a reader opens age
 * out as fast as it opens new ones. Deployed, each object has its own process and the pace only spreads a
 * reader's requests over time (docs/scale.md, "Where a verdict lives").
 */

/** Most evaluation objects one isolate's readers open within {@link OBJECT_READ_WINDOW_MS} (1,000). */
export const OBJECT_READS_PER_WINDOW = 1_000;

/** The window of {@link OBJECT_READS_PER_WINDOW}, in ms: workerd's 10 s idle eviction plus a margin (12,000). */
export const OBJECT_READ_WINDOW_MS = 12_000;

/** A sliding-window pace: {@link ReadPace.take} resolves once a read fits in the window. */
export class ReadPace {
  /** Start times (ms) of the reads within the last window, oldest first. */
  private readonly starts: number[] = [];

  /**
   * @param perWindow most reads started within `windowMs`
   * @param windowMs the window, in ms
   * @param now the clock, in ms (a test's own)
   * @param sleep waits `ms` (a test's own)
   */
  constructor(
    readonly perWindow: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Waits until one more read fits in the window, and counts it as started now. */
  async take(): Promise<void> {
    for (;;) {
      const t = this.now();
      while (this.starts.length > 0 && (this.starts[0] ?? t) <= t - this.windowMs) this.starts.shift();
      if (this.starts.length < this.perWindow) {
        this.starts.push(t);
        return;
      }
      await this.sleep((this.starts[0] ?? t) + this.windowMs - t);
    }
  }
}

/** The isolate's pace of object reads by readers of many evaluations. */
export const objectReadPace = new ReadPace(OBJECT_READS_PER_WINDOW, OBJECT_READ_WINDOW_MS);
