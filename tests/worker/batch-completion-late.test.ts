/**
 * The window a batch item's final write leaves open: its count ends the batch's last item in one transaction, and the
 * batch's completion (events, task groups, pending usage, mark) follows in a second one. A failure or crash between
 * the two leaves a batch whose items have all ended and that is not marked: readers count its usage as an open
 * batch's meanwhile, a cancel finds it ended, and the sweeper completes it, once.
 */
import { describe, expect, it } from 'vitest';
import { markEnded } from '../../src/ending-plan.js';
import { requestCancel } from '../../src/batches/rows.js';
import { usageSince } from '../../src/tenants/quota.js';
import { sweep } from '../../queues/sweeper.js';
import { ONE_CALL_VERDICT, storedBatch, succeededWrite } from './batches-support.js';
import { newTestId, pollUntil, testEnv } from './helpers.js';
import { sinkUrl } from './webhooks-helpers.js';

const db = testEnv.DB;

/** `db`, but its `batch()` calls from the `failFrom`-th on (1-based) throw, as a lost connection would. */
function failingFrom(failFrom: number): D1Database {
  let calls = 0;
  return new Proxy(db, {
    get: (target, key) => {
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          if (++calls >= failFrom) return Promise.reject(new Error('D1_ERROR: Network connection lost.'));
          return target.batch(statements);
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** What the batch's completion writes, read from D1. */
async function state(tenant: string, batchId: string, items: readonly string[]) {
  const r = await db
    .prepare(
      `SELECT b.status, b.completed_at IS NOT NULL AS marked, b.cancel_requested_at IS NOT NULL AS cancel,
         (SELECT count(*) FROM webhook_events WHERE subject_id = b.id AND type = 'batch.completed') AS events,
         (SELECT count(*) FROM evaluation_task_groups WHERE batch_id = b.id) AS groups,
         (SELECT COALESCE(SUM(calls), 0) FROM usage_rollup WHERE tenant = ?) AS rolled_up,
         COALESCE(json_array_length(b.usage_pending), 0) AS waiting
       FROM batches b WHERE b.id = ?`,
    )
    .bind(tenant, batchId)
    .first<{
      status: string;
      marked: number;
      cancel: number;
      events: number;
      groups: number;
      rolled_up: number;
      waiting: number;
    }>();
  const owed = await db
    .prepare(`SELECT evaluation_id FROM evaluation_tasks WHERE evaluation_id IN (${items.map(() => '?').join(', ')})`)
    .bind(...items)
    .all<{ evaluation_id: string }>();
  const quota = await usageSince([db], tenant, Date.now() - 3_600_000);
  return { ...r, tasksMoved: owed.results.map((t) => t.evaluation_id), usd: quota.spendUsd };
}

describe("a batch whose last item's write committed and whose completion did not", () => {
  it('is counted as open meanwhile, refuses a cancel as ended, and is completed by the sweeper once', async () => {
    const tenant = newTestId('tn_late');
    const b = await storedBatch(3, { tenant });
    const [queued = '', first = '', last = ''] = b.items;
    const usd = ONE_CALL_VERDICT.usage.costUsd;
    // Its completion event has a receiver: the batch's one-off callback.
    await db.prepare('UPDATE batches SET webhook_url = ? WHERE id = ?').bind(sinkUrl('late-completion'), b.id).run();
    // Cancelled while queued: its task stays owed by D1 until the batch completes.
    expect(await markEnded(db, queued, 'cancelled', null, Date.now())).toBe(true);
    expect((await succeededWrite(first, Date.now(), { batchId: b.id })).changed).toBe(true);
    // The last item's write commits; the completion after it (its second D1 call) fails.
    const late = await succeededWrite(last, Date.now(), { batchId: b.id }, failingFrom(2));
    expect(late).toMatchObject({ changed: true, effectRows: 0 });
    const open = await state(tenant, b.id, b.items);
    expect(open).toMatchObject({ status: 'running', marked: 0, events: 0, rolled_up: 0, waiting: 2, tasksMoved: [] });
    expect(open.groups).toBeGreaterThan(0);
    // Readers count the waiting usage as an open batch's: nothing lost, nothing twice.
    expect(open.usd).toBeCloseTo(2 * usd, 9);
    // Every item has ended: a cancel now finds the batch ended, and asks nothing of it.
    expect(await requestCancel(db, tenant, b.id, Date.now())).toBe('completed');

    // The sweeper (after a restart of the runtime: everything untouched since is due) completes it; two sweeps
    // racing complete it once.
    await Promise.all([sweep(testEnv, Date.now() + 1), sweep(testEnv, Date.now() + 1)]);
    const done = await state(tenant, b.id, b.items);
    expect(done).toMatchObject({
      status: 'completed',
      marked: 1,
      cancel: 0,
      events: 1,
      groups: 0,
      rolled_up: 2,
      waiting: 0,
      tasksMoved: [queued],
    });
    expect(done.usd).toBeCloseTo(2 * usd, 9);
    // Its delivery was handed on at once (the sweeper ran the ending's after-commit steps), not left for the
    // webhook sweep: its first attempt is made.
    const delivery = () =>
      db
        .prepare(
          `SELECT d.attempts FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
           WHERE e.subject_id = ? AND e.type = 'batch.completed'`,
        )
        .bind(b.id)
        .all<{ attempts: number }>();
    const attempted = await pollUntil(delivery, (r) => r.results.length === 1 && r.results[0]!.attempts > 0);
    expect(attempted.results).toHaveLength(1);
    // Again: nothing changes.
    await sweep(testEnv, Date.now() + 1);
    expect(await state(tenant, b.id, b.items)).toEqual(done);
  });
});
