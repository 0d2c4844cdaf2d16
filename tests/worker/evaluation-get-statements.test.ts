/**
 * `GET /v1/evaluations/{id}` reads the row, its verdict and its usage sums in ONE D1 statement
 * (src/evaluations/archived.ts `findEvaluationWithResults`): a client polling its running evaluations pays
 * it on every poll, and each statement costs the runtime a round of its own. The old read took two (the row,
 * then its usage sums) and three once the evaluation succeeded (its verdict too).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiWith } from './api-fetch.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

/** The tenant of requests without a key. */
const TENANT = 'default';

/** `DB` (this project keeps everything there: `D1_SHARDS` 0) counting the statements prepared on it. */
function countingDb(): { db: D1Database; statements: string[] } {
  const statements: string[] = [];
  const db = new Proxy(testEnv.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          statements.push(sql);
          return target.prepare(sql);
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, statements };
}

/** The GET's body and the D1 statements it prepared. */
async function get(id: string): Promise<{ body: Record<string, unknown>; statements: string[] }> {
  const { db, statements } = countingDb();
  const r = await apiWith({ DB: db }, `/v1/evaluations/${id}`);
  expect(r.status).toBe(200);
  return { body: await r.json(), statements };
}

describe('GET /v1/evaluations/{id}', () => {
  it('reads a running evaluation in one D1 statement', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
    await testEnv.DB.prepare("UPDATE evaluations SET status = 'running', started_at = ? WHERE id = ?")
      .bind(Date.now(), id)
      .run();
    const { body, statements } = await get(id);
    expect(body).toMatchObject({ id, status: 'running', progress: { callsDone: 0, callsPlanned }, verdict: null });
    expect(statements).toHaveLength(1);
  });

  it('reads a succeeded evaluation, its verdict and usage included, in one D1 statement', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const { body, statements } = await get(id);
    expect(body).toMatchObject({ id, status: 'succeeded' });
    expect((body.verdict as { winner: unknown } | null)?.winner).toBeTypeOf('string');
    expect((body.usage as { calls: number }).calls).toBeGreaterThan(0);
    expect(statements).toHaveLength(1);
  });
});
