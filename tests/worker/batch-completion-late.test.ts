/**
 * The window a batch item's final write leaves open: its count ends the batch's last item in one transaction, and the
 * batch's completion (events, task groups, pending usage, mark) follows in a second one. A failure or crash between
 * the two leaves a batch whose items have all ended and that is not marked: readers count its usage as an open
 * batch's meanwhile, a cancel finds it ended, and a repeat of the write (the object's retry when the write's answer
 * was lost or the object crashed) or else the sweeper (when only the completion failed: the write returned, so
 * nothing repeats it) completes it, once.
 */
import { describe, expect, it } from 'vitest';
import { markEnded } from '../../src/ending-plan.js';
import { requestCancel } from '../../src/batches/rows.js';
import { eraseEvaluationStatements } from '../../src/evaluations/erase-rows.js';
import { usageSince } from '../../src/tenants/quota.js';
import { sweep } from '../../queues/sweeper.js';
import { ONE_CALL_VERDICT, storedBatch, succeededWrite } from './batches-support.js';
import { newTestId, pollUntil, recordingDb, testEnv } from './helpers.js';
import { sinkUrl } from './webhooks-helpers.js';

const db = testEnv.DB;

/**
 * `db`, but its `batch()` calls from the `failFrom`-th on (1-based) throw, as a lost connection would: before D1 ran
 * them, or with `afterCommit`, once they committed (the answer was lost).
 */
function failingFrom(failFrom: number, afterCommit = false): D1Database {
  let calls = 0;
  const lost = () => Promise.reject(new Error('D1_ERROR: Network connection lost.'));
  return new Proxy(db, {
    get: (target, key) => {
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          if (++calls < failFrom) return target.batch(statements);
          return afterCommit ? target.batch(statements).then(lost) : lost();
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The first attempt made of the delivery of batch `batchId`'s completion event (polled until it is made). */
async function completionDelivered(batchId: string): Promise<{ attempts: number; cause: string }[]> {
  const delivery = () =>
    db
      .prepare(
        `SELECT d.attempts, e.cause_id AS cause FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE e.subject_id = ? AND e.type = 'batch.completed'`,
      )
      .bind(batchId)
      .all<{ attempts: number; cause: string }>();
  return (await pollUntil(delivery, (r) => r.results.length === 1 && r.results[0]!.attempts > 0)).results;
}

/**
 * A 2-item batch of a new tenant (`name` in its id) with a completion event receiver: its first item cancelled, its
 * last one's final write made through `lossy` (`firstTry`, not awaited: it may throw).
 */
async function leftOpen(name: string, lossy: D1Database) {
  const tenant = newTestId(`tn_${name}`);
  const b = await storedBatch(2, { tenant });
  const [first = '', last = ''] = b.items;
  await db
    .prepare('UPDATE batches SET webhook_url = ? WHERE id = ?')
    .bind(sinkUrl(`${name}-completion`), b.id)
    .run();
  expect(await markEnded(db, first, 'cancelled', null, Date.now())).toBe(true);
  return { tenant, b, last, firstTry: succeededWrite(last, Date.now(), { batchId: b.id }, lossy) };
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
    expect(await completionDelivered(b.id)).toMatchObject([{ cause: last }]);
    // Again: nothing changes.
    await sweep(testEnv, Date.now() + 1);
    expect(await state(tenant, b.id, b.items)).toEqual(done);
  });

  // The object retries a final write that threw; after a crash (an eviction) it no longer knows the item's batch. A
  // completion that failed alone leaves no retry (the write returned): the first case is a repeat that finds such a
  // batch all the same (the sweeper's case above is the one that comes then).
  it.each([
    { lost: 'the completion failed', afterCommit: false, knows: true },
    { lost: "D1's answer to the write was lost after its commit", afterCommit: true, knows: false },
  ])('is completed by a repeat of the write after $lost (batch known: $knows)', async ({ afterCommit, knows }) => {
    // The write commits; then the completion fails, or the write's own answer is lost (it throws).
    const { tenant, b, last, firstTry } = await leftOpen('repeat', afterCommit ? failingFrom(1, true) : failingFrom(2));
    if (afterCommit) await expect(firstTry).rejects.toThrow('Network connection lost');
    else expect(await firstTry).toMatchObject({ changed: true, effectRows: 0 });
    expect(await state(tenant, b.id, b.items)).toMatchObject({ status: 'running', marked: 0, events: 0 });

    // The repeat changes no row, and completes the batch at once (no wait for the sweeper), handing its event on.
    const repeat = await succeededWrite(last, Date.now(), knows ? { batchId: b.id } : {});
    expect(repeat.changed).toBe(false);
    expect(repeat.effectRows).toBeGreaterThan(0);
    const done = await state(tenant, b.id, b.items);
    expect(done).toMatchObject({ status: 'completed', marked: 1, events: 1, groups: 0, rolled_up: 1, waiting: 0 });
    // Once: a further repeat, and the sweeper, find nothing to do.
    expect(await succeededWrite(last, Date.now(), { batchId: b.id })).toMatchObject({ changed: false, effectRows: 0 });
    await sweep(testEnv, Date.now() + 1);
    expect(await state(tenant, b.id, b.items)).toEqual(done);
  });

  it('is completed by the sweeper even when none of its items is left in D1, with the batch as the cause', async () => {
    const { tenant, b, firstTry } = await leftOpen('itemless', failingFrom(2));
    expect(await firstTry).toMatchObject({ changed: true });
    // Its items' rows go from D1 (as a move out of D1 erases them).
    const now = Date.now();
    await db.batch(
      b.items.flatMap((id) => [
        ...eraseEvaluationStatements(db, id, now),
        db.prepare('DELETE FROM evaluations WHERE id = ?').bind(id),
      ]),
    );
    expect(await state(tenant, b.id, b.items)).toMatchObject({ status: 'running', marked: 0 });

    await sweep(testEnv, Date.now() + 1);
    const done = await state(tenant, b.id, b.items);
    expect(done).toMatchObject({ status: 'completed', marked: 1, events: 1, rolled_up: 1, waiting: 0 });
    // Its event, caused by the batch itself, was handed on by the sweep.
    expect(await completionDelivered(b.id)).toMatchObject([{ cause: b.id }]);
    await sweep(testEnv, Date.now() + 1);
    expect(await state(tenant, b.id, b.items)).toEqual(done);
  });

  it('is completed by the sweeper through the database it read the batch from', async () => {
    const { tenant, b, firstTry } = await leftOpen('through', failingFrom(2));
    await firstTry;
    // The sweep of this one database (as the cron's message for one shard runs it).
    const through = recordingDb();
    await sweep(testEnv, Date.now() + 1, [through.db]);
    expect(await state(tenant, b.id, b.items)).toMatchObject({ status: 'completed', marked: 1 });
    // The mark was written through it: no second look-up of the batch's database.
    const marks = through.batches.flat().filter((sql) => sql.includes('UPDATE batches AS b SET status'));
    expect(marks).toHaveLength(1);
  });
});
