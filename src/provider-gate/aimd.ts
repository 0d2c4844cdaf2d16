/**
 * @module
 * Additive-increase / multiplicative-decrease (AIMD) of a concurrency window, as TCP does it: the number of
 * LLM attempts one provider and model may have in flight. Platform-free and pure (the state is
 * serializable; durable-objects/provider-gate/ persists it).
 *
 * - **Slow start**: below `ssthresh` every successful attempt adds 1 (the window doubles per round trip);
 *   `ssthresh` starts at `max`, so an idle deployment finds its level fast.
 * - **Congestion avoidance**: at or above `ssthresh` each success adds 1/window (+1 per round trip).
 * - **Backoff**: a 429 halves the window (never below `min`) and sets `ssthresh` there, once per
 *   epoch: attempts already in flight when the window was cut were sent under the old window, so their
 *   429s do not cut it again (one cut per round trip, not one per concurrent 429).
 * - Growth only counts while the window is the limit ("application-limited" otherwise): a quiet
 *   period does not inflate the window and then let a burst storm the provider.
 */

/** Bounds of the window. */
export interface AimdOptions {
  /** Window to start from, ≥ 1. */
  start: number;
  /** Largest window, ≥ 1. */
  max: number;
  /** Smallest window. Default 1. */
  min?: number;
}

/** The controller's state (serializable). */
export interface AimdState {
  /** Current window; fractional during congestion avoidance. */
  window: number;
  /** Slow-start threshold. */
  ssthresh: number;
  /** Incremented by every cut; an attempt remembers the epoch it was admitted in. */
  epoch: number;
}

/** An AIMD concurrency window. */
export class Aimd {
  private readonly min: number;
  private readonly max: number;
  state: AimdState;

  constructor(options: AimdOptions, state?: AimdState) {
    this.min = Math.max(1, options.min ?? 1);
    this.max = Math.max(this.min, options.max);
    const start = Math.min(this.max, Math.max(this.min, options.start));
    // A stored state is kept but clamped to bounds that may have changed since (a deploy).
    this.state = state
      ? { window: this.clamp(state.window), ssthresh: this.clamp(state.ssthresh), epoch: state.epoch }
      : { window: start, ssthresh: this.max, epoch: 0 };
  }

  private clamp(n: number): number {
    return Math.min(this.max, Math.max(this.min, Number.isFinite(n) ? n : this.min));
  }

  /** Attempts allowed in flight now: the window rounded down. */
  limit(): number {
    return Math.floor(this.state.window);
  }

  /**
   * A successful attempt (or any answer that was not a 429).
   * @param windowFull whether the window was the limit when it ended (in flight + waiting ≥ limit); growth counts only then.
   */
  onSuccess(windowFull: boolean): void {
    if (!windowFull) return;
    const s = this.state;
    s.window = this.clamp(s.window < s.ssthresh ? s.window + 1 : s.window + 1 / s.window);
  }

  /**
   * A 429 from an attempt admitted in `epoch`. Cuts the window in half unless a cut already happened
   * since that attempt was admitted.
   * @returns true when the window was cut.
   */
  onRateLimited(epoch: number): boolean {
    const s = this.state;
    if (epoch !== s.epoch) return false;
    s.ssthresh = this.clamp(s.window / 2);
    s.window = s.ssthresh;
    s.epoch += 1;
    return true;
  }
}
