import { WAIT_MS } from '../support/patience.js';
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  abortAllDurableObjects,
  getQueueResult,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sweep } from '../../queues/sweeper.js';
import worker from '../../src/index.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { admit } from '../../src/evaluations/admission.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  PAIRWISE,
  pendingAlarm,
  pollUntil,
  POINTWISE,
  runInTestObject,
  statusRow,
  storedVerdict,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';
import { capturingLogLines } from './log-capture.js';
import type { LoggedLine } from './log-capture.js';

afterEach(drainAlarms);

describe('eviction', () => {
  it('evicting the object mid-debate gives the same verdict and repeats no stored call', async () => {
    const ns = `evict-${Date.now()}`;
    await stubbornCritic(ns);
    const seed = `evict-seed-${Date.now()}`;
    const mock = { mode: 'scripted' as const, ns, seed, latency: 60 };

    // Reference run without eviction.
    const ref = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock });
    await testEnv.JOBS.send({ id: ref.id });
    expect((await waitForEnd(ref.id)).status).toBe('succeeded');
    const expected = (await storedVerdict(ref.id))!;
    const afterRef = await mockRequests(seed);
    expect(afterRef).toBe(expected.calls);

    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    await waitForSnapshot(id, (s) => (s?.callsDone ?? 0) >= 3);
    await abortAllDurableObjects(); // evicts every object, this one included
    // The fresh instance rebuilds its state from the stored results; re-kick in case the alarm was lost.
    await evaluationStub(testEnv, id).start(id);
    // workerd retries the alarm the eviction cut off ~2 s later: run it now rather than wait.
    await runDurableObjectAlarm(evaluationStub(testEnv, id));
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const got = (await storedVerdict(id))!;
    expect(got.score).toBe(expected.score);
    expect(got.votes).toEqual(expected.votes);
    expect(got.calls).toBe(expected.calls);
    expect(await countRows('usage', id)).toBe(got.calls);
    // A call cut off by the eviction before its result was stored may be sent again, a stored one never.
    const sent = (await mockRequests(seed)) - afterRef;
    expect(sent).toBeGreaterThanOrEqual(got.calls);
    expect(sent).toBeLessThanOrEqual(got.calls + 1);
    const timings = await evaluationStub(testEnv, id).timings();
    expect(new Set(timings.map((t) => t.callId)).size).toBe(timings.length);
  });
});

