/**
 * D1 statements of a batch item's final write. The work that acts only in the ending completing the batch (its
 * completion events and their deliveries, a comparison's mark, an alignment's wake, the task groups' move, the pending
 * usage's flush, the mark) is not in every item's write: it runs once, in a transaction of its own, after the write
 * whose count ended the batch's last item.
 */
import { describe, expect, it } from 'vitest';
import { d1CallsOf } from './d1-calls.js';
import { createBatchId, getBatch, items, singleCallJudge, waitForBatch } from './batches-support.js';
import { ENDING } from '../../src/ending-plan.js';
import { testEnv } from './helpers.js';

/** A statement of the final write: its guarded status update (markEnded's sets no `calls_done`). */
const FINAL_UPDATE = 'calls_done = ?, engine_version = COALESCE(engine_version, ?)';
/** The completion's mark of the batch. */
const MARK = "UPDATE batches AS b SET status = CASE WHEN b.cancel_requested_at IS NULL THEN 'completed'";

describe("a batch item's final write", () => {
  it("leaves the batch's completion out: it runs once, on its own, after the last item's write", async () => {
    const n = 12;
    let id = '';
    const calls = await d1CallsOf(async () => {
      id = await createBatchId({ ...singleCallJudge('item-statements'), items: items(n) });
      await waitForBatch(id);
    }, 4_000);
    const show = (c: string[][]) => c.map((s) => s.map((x) => x.slice(0, 70)).join('\n  ')).join('\n---\n');
    const finals = calls.filter((c) => c.some((s) => s.includes(FINAL_UPDATE)));
    // One a verdict (more only if a write failed and was retried).
    expect(finals.length, show(finals.slice(0, 1))).toBeGreaterThanOrEqual(n);
    // 26 each when every write carried the completion's 11 statements.
    for (const write of finals) {
      expect(write.length, show([write])).toBeLessThanOrEqual(15);
      expect(
        write.some((s) => s.startsWith(MARK)),
        show([write]),
      ).toBe(false);
    }
    const completion = ENDING.beforeStatus.reduce(
      (k, e) => k + (e.completion?.(testEnv.DB, { batchId: id, causeId: 'x', now: 0 }).length ?? 0),
      0,
    );
    expect(completion).toBeGreaterThanOrEqual(10);
    const marks = calls.filter((c) => c.some((s) => s.startsWith(MARK)));
    expect(marks, show(marks)).toHaveLength(1);
    expect(marks[0]).toHaveLength(completion);
    const batch = await getBatch(id);
    expect(batch).toMatchObject({ status: 'completed', counts: { succeeded: n } });
  });
});
