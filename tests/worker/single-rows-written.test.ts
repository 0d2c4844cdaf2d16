/**
 * D1 rows written by one single evaluation (`POST /v1/evaluations` with `Prefer: wait`), judged and as a verdict
 * cache hit, summed from D1's own `meta.rows_written` over every statement this isolate sends (the API's insert and
 * the object's final write share the binding's prototype). The insert decides the fast start's slot and the
 * verdict cache's hit itself, so it writes the row once: an update after it wrote the row again and moved its index
 * entries (12 rows a judged verdict and 13 a hit before; docs/scale.md, "The single path's rows").
 */
import { describe, expect, it } from 'vitest';
import { postJson } from './api-fetch.js';
import { PAIRWISE, testEnv } from './helpers.js';

/** Runs `run` and sums `meta.rows_written` of every D1 batch, `run()` and `all()` this isolate makes meanwhile. */
async function rowsWrittenBy(run: () => Promise<void>): Promise<number> {
  const db = Object.getPrototypeOf(testEnv.DB) as {
    batch: (list: D1PreparedStatement[]) => Promise<D1Result[]>;
  };
  const stmt = Object.getPrototypeOf(testEnv.DB.prepare('SELECT 1')) as {
    run: () => Promise<D1Result>;
    all: () => Promise<D1Result>;
  };
  const { batch } = db;
  const { run: runOne, all } = stmt;
  let written = 0;
  const add = (r: D1Result) => {
    written += r.meta.rows_written;
    return r;
  };
  db.batch = async function (this: D1Database, list: D1PreparedStatement[]) {
    const results = await batch.call(this, list);
    results.forEach(add);
    return results;
  };
  stmt.run = async function (this: D1PreparedStatement) {
    return add(await runOne.call(this));
  };
  stmt.all = async function (this: D1PreparedStatement) {
    return add(await all.call(this));
  };
  try {
    await run();
  } finally {
    db.batch = batch;
    stmt.run = runOne;
    stmt.all = all;
  }
  return written;
}

describe('D1 rows written by a single evaluation', () => {
  it('a judged verdict and a verdict cache hit each write at most 10 rows', async () => {
    const once = async (hit: boolean, question = 'How many rows do I write?') =>
      rowsWrittenBy(async () => {
        const res = await postJson(
          '/v1/evaluations',
          { preset: 'fastchat-pair', task: { ...PAIRWISE, question } },
          { Prefer: 'wait=30' },
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ status: 'succeeded', cache: { hit } });
      });
    // The preset's resolved config is stored once by hash (a row of its own the first time): stored first.
    await once(false, 'Which config do I store?');
    // The row with its slot (3), its task's waiting copy written, scrubbed and deleted (3), the usage roll-up (1),
    // the status update with the cache entry (3).
    const judged = await once(false);
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThanOrEqual(10);
    // The row with its slot and hit (5), the task's copy (3), the status update (2).
    const hit = await once(true);
    expect(hit).toBeLessThanOrEqual(10);
  });
});
