/**
 * Progress writes (D1 `calls_done` / `updated_at` while an evaluation runs) go out only while D1 is older than a
 * quarter of `STALL_SECONDS` (the sweeper reads `updated_at`), so a debate that ends within it writes none. When
 * they go out they are coalesced: the results of one wave's parallel calls become one write, a wave that
 * concludes the evaluation writes none (the final write carries the count), and a debate refreshes D1 between
 * its stages.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { PROGRESS_DELAY_MS } from '../../durable-objects/evaluation/final-write.js';
import { drainAlarms, insertJob, PAIRWISE, replyInGroups, runInTestObject, statusRow, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

/** A STALL_SECONDS (s) that makes progress refresh D1 on every wave (it must be above 0). */
const TINY_STALL = '0.001';

/** The progress write's statement (src/evaluations/job-rows.ts, recordProgress). */
const PROGRESS_SQL = /calls_done = MAX\(calls_done, \?\)/;

/**
 * Starts evaluation `id` on its object with the object's D1 binding spied on, waits for the end, and counts
 * the progress writes the object prepared meanwhile.
 */
async function progressWritesOf(id: string, stallSeconds?: string): Promise<number> {
  // The tests and the object share this isolate: the spy outlives the call that set it.
  let spy: MockInstance<D1Database['prepare']> | undefined;
  await runInTestObject(id, async (o) => {
    // A tiny STALL_SECONDS: refresh D1 on every wave, as the coalescing tests below need.
    if (stallSeconds !== undefined) o.useBindings({ STALL_SECONDS: stallSeconds });
    spy = vi.spyOn(o.bindings.DB, 'prepare');
    await o.start(id);
  });
  expect((await waitForEnd(id)).status).toBe('succeeded');
  // A write the last results scheduled goes out (or is dropped) PROGRESS_DELAY_MS later: wait for it to settle.
  await vi.waitFor(
    async () => {
      expect(await runInTestObject(id, (o) => o.progressBusy())).toBe(false);
    },
    { timeout: 5_000, interval: 10 },
  );
  const count = spy?.mock.calls.filter(([sql]) => PROGRESS_SQL.test(sql)).length;
  spy?.mockRestore();
  if (count === undefined) throw new Error('the spy was not set');
  return count;
}

describe('progress writes', () => {
  it('one wave of six parallel calls that concludes the evaluation writes no progress, only the final write', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'faireval-mec-bpc', task: PAIRWISE, mock: { latency: 30 } });
    expect(callsPlanned).toBe(6);
    // The six replies reach the object together, however late a loaded machine answers one of them.
    await replyInGroups(id, 6);
    expect(await progressWritesOf(id, TINY_STALL)).toBe(0);
    expect((await statusRow(id))?.calls_done).toBe(6);
  });

  it('a debate of four stages refreshes D1 between its stages, at most once per stage before the last', async () => {
    // Each stage's two calls take 4 × PROGRESS_DELAY_MS, so a stage's write goes out while the next one runs.
    const { id } = await insertJob({
      preset: 'chateval-faireval',
      task: PAIRWISE,
      mock: { latency: PROGRESS_DELAY_MS * 4 },
    });
    // A stage's two replies reach the object together, however late a loaded machine answers one of them:
    // only the coalescing under test decides how many writes a stage makes.
    await replyInGroups(id, 2);
    const writes = await progressWritesOf(id, TINY_STALL);
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(3);
  });

  it('a debate that ends within a quarter of STALL_SECONDS writes no progress: its running mark is fresh enough', async () => {
    const { id } = await insertJob({
      preset: 'chateval-faireval',
      task: PAIRWISE,
      mock: { latency: PROGRESS_DELAY_MS * 4 },
    });
    await replyInGroups(id, 2);
    // The default STALL_SECONDS (120 s): D1 is refreshed every 30 s at most, and the debate takes about 2 s.
    expect(await progressWritesOf(id)).toBe(0);
    const row = await statusRow(id);
    expect(row?.status).toBe('succeeded');
    expect(row?.calls_done).toBeGreaterThanOrEqual(8);
  });
});
