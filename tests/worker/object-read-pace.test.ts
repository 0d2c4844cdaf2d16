/**
 * `OBJECT_READ_PACE` reaches each reader of many evaluations' objects (src/evaluations/read-pace.ts): a batch's
 * results, an annotation queue made from evaluations, the archive's moves. Each takes the isolate's pace once per
 * object it opens, and none when the setting is 0. A rate no other test uses keeps the count this file's; no test
 * pages thousands of objects, so the count is what shows the wiring (the pace itself: tests/evaluations).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Queue } from '../../src/annotation-queues/schemas.js';
import { objectReadPaceOf } from '../../src/evaluations/read-pace.js';
import { moveToArchive } from '../../src/retention/archive.js';
import { apiWith } from './api-fetch.js';
import { createBatchId, items, resultsPage, singleCallJudge, waitForBatch } from './batches-support.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);
afterEach(() => {
  vi.restoreAllMocks();
});

/** A pace no other file configures, so every take counted is this file's. */
const RATE = 997;

/** Counts the takes of the isolate's pace at {@link RATE}. */
function countTakes(): { readonly count: number } {
  const pace = objectReadPaceOf(RATE);
  if (!pace) throw new Error('a positive rate has a pace');
  const take = vi.spyOn(pace, 'take');
  return {
    get count() {
      return take.mock.calls.length;
    },
  };
}

const paced = { OBJECT_READ_PACE: String(RATE) };

describe('the object-read pace reaches its readers', () => {
  it("a batch's results page takes it once per verdict read from an object, and not at all when unpaced", async () => {
    const id = await createBatchId({ ...singleCallJudge('read-pace'), items: items(3) });
    expect((await waitForBatch(id)).counts.succeeded).toBe(3);
    const takes = countTakes();
    const unpaced = await resultsPage(id);
    expect(unpaced.lines.every((l) => l.verdict !== null)).toBe(true);
    expect(takes.count).toBe(0);
    const r = await apiWith(paced, `/v1/batches/${id}/results`);
    expect(r.status).toBe(200);
    const lines = (await r.text()).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(takes.count).toBe(3);
  });

  it('an annotation queue made from evaluations takes it once per task read from an object', async () => {
    const id = await createBatchId({ ...singleCallJudge('read-pace-queue'), items: items(2) });
    expect((await waitForBatch(id)).counts.succeeded).toBe(2);
    const rubric = await apiWith({}, '/v1/rubrics', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'pairwise', name: `pace-${id}`, criteria: 'Which answer helps more?' }),
    });
    expect(rubric.status, await rubric.clone().text()).toBe(201);
    const { id: rubricId } = await rubric.json<{ id: string }>();
    const takes = countTakes();
    const r = await apiWith(paced, '/v1/annotation-queues', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'paced', rubric: rubricId, fromEvaluations: { filter: { batch: id } } }),
    });
    expect(r.status, await r.clone().text()).toBe(201);
    expect((await r.json<Queue>()).progress.total).toBe(2);
    expect(takes.count).toBe(2);
  });

  it("the archive's moves take it once per evaluation they open", async () => {
    const now = Date.now();
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'default' });
      await testEnv.JOBS.send({ id });
      expect((await waitForEnd(id)).status).toBe('succeeded');
      ids.push(id);
    }
    await testEnv.DB.prepare(`UPDATE evaluations SET finished_at = ? WHERE id IN (?, ?)`)
      .bind(now - 8 * 86_400_000, ...ids)
      .run();
    const takes = countTakes();
    const report = await moveToArchive({ ...testEnv, ...paced }, testEnv.DB, now);
    // Other files' evaluations ended as long ago may move too: each opened is counted.
    expect(report.moved).toBeGreaterThanOrEqual(2);
    expect(takes.count).toBeGreaterThanOrEqual(report.moved);
  });
});
