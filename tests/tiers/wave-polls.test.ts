/**
 * When a wave's provider batch is polled (src/waves/coordinator.ts): the wait backs off from `BATCH_POLL_MIN_MS`
 * while the provider works, and is back to the shortest once the batch is near its end (`finalizing`, or every
 * line run): a backoff capped at `BATCH_POLL_MAX_MS` would otherwise add up to that much to every wave.
 */
import { describe, expect, it } from 'vitest';
import { nearEnd } from '../../src/waves/coordinator.js';

const counts = (total: number, completed: number, failed: number) => ({ total, completed, failed });

describe('the poll schedule of a wave', () => {
  it('is near the end while the provider writes the output, or once every line has run', () => {
    expect(nearEnd({ status: 'finalizing', request_counts: counts(400, 390, 10) })).toBe(true);
    // Counts lag the status on some providers: finalizing is enough.
    expect(nearEnd({ status: 'finalizing', request_counts: counts(400, 0, 0) })).toBe(true);
    expect(nearEnd({ status: 'in_progress', request_counts: counts(400, 397, 3) })).toBe(true);
  });

  it('is not while lines are left, the input is being validated, or the counts are unknown', () => {
    expect(nearEnd({ status: 'in_progress', request_counts: counts(400, 399, 0) })).toBe(false);
    expect(nearEnd({ status: 'validating', request_counts: counts(0, 0, 0) })).toBe(false);
    // Before validation the total is 0: "every line run" must not read as done.
    expect(nearEnd({ status: 'in_progress', request_counts: counts(0, 0, 0) })).toBe(false);
    expect(nearEnd({ status: 'in_progress' })).toBe(false);
  });
});
