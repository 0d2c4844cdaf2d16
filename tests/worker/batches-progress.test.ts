/**
 * Batch progress is counted in each ending's own D1 transaction (effects of the ending), exactly once per
 * item whatever the end path (final write, cancel, dead letter), however often it repeats and whoever
 * races; the ending that completes the batch marks it, and emits its completion event, exactly once.
 */
import { describe, expect, it } from 'vitest';
import type { CompletionEmitter } from '../../src/batches/progress.js';
import { BATCH_COMPLETED, BATCH_COUNTS, batchCompletionEvent } from '../../src/batches/progress.js';
import type { TerminalStatus } from '../../src/evaluations/status.js';
import { sqlMayBecome } from '../../src/evaluations/status.js';
import { insertJob, testEnv } from './helpers.js';
import { ONE_CALL_VERDICT, pairItem, storedBatch, succeededWrite } from './batches-support.js';
import { ENDING, markEnded } from '../../src/ending-plan.js';

const db = testEnv.DB;

interface Row {
  status: string;
  succeeded: number;
  failed: number;
  cancelled: number;
  completed_at: number | null;
}

const batchRow = async (id: string) =>
  (await db
    .prepare('SELECT status, succeeded, failed, cancelled, completed_at FROM batches WHERE id = ?')
    .bind(id)
    .first<Row>())!;

/** The object's final write of a succeeded item with one call. */
async function succeed(id: string, now = Date.now()): Promise<boolean> {
  return (await succeededWrite(id, now)).changed;
}

