/**
 * @module
 * The pace of a reader of many evaluations' objects (./content.ts): at most `OBJECT_READ_PACE` objects opened in
 * any {@link OBJECT_READ_WINDOW_MS}, per isolate; unpaced when it is 0 (the default, and what a deployment wants).
 * Why the local runtime sets it (1,000: src/cli/local-stack.ts, npm start): workerd there runs every Durable
 * Object in one process, keeps an object resident for 10 s after its last request, and caps SQLite's heap for the
 * whole process at 512 MiB (workerd's `sqlite3_hard_heap_limit64`); each resident evaluation object's database
 * holds some of it. A results page of 1,000 items read straight through opened thousands of objects within
 * seconds, and past ~3,000 resident any SQLite call of that process failed with `SQLITE_NOMEM` (the page answered
 * 500, the crons' sweeps failed). Paced, the objects a reader opens age out as fast as it opens new ones.
 * Deployed, each object has its own process, so a pace would only slow every tenant's paging in an isolate and
 * let one tenant's reads delay another's (docs/scale.md, "Reading many objects: at a pace").
 */

/** The window of `OBJECT_READ_PACE`, in ms: workerd's 10 s idle eviction plus a margin (12,000). */
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

  /** The last waiter's turn: each take waits for the one before it, so a newcomer never passes a sleeping page. */
  private turn: Promise<void> = Promise.resolve();

  /** Waits, in the order asked, until one more read fits in the window, and counts it as started now. */
  take(): Promise<void> {
    const mine = this.turn.then(() => this.fit());
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Waits until one more read fits in the window, and counts it as started now. */
  private async fit(): Promise<void> {
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

/** The isolate's paces by reads per window: one window per configured rate, kept while the isolate lives. */
const paces = new Map<number, ReadPace>();

/**
 * The isolate's pace of object reads by readers of many evaluations at `perWindow` objects per
 * {@link OBJECT_READ_WINDOW_MS} (the config's `OBJECT_READ_PACE`), made on first use; null when 0 (unpaced).
 */
export function objectReadPaceOf(perWindow: number): ReadPace | null {
  if (perWindow <= 0) return null;
  let pace = paces.get(perWindow);
  if (!pace) {
    pace = new ReadPace(perWindow, OBJECT_READ_WINDOW_MS);
    paces.set(perWindow, pace);
  }
  return pace;
}
