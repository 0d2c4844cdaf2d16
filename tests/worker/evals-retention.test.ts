/**
 * Evals runs past their tenant's retention (src/evals/run-retention.ts, swept by src/retention/sweep.ts): an
 * ended run's content is erased as `DELETE …/runs/{id}` erases it, by the rule evaluations follow
 * (`RETENTION_DAYS`, 30, after its end); a recent run, and one not ended, stay. Times are the rows' own.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { eraseExpiredRuns } from '../../src/evals/run-retention.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { pollUntil, testEnv } from './helpers.js';
import { EXACT_CHECK, failure, ITEM_SCHEMA, sdk } from './openai-support.js';

const client = sdk();
const DAY_MS = 86_400_000;

const LINES = [
  { item: { question: 'Capital of France?', answer: 'Paris' }, sample: { output_text: 'Paris' } },
  { item: { question: 'Largest planet?', answer: 'Jupiter' }, sample: { output_text: 'Saturn' } },
];

async function endedRun(evalId: string): Promise<OpenAI.Evals.RunRetrieveResponse> {
  const run = await client.evals.runs.create(evalId, {
    data_source: { type: 'jsonl', source: { type: 'file_content', content: LINES } },
  });
  return pollUntil(
    () => client.evals.runs.retrieve(run.id, { eval_id: evalId }),
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
  );
}

/** Moves run `id`'s end (its `updated_at`) `days` into the past. */
async function endedDaysAgo(id: string, days: number, now: number): Promise<void> {
  await testEnv.DB.prepare('UPDATE eval_runs SET updated_at = ? WHERE id = ?')
    .bind(now - days * DAY_MS, id)
    .run();
}

const itemRows = async (runId: string) =>
  (
    await testEnv.DB.prepare('SELECT count(*) AS n FROM eval_run_items WHERE run_id = ?')
      .bind(runId)
      .first<{ n: number }>()
  )?.n;

describe('Evals runs past their retention', () => {
  it('an ended run 31 days after its end is erased as its delete does; a recent one and one not ended stay', async () => {
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [EXACT_CHECK],
    });
    const old = await endedRun(ev.id);
    const recent = await endedRun(ev.id);
    expect(old.status).toBe('completed');
    expect(await itemRows(old.id)).toBe(2);
    const now = Date.now();
    await endedDaysAgo(old.id, 31, now);
    await endedDaysAgo(recent.id, 29, now);
    // A run that never ended (its worker lost), however old: not the sweep's to erase.
    const stuck = await endedRun(ev.id);
    await testEnv.DB.prepare("UPDATE eval_runs SET status = 'in_progress', updated_at = ? WHERE id = ?")
      .bind(now - 40 * DAY_MS, stuck.id)
      .run();

    const report = await sweepRetention(testEnv, now);
    expect((await failure(client.evals.runs.retrieve(old.id, { eval_id: ev.id }))).status).toBe(404);
    expect(report.evalRuns).toBeGreaterThanOrEqual(1);
    expect((await client.evals.runs.list(ev.id)).data.map((r) => r.id).sort()).toEqual([recent.id, stuck.id].sort());
    expect(await itemRows(old.id)).toBe(0);
    expect(await itemRows(recent.id)).toBe(2);
    // The tombstone stays (ids, status, counts, times), its inline items gone.
    const tomb = await testEnv.DB.prepare('SELECT status, data_source, deleted_at FROM eval_runs WHERE id = ?')
      .bind(old.id)
      .first<{ status: string; data_source: string; deleted_at: number | null }>();
    expect(tomb).toEqual({ status: 'completed', data_source: '{}', deleted_at: now });
    // A second sweep finds nothing more of it.
    await sweepRetention(testEnv, now);
    expect(await itemRows(recent.id)).toBe(2);
  });

  it("the sweep's page reads only runs past the shortest retention, not every recently ended run, to find none due", async () => {
    const now = Date.now();
    const tenant = `tn_recent_${now}`;
    const rows = Array.from({ length: 200 }, (_, i) =>
      testEnv.DB.prepare(
        `INSERT INTO eval_runs (id, tenant, eval_id, name, status, data_source, items_total, created_at, updated_at)
         VALUES (?, ?, 'eval_recent', '', 'completed', '{}', 0, ?, ?)`,
      ).bind(`evalrun_recent_${now}_${i}`, tenant, now - 2 * DAY_MS, now - DAY_MS - i),
    );
    await testEnv.DB.batch(rows);
    const read: number[] = [];
    // The page's read, with D1's count of the rows it read.
    const counting = {
      prepare: (sql: string) => {
        const statement = testEnv.DB.prepare(sql);
        return {
          bind: (...values: unknown[]) => {
            const bound = statement.bind(...values);
            return {
              all: async <T>() => {
                const result = await bound.all<T>();
                read.push(result.meta.rows_read);
                return result;
              },
            };
          },
        };
      },
    } as unknown as D1Database;
    expect(await eraseExpiredRuns(counting, now, 30, 50)).toBe(0);
    expect(read).toHaveLength(1);
    // The 200 runs that ended a day ago are not walked (the old read walked every one of them).
    expect(read[0]).toBeLessThan(50);
  });
});
