/**
 * Progress writes (D1 `calls_done` / `updated_at` while an evaluation runs) go out only while D1 is older than a
 * quarter of `STALL_SECONDS` (the sweeper reads `updated_at`), so a debate that ends within it writes none. When
 * they go out they are coalesced: the results of one wave's parallel calls become one write, a wave that
 * concludes the evaluation writes none (the final write carries the count), and a debate refreshes D1 between
 * its stages.
 *
 * The wait that coalesces a wave's results is wall-clock (50 ms): a loaded machine can take longer than that
 * between two replies that reached the object together, so these tests give the object a wait far above it
 * (`useProgressDelay`), and the debate's stages go on only once the test has seen the previous stage's write.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { PROGRESS_DELAY_MS } from '../../durable-objects/evaluation/final-write.js';
import {
  drainAlarms,
  heldReplies,
  insertJob,
  PAIRWISE,
  pollUntil,
  releaseReplies,
  replyInGroups,
  runInTestObject,
  statusRow,
  waitForEnd,
} from './helpers.js';

afterEach(drainAlarms);

/** A STALL_SECONDS (s) that makes progress refresh D1 on every wave (it must be above 0). */
const TINY_STALL = '0.001';

/** The progress write's statement (src/evaluations/job-rows.ts, recordProgress). */
// Its `running` mark with the count: the final write's booking of a row ended elsewhere raises `calls_done` too.
const PROGRESS_SQL =
  /SET status = 'running', started_at = COALESCE\(started_at, \?\), calls_done = MAX\(calls_done, \?\)/;

/** A progress write's wait far above the time a loaded machine takes between two replies that arrived together, ms. */
const SAFE_DELAY_MS = PROGRESS_DELAY_MS * 20;

/** The progress writes `spy` saw the object prepare. */
const writesIn = (spy: MockInstance<D1Database['prepare']> | undefined) =>
  spy?.mock.calls.filter(([sql]) => PROGRESS_SQL.test(sql)).length ?? 0;

/**
 * Starts evaluation `id` on its object with the object's D1 binding spied on (a tiny STALL_SECONDS and a
 * progress wait of {@link SAFE_DELAY_MS} when `coalesce` is set), runs `meanwhile` with the spy, waits for the
 * end, and counts the progress writes the object prepared.
 */
async function progressWritesOf(
  id: string,
  coalesce: boolean,
  meanwhile?: (spy: MockInstance<D1Database['prepare']> | undefined) => Promise<void>,
): Promise<number> {
  // The tests and the object share this isolate: the spy outlives the call that set it.
  let spy: MockInstance<D1Database['prepare']> | undefined;
  await runInTestObject(id, async (o) => {
    if (coalesce) {
      // A tiny STALL_SECONDS: refresh D1 on every wave, as the coalescing tests below need.
      o.useBindings({ STALL_SECONDS: TINY_STALL });
      o.useProgressDelay(SAFE_DELAY_MS);
    }
    spy = vi.spyOn(o.bindings.DB, 'prepare');
    await o.start(id);
  });
  await meanwhile?.(spy);
  expect((await waitForEnd(id)).status).toBe('succeeded');
  // A write the last results scheduled goes out (or is dropped) PROGRESS_DELAY_MS later: wait for it to settle.
  await vi.waitFor(
    async () => {
      expect(await runInTestObject(id, (o) => o.progressBusy())).toBe(false);
    },
    { timeout: 5_000, interval: 10 },
  );
  if (spy === undefined) throw new Error('the spy was not set');
  const count = writesIn(spy);
  spy.mockRestore();
  return count;
}

describe('progress writes', () => {
  it('one wave of six parallel calls that concludes the evaluation writes no progress, only the final write', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'faireval-mec-bpc', task: PAIRWISE, mock: { latency: 30 } });
    expect(callsPlanned).toBe(6);
    // The six replies reach the object together, however late a loaded machine answers one of them.
    await replyInGroups(id, 6);
    expect(await progressWritesOf(id, true)).toBe(0);
    expect((await statusRow(id))?.calls_done).toBe(6);
  });

  it('a debate of four stages refreshes D1 between its stages, once per stage before the last', async () => {
    const { id } = await insertJob({ preset: 'chateval-faireval', task: PAIRWISE });
    // The mock holds every reply: a stage's two go out together, and only once the previous stage's write went
    // out (it goes out while the next stage runs), so only the coalescing under test decides the count.
    await replyInGroups(id, Infinity);
    const writes = await progressWritesOf(id, true, async (spy) => {
      for (let stage = 1; stage <= 4; stage++) {
        await pollUntil(
          () => heldReplies(id),
          (n) => n === 2,
        );
        expect(await releaseReplies(id)).toBe(2);
        if (stage < 4)
          await pollUntil(
            () => Promise.resolve(writesIn(spy)),
            (n) => n >= stage,
          );
      }
    });
    expect(writes).toBe(3);
  });

  it('a debate that ends within a quarter of STALL_SECONDS writes no progress: its running mark is fresh enough', async () => {
    const { id } = await insertJob({
      preset: 'chateval-faireval',
      task: PAIRWISE,
      mock: { latency: PROGRESS_DELAY_MS * 4 },
    });
    await replyInGroups(id, 2);
    // The default STALL_SECONDS (120 s): D1 is refreshed every 30 s at most, and the debate takes about 2 s.
    expect(await progressWritesOf(id, false)).toBe(0);
    const row = await statusRow(id);
    expect(row?.status).toBe('succeeded');
    expect(row?.calls_done).toBeGreaterThanOrEqual(8);
  });
});
