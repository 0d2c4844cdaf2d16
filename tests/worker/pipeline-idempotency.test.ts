import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  PAIRWISE,
  pendingAlarm,
  POINTWISE,
  runInTestObject,
  storedVerdict,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';

afterEach(drainAlarms);

describe('at-least-once delivery', () => {
  it('the same id delivered twice in one batch → one verdict, no call repeated', async () => {
    const { id } = await insertJob({ preset: 'chateval-faireval', task: PAIRWISE, mock: { latency: 20 } });
    const batch = createMessageBatch('tribunal-jobs', [
      { id: 'm1', timestamp: Date.now(), attempts: 1, body: { id } },
      { id: 'm2', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['m1', 'm2']);
    expect(result.retryMessages).toEqual([]);

    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    const calls = (await storedVerdict(id))!.calls;
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('usage', id)).toBe(calls);
    expect(await mockRequests(id)).toBe(calls);
  });

  it('a batch from a queue no consumer serves is refused and retried, never started as jobs', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const batch = createMessageBatch('tribunal-unknown', [
      { id: 'u1', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(true);
    expect(result.explicitAcks).toEqual([]);
    expect(errors.mock.calls.some(([line]) => String(line).includes('"event":"queue.unknown"'))).toBe(true);
    errors.mockRestore();
    // Nothing started it: the row is still queued and its object never heard of it.
    expect((await testEnv.DB.prepare('SELECT status FROM evaluations WHERE id = ?').bind(id).first())?.status).toBe(
      'queued',
    );
    expect(await evaluationStub(testEnv, id).snapshot()).toBeNull();
  });

  it('redeliveries after the end change nothing', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    await testEnv.JOBS.send({ id });
    await waitForEnd(id);
    const before = await mockRequests(id);
    // Two redeliveries; the handler acks each only after its start() returned, so the checks follow both.
    const batch = createMessageBatch('tribunal-jobs', [
      { id: 'r1', timestamp: Date.now(), attempts: 2, body: { id } },
      { id: 'r2', timestamp: Date.now(), attempts: 2, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['r1', 'r2']);
    expect(result.retryMessages).toEqual([]);
    expect(await mockRequests(id)).toBe(before);
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('usage', id)).toBe(before);
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('succeeded');
  });

  it('invalid bodies are acked, never retried', async () => {
    const invalid: ServiceBindingQueueMessage[] = [
      { id: 'bad1', timestamp: Date.now(), attempts: 1, body: 'nope' },
      { id: 'bad2', timestamp: Date.now(), attempts: 1, body: { id: 42 } },
    ];
    const batch = createMessageBatch('tribunal-jobs', invalid);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['bad1', 'bad2']);
    expect(result.retryMessages).toEqual([]);
  });

  it('an unknown id is acked (the row does not exist)', async () => {
    const batch = createMessageBatch('tribunal-jobs', [
      { id: 'x', timestamp: Date.now(), attempts: 1, body: { id: 'ev_missing' } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['x']);
  });
});

describe('alarms', () => {
  it('an alarm fired twice (concurrently, and again after the end) repeats no call', async () => {
    const ns = `stubborn-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 40 } });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    // While the real alarm waits on the LLM, fire extra invocations in the same instance.
    await waitForSnapshot(id, (s) => (s?.callsDone ?? 0) >= 1);
    await Promise.all([runInTestObject(id, (o) => o.alarm()), runInTestObject(id, (o) => o.alarm())]);
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    // Late duplicate deliveries of the alarm after the end.
    await runInTestObject(id, (o) => o.alarm());
    await runInTestObject(id, (o) => o.alarm());

    const calls = (await storedVerdict(id))!.calls;
    expect(calls).toBe(7);
    expect(await mockRequests(id)).toBe(calls);
    expect(await countRows('usage', id)).toBe(calls);
    expect(await countRows('transcripts', id)).toBe(calls);
    const timings = await stub.timings();
    expect(timings.map((t) => t.callId)).toEqual([
      'score0',
      'critic1',
      'score1',
      'critic2',
      'score2',
      'critic3',
      'score3',
    ]);
    // The object's clock brackets each call: its span holds the mock's 40 ms latency.
    for (const t of timings) expect(t.finishedAt - t.startedAt).toBeGreaterThanOrEqual(40);
    // Nothing more will happen: the duplicates armed no alarm.
    expect(await pendingAlarm(id)).toBeNull();
  });

  it('start() is idempotent and concurrent starts share one D1 read', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { latency: 30 } });
    const stub = evaluationStub(testEnv, id);
    // On the instance, with the object's D1 binding spied on: counts loadJob's SELECT.
    const { statuses, reads } = await runInTestObject(id, async (o) => {
      const spy = vi.spyOn(o.bindings.DB, 'prepare');
      try {
        const results = await Promise.all([o.start(id), o.start(id), o.start(id)]);
        const loads = spy.mock.calls.filter(([sql]) =>
          /^SELECT id, tenant, status, method\b.* FROM evaluations WHERE id = \?/s.test(sql),
        );
        return { statuses: results.map((r) => r.status), reads: loads.length };
      } finally {
        spy.mockRestore();
      }
    });
    expect(statuses).toEqual(['running', 'running', 'running']);
    expect(reads).toBe(1);
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await mockRequests(id)).toBe((await storedVerdict(id))!.calls);
    // A start after the end changes nothing and reads nothing new.
    expect((await stub.start(id)).status).toBe('succeeded');
  });
});
