/**
 * `POST /v1/batches/{id}/cancel`: running items make no new call (the call in flight is kept and billed),
 * items not started never start (also when their queue message arrives after the cancel), the batch ends
 * `cancelled` once every item ended; repeating is harmless; an ended batch is 409.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, BatchAccepted } from '../../src/batches/schemas.js';
import type { NewBatchItem } from '../../src/batches/rows.js';
import { insertBatch, requestCancel } from '../../src/batches/rows.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith } from './api-fetch.js';
import {
  countRows,
  drainAlarms,
  heldReplies,
  mockRequests,
  newTestId,
  pendingAlarm,
  pollUntil,
  releaseReplies,
  replyInGroups,
  statusRow,
  testEnv,
  waitForSnapshot,
} from './helpers.js';
import { createBatchId, items, pairItem, singleCallJudge, waitForBatch } from './batches-support.js';
import { d1CallsOf } from './d1-calls.js';

afterEach(drainAlarms);

const cancel = (id: string) => api(`/v1/batches/${id}/cancel`, { method: 'POST' });

describe('POST /v1/batches/{id}/cancel', () => {
  it('cancels the running item (its call in flight is billed) and the queued ones without a call; the batch ends cancelled', async () => {
    // The mock holds the first item's reply until the test lets it go: the cancel lands while the call is in
    // flight however slow the machine (a 1.5 s latency was the window once, and a loaded machine missed it).
    await replyInGroups('cancel-run', Infinity);
    const r = await apiWith({ BATCH_CONCURRENCY: '1' }, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...singleCallJudge('cancel-run'), items: items(3) }),
    });
    const { id } = await r.json<BatchAccepted>();
    const rows = await testEnv.DB.prepare('SELECT id FROM evaluations WHERE batch_id = ? ORDER BY batch_seq')
      .bind(id)
      .all<{ id: string }>();
    const [first, second, third] = rows.results.map((x) => x.id) as [string, string, string];
    // The first item's call is in flight.
    await waitForSnapshot(first, (s) => s?.status === 'running');
    await pollUntil(
      () => mockRequests('cancel-run'),
      (n) => n === 1,
    );

    const res = await cancel(id);
    const body = await res.json<Batch>();
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.status).toBe('cancelling');
    expect(body.cancelRequestedAt).not.toBeNull();
    // A repeat is accepted while the batch cancels; the queue's page of cancels can end the batch before the
    // repeat arrives (the running item ends at once), and then the repeat is the 409 of an ended batch.
    const again = await cancel(id);
    if (again.status === 409) expect((await again.json<ErrorJson>()).error.code).toBe('already_ended');
    else expect([again.status, (await again.json<Batch>()).status]).toEqual([202, 'cancelling']);

    const done = await waitForBatch(id);
    expect(done.status).toBe('cancelled');
    expect(done.counts).toEqual({ total: 3, pending: 0, ended: 3, succeeded: 0, failed: 0, cancelled: 3 });
    for (const ev of [first, second, third]) expect((await statusRow(ev))?.status).toBe('cancelled');
    // The call in flight was recorded and billed once it returned; nothing else was called.
    expect(await countRows('usage', first)).toBe(0);
    await pollUntil(
      () => heldReplies('cancel-run'),
      (n) => n === 1,
    );
    // The item's final write finds its row ended by the cancel: one read of the row as it stands follows it (its
    // status to follow and a batch left open, in one statement), not a read for each.
    const calls = await d1CallsOf(async () => {
      expect(await releaseReplies('cancel-run')).toBe(1);
      await pollUntil(
        () => countRows('usage', first),
        (n) => n === 1,
      );
    }, 400);
    // (The poll above reads the row's `billed_calls`: the test's own read, left out.)
    const rowReads = calls.filter(
      (c) =>
        c.length === 1 &&
        /^SELECT .* FROM evaluations WHERE id = \?$/.test(c[0] ?? '') &&
        !c[0]?.startsWith('SELECT billed_calls AS n'),
    );
    expect(rowReads, JSON.stringify(calls)).toHaveLength(1);
    expect(await mockRequests('cancel-run')).toBe(1);
    // The batch's usage is the usage rows': the late one counts too.
    const billed = await (await api(`/v1/batches/${id}`)).json<Batch>();
    expect(billed.usage.calls).toBe(1);
    for (const ev of [first, second, third]) expect(await pendingAlarm(ev)).toBeNull();
    // A second cancel of an ended batch is a 409.
    const late = await cancel(id);
    expect(late.status).toBe(409);
    expect((await late.json<ErrorJson>()).error.code).toBe('already_ended');
  });

  it('an item handed to the queue before the cancel but started after it ends cancelled without a call', async () => {
    const id = newTestId('ba_cancel_late');
    const seed = 'cancel-late';
    const item: NewBatchItem = {
      evaluationId: `${id}_ev0`,
      seq: 0,
      itemId: null,
      task: pairItem(0),
      metadata: null,
      callsPlanned: 1,
    };
    const judge = singleCallJudge(seed);
    expect(
      await insertBatch(testEnv.DB, {
        id,
        tenant: 'default',
        kind: 'batch',
        method: 'single',
        preset: judge.preset,
        config: { method: 'single', defaults: judge.config.defaults, calibration: { enabled: false } },
        webhookUrl: null,
        idempotencyKey: null,
        requestHash: null,
        concurrency: 1,
        items: [item],
        now: Date.now(),
      }),
    ).toBe(true);
    // Handed over (as the pump does), its message still on the way; then the cancel lands.
    await testEnv.DB.prepare('UPDATE batches SET sent = 1 WHERE id = ?').bind(id).run();
    expect(await requestCancel(testEnv.DB, 'default', id, Date.now())).toBe('cancelling');
    // The queue delivery arrives: the object reads the cancel with the job and never starts it.
    const r = await evaluationStub(testEnv, item.evaluationId).start(item.evaluationId);
    expect(r.status).toBe('cancelled');
    expect(await statusRow(item.evaluationId)).toMatchObject({
      status: 'cancelled',
      error_code: 'cancelled',
      error_message: 'the batch was cancelled',
    });
    expect(await mockRequests(seed)).toBe(0);
    expect(await pendingAlarm(item.evaluationId)).toBeNull();
    const batch = await testEnv.DB.prepare('SELECT status, cancelled FROM batches WHERE id = ?').bind(id).first();
    expect(batch).toEqual({ status: 'cancelled', cancelled: 1 });
  });

  it('404 for an unknown batch; 409 for a completed one', async () => {
    expect((await cancel('ba_nope')).status).toBe(404);
    const id = await createBatchId({ ...singleCallJudge('cancel-done'), items: items(1) });
    await waitForBatch(id);
    const r = await cancel(id);
    expect(r.status).toBe(409);
    expect((await r.json<ErrorJson>()).error.code).toBe('already_ended');
  });
});