describe("batch progress (the ending's batch effects)", () => {
  it('each item counts once per terminal status, however often its ending repeats', async () => {
    const b = await storedBatch(3);
    const [a, s, c] = b.items as [string, string, string];
    expect(await markEnded(db, a, 'failed', { code: 'x', message: 'y' }, Date.now())).toBe(true);
    expect(await markEnded(db, a, 'failed', { code: 'x', message: 'y' }, Date.now())).toBe(false);
    expect(await markEnded(db, a, 'cancelled', null, Date.now())).toBe(false);
    expect(await succeed(s)).toBe(true);
    expect(await succeed(s)).toBe(false);
    expect(await batchRow(b.id)).toMatchObject({
      status: 'running',
      succeeded: 1,
      failed: 1,
      cancelled: 0,
      completed_at: null,
    });

    expect(await markEnded(db, c, 'cancelled', null, 1_000)).toBe(true);
    const done = await batchRow(b.id);
    expect(done).toEqual({ status: 'completed', succeeded: 1, failed: 1, cancelled: 1, completed_at: 1_000 });
    // Repeats after completion change nothing, the completion time included.
    await succeed(s, 2_000);
    await markEnded(db, c, 'cancelled', null, 3_000);
    expect(await batchRow(b.id)).toEqual(done);
  });

  it('a cancel racing the final write: whichever lands first counts, the other adds nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await storedBatch(1);
      const id = b.items[0]!;
      await Promise.all([
        succeed(id),
        markEnded(db, id, 'cancelled', null, Date.now()),
        succeed(id),
        markEnded(db, id, 'failed', null, Date.now()),
      ]);
      const row = await batchRow(b.id);
      const ended = await db
        .prepare('SELECT status FROM evaluations WHERE id = ?')
        .bind(id)
        .first<{ status: TerminalStatus }>();
      expect(row.succeeded + row.failed + row.cancelled).toBe(1);
      expect(row[ended!.status]).toBe(1);
      expect(row.status).toBe('completed');
    }
  });

  it('a batch with a cancel asked completes as cancelled', async () => {
    const b = await storedBatch(2);
    await db
      .prepare('UPDATE batches SET status = ?, cancel_requested_at = 1 WHERE id = ?')
      .bind('cancelling', b.id)
      .run();
    await succeed(b.items[0]!);
    await markEnded(db, b.items[1]!, 'cancelled', null, Date.now());
    expect(await batchRow(b.id)).toMatchObject({ status: 'cancelled', succeeded: 1, cancelled: 1 });
  });

  it('the completion event is emitted once, in the transaction of the last ending, with the batch row at hand', async () => {
    await db
      .prepare(
        'CREATE TABLE IF NOT EXISTS test_completion_events (batch_id TEXT, kind TEXT, succeeded INTEGER, at INTEGER)',
      )
      .run();
    const emit: CompletionEmitter = (d, c) => [
      d
        .prepare(
          `INSERT INTO test_completion_events (batch_id, kind, succeeded, at) SELECT b.id, b.kind, b.succeeded, ? ${c.rows}`,
        )
        .bind(c.now, ...c.binds),
    ];
    const effects = [BATCH_COUNTS, batchCompletionEvent(emit), BATCH_COMPLETED];
    /** An ending as the pipeline runs it: the effects, then the guarded status update, in one batch. */
    const end = (id: string, status: TerminalStatus, now: number) =>
      db.batch([
        ...effects.flatMap((effect) => effect.statements(db, { id, status, error: null, now })),
        db
          .prepare(`UPDATE evaluations SET status = ?, finished_at = ? WHERE id = ? AND ${sqlMayBecome(status)}`)
          .bind(status, now, id),
      ]);
    for (const kind of ['batch', 'meta_evaluation'] as const) {
      const b = await storedBatch(3, { kind });
      await end(b.items[0]!, 'succeeded', 1);
      await end(b.items[1]!, 'failed', 2);
      await end(b.items[1]!, 'failed', 3);
      const none = await db
        .prepare('SELECT count(*) AS n FROM test_completion_events WHERE batch_id = ?')
        .bind(b.id)
        .first<{ n: number }>();
      expect(none?.n).toBe(0);
      // The last item's two endings race; one completes the batch.
      await Promise.all([
        end(b.items[2]!, 'succeeded', 4),
        end(b.items[2]!, 'cancelled', 5),
        end(b.items[0]!, 'succeeded', 6),
      ]);
      const events = await db
        .prepare('SELECT batch_id, kind, succeeded, at FROM test_completion_events WHERE batch_id = ?')
        .bind(b.id)
        .all();
      expect(events.results).toHaveLength(1);
      expect(events.results[0]).toMatchObject({ batch_id: b.id, kind });
      const row = await batchRow(b.id);
      expect(row.completed_at).toBe((events.results[0] as { at: number }).at);
    }
  });

  it('evaluations outside a batch end as before: no batch row is touched', async () => {
    const b = await storedBatch(1);
    const before = await batchRow(b.id);
    const { id } = await insertJob({ preset: 'fastchat-pair', task: pairItem(0) });
    expect(await markEnded(db, id, 'cancelled', null, Date.now())).toBe(true);
    expect(await batchRow(b.id)).toEqual(before);
  });

  it('reports only new webhook deliveries as rows to hand on, not the batch counters it changed', async () => {
    const b = await storedBatch(2);
    const [plain, hooked] = b.items as [string, string];
    // No endpoint, no one-off URL: the counters change, nothing is for the follow-ups (no D1 read after it).
    expect(await succeededWrite(plain)).toMatchObject({ changed: true, effectRows: 0 });
    expect(await batchRow(b.id)).toMatchObject({ succeeded: 1 });
    // A one-off callback: its delivery is handed on.
    await db
      .prepare('UPDATE evaluations SET webhook_url = ? WHERE id = ?')
      .bind('https://receiver.example/hook', hooked)
      .run();
    const ended = await succeededWrite(hooked);
    expect(ended.changed).toBe(true);
    expect(ended.effectRows).toBeGreaterThanOrEqual(1);
    expect(await batchRow(b.id)).toMatchObject({ status: 'completed', succeeded: 2 });
  });

  it('a final write that knows its evaluation is in no batch leaves the batch statements out, and ends it alike', async () => {
    // The statements of each D1 batch sent through it.
    const sizes: number[] = [];
    const counting = new Proxy(db, {
      get: (target, key) => {
        if (key === 'batch')
          return (statements: D1PreparedStatement[]) => {
            sizes.push(statements.length);
            return target.batch(statements);
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const unknown = await insertJob({ preset: 'fastchat-pair', task: pairItem(0) });
    const none = await insertJob({ preset: 'fastchat-pair', task: pairItem(1) });
    expect(await succeededWrite(unknown.id, Date.now(), {}, counting)).toMatchObject({ changed: true, effectRows: 0 });
    expect(await succeededWrite(none.id, Date.now(), { batchId: null }, counting)).toMatchObject({
      changed: true,
      effectRows: 0,
    });
    // Those a final write runs (the batch's completion runs apart, only after the write that completes it).
    const batchOnly = ENDING.beforeStatus
      .filter((e) => e.batchOnly === true && e.completion === undefined)
      .reduce((n, e) => n + e.statements(db, { id: none.id, status: 'succeeded', error: null, now: 0 }).length, 0);
    expect(batchOnly).toBeGreaterThan(0);
    // Its batch's claim (a step after the status update) goes too.
    expect(sizes).toHaveLength(2);
    expect(sizes[0]! - sizes[1]!).toBeGreaterThanOrEqual(batchOnly);
    const rows = await db
      .prepare('SELECT status, billed_calls, winner FROM evaluations WHERE id IN (?, ?) ORDER BY id = ?')
      .bind(unknown.id, none.id, none.id)
      .all<{ status: string; billed_calls: number; winner: string | null }>();
    expect(rows.results).toEqual([
      { status: 'succeeded', billed_calls: 1, winner: ONE_CALL_VERDICT.winner },
      { status: 'succeeded', billed_calls: 1, winner: ONE_CALL_VERDICT.winner },
    ]);
  });
});