describe('dead-letter queue', () => {
  it('marks a never-started evaluation failed with queue_delivery_failed', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const batch = createMessageBatch('tribunal-jobs-dlq', [
      { id: 'd1', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['d1']);
    const row = await statusRow(id);
    expect(row?.status).toBe('failed');
    expect(row?.error_code).toBe('queue_delivery_failed');
    // A late delivery of the original job does not resurrect it.
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('failed');
    expect(await mockRequests(id)).toBe(0);
  });

  it('leaves an evaluation that already ended alone', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const batch = createMessageBatch('tribunal-jobs-dlq', [
      { id: 'd2', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    await getQueueResult(batch, ctx);
    const row = await statusRow(id);
    expect(row?.status).toBe('succeeded');
    expect(row?.error_code).toBeNull();
    expect(await countRows('verdicts', id)).toBe(1);
  });
});

describe('sweeper', () => {
  it('re-kicks a stalled queued evaluation whose message was lost', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    // No message was sent; make the row look stalled.
    await testEnv.DB.prepare('UPDATE evaluations SET updated_at = ? WHERE id = ?')
      .bind(Date.now() - 3_600_000, id)
      .run();
    const ctx = createExecutionContext();
    // The sweep runs in the maintenance queue's consumer: wait for its line.
    const kicked = (lines: readonly LoggedLine[]) =>
      lines.filter((l) => l.event === 'sweeper.kicked' && l.evaluationId === id);
    const { lines } = await capturingLogLines(async (lines) => {
      await worker.scheduled(createScheduledController({ cron: '* * * * *' }), testEnv, ctx);
      await waitOnExecutionContext(ctx);
      await pollUntil(
        () => Promise.resolve(kicked(lines).length),
        (n) => n > 0,
      );
    });
    // A stall is a problem: it warns.
    expect(kicked(lines)).toEqual([expect.objectContaining({ level: 'warn' })]);
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
  });

  it("after a restart (the local stack's `@reboot` sweep), re-kicks what was untouched since the start, however recent", async () => {
    const restartedAt = Date.now();
    const left = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    // Another tenant's: the ending of `left` admits its own tenant's oldest waiting evaluation, which
    // would start `since` whatever the sweep did.
    const since = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'other-tenant' });
    // No message was sent for either. One was last touched 5 s before the restart (far within
    // STALL_SECONDS), the other after it (the new runtime's own work).
    const touch = testEnv.DB.prepare('UPDATE evaluations SET updated_at = ? WHERE id = ?');
    await testEnv.DB.batch([touch.bind(restartedAt - 5_000, left.id), touch.bind(restartedAt + 60_000, since.id)]);
    expect((await sweep(testEnv)).kicked).not.toContain(left.id);
    const ctx = createExecutionContext();
    // The sweep runs in the maintenance queue's consumer: wait for its line.
    const kicked = (lines: readonly LoggedLine[]) =>
      lines.filter((l) => l.event === 'sweeper.kicked' && l.evaluationId === left.id);
    const { lines } = await capturingLogLines(async (lines) => {
      await worker.scheduled(createScheduledController({ cron: '@reboot', scheduledTime: restartedAt }), testEnv, ctx);
      await waitOnExecutionContext(ctx);
      await pollUntil(
        () => Promise.resolve(kicked(lines).length),
        (n) => n > 0,
      );
    });
    // Resuming what the last runtime left is expected: no warning.
    expect(kicked(lines)).toEqual([expect.objectContaining({ level: 'info' })]);
    expect((await waitForEnd(left.id)).status).toBe('succeeded');
    expect((await statusRow(since.id))?.status).toBe('queued');
  });

  it('re-kicks a running evaluation whose alarm was lost, without repeating calls', async () => {
    const ns = `sweep-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns } });
    const stub = evaluationStub(testEnv, id);
    // Admitted to a running slot first, as every start is (src/evaluations/admission.ts): the sweeper finds
    // what runs by its slot.
    expect(await admit(testEnv.DB, id, 100, Date.now())).toBe('admitted');
    // Deterministic "alarm lost mid-debate": drive one step by hand, then delete the alarm it re-armed.
    // (Evicting while an alarm runs does not work for this: eviction waits for the running alarm, which
    // finishes the whole debate within its step budget.)
    await runInTestObject(id, async (o, state) => {
      // This instance only (gone after the eviction below): one round of calls per alarm invocation.
      o.useBindings({ STEP_BUDGET_MS: '0' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      await state.storage.deleteAlarm();
    });
    expect((await stub.snapshot())?.callsDone).toBe(1);
    await abortAllDurableObjects(); // evicts every object, this one included
    const stalled = await pollUntil(
      () => statusRow(id),
      (r) => r?.status === 'running',
      WAIT_MS,
    );
    expect(stalled?.status).toBe('running');
    // Nothing moves on its own: the alarm is gone, so no step will run until something re-kicks it.
    expect(await pendingAlarm(id)).toBeNull();
    // A stub made before the eviction is broken: take a fresh one.
    expect(await runDurableObjectAlarm(evaluationStub(testEnv, id))).toBe(false);
    expect(await mockRequests(id)).toBe(1);
    await testEnv.DB.prepare('UPDATE evaluations SET updated_at = 0 WHERE id = ?').bind(id).run();
    const report = await sweep(testEnv);
    expect(report).toEqual({ kicked: [id], errors: [] });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const calls = (await storedVerdict(id))!.calls;
    expect(calls).toBe(7);
    expect(await countRows('usage', id)).toBe(calls);
    // The stored first call was not sent again.
    expect(await mockRequests(id)).toBe(calls);
  });
});

describe('a step that throws', () => {
  it("is retried on the object's own alarm, which a re-kick brings forward instead of waiting out a backoff", async () => {
    const ns = `throw-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns } });
    await runInTestObject(id, async (o, state) => {
      // This instance only: one round of calls per alarm invocation, so each step ends by arming the next.
      o.useBindings({ STEP_BUDGET_MS: '0' });
      await o.start(id);
      await state.storage.setAlarm(Date.now() + 100);
      // The first step's arm fails (as a storage fault would): the step throws once.
      vi.spyOn(state.storage, 'setAlarm').mockRejectedValueOnce(new Error('injected: storage unavailable'));
    });
    const failures = () =>
      runInTestObject(
        id,
        (_o, state) => state.storage.sql.exec<{ n: number }>('SELECT alarm_failures AS n FROM evaluation').one().n,
      );
    await pollUntil(failures, (n) => n >= 1);
    const failedAt = Date.now();
    // Its retry is stored as the time it runs. A throw left the alarm at its past time while the platform
    // waited out its own backoff, so an arm for now (below) kept that and the step waited 2-4 s more.
    expect(await pendingAlarm(id)).toBeGreaterThan(failedAt);
    // The sweeper's re-kick (start again: the alarm for now) goes ahead of the retry.
    const kicked = Date.now();
    await evaluationStub(testEnv, id).start(id);
    const next = await pendingAlarm(id);
    expect(next === null || (next >= kicked && next <= kicked + 1_000), String(next)).toBe(true);
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect(await failures()).toBe(0);
  });
});
