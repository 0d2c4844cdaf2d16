/**
 * D1 rows written by one single evaluation (`POST /v1/evaluations` with `Prefer: wait`), judged and as a verdict
 * cache hit, summed from D1's own `meta.rows_written` over every statement this isolate sends (the API's insert and
 * the object's final write share the binding's prototype). The insert decides the fast start's slot and the
 * verdict cache's hit itself, so it writes the row once: an update after it wrote the row again and moved its index
 * entries (12 rows a judged verdict and 13 a hit before). The evaluation's object holds the task before D1 knows the
 * evaluation and runs the insert itself, so D1 keeps no waiting copy of the task (10 rows each before;
 * docs/scale.md, "A single evaluation's rows").
 */
import { describe, expect, it } from 'vitest';
import { postJson } from './api-fetch.js';
import { PAIRWISE, testEnv } from './helpers.js';

/**
 * Runs `run` and sums `meta.rows_written` of every D1 batch, `run()` and `all()` this isolate makes meanwhile, and
 * counts their statements.
 */
async function rowsWrittenBy(run: () => Promise<void>): Promise<{ rows: number; statements: number }> {
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
  let statements = 0;
  const add = (r: D1Result) => {
    written += r.meta.rows_written;
    statements += 1;
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
  return { rows: written, statements };
}

describe('D1 rows written by a single evaluation', () => {
  it('a judged verdict and a verdict cache hit each write at most 8 rows (11 and 9 statements)', async () => {
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
    // The row with its slot (3), the usage roll-up (1), the status update with the cache entry (3): 7. The object
    // holds the task before D1 knows the evaluation, so D1 keeps no waiting copy (its insert, scrub and delete).
    const judged = await once(false);
    expect(judged.rows).toBeGreaterThan(0);
    expect(judged.rows).toBeLessThanOrEqual(8);
    // Counted over the insert's batch (the config, the row, the admitted row read back) and the final write's.
    expect(judged.statements).toBeLessThanOrEqual(11);
    // The row with its slot and hit (5), the status update (2).
    const hit = await once(true);
    expect(hit.rows).toBeLessThanOrEqual(8);
    expect(hit.statements).toBeLessThanOrEqual(9);
  });
});
