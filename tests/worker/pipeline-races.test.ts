/**
 * Races between the API, the queue, the DLQ and the Durable Object's own loop: a cancel or failure that
 * reaches the object before (or while) it starts, D1 ending an evaluation the object runs, concurrent
 * final writes, and misrouted or misconfigured objects.
 */
import { WAIT_MS } from '../support/patience.js';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sweep } from '../../queues/sweeper.js';
import type { EvaluationError } from '../../src/evaluations/live-events.js';
import { evaluationStub, forwardEvents } from '../../src/evaluations/stub.js';
import { loadJob } from '../../src/evaluations/job-rows.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  PAIRWISE,
  parseSse,
  expectNoAlarmLeft,
  pendingAlarm,
  pollUntil,
  POINTWISE,
  runInTestObject,
  statusRow,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
  withTimeout,
} from './helpers.js';

afterEach(drainAlarms);

/** The guarded status update of `markEnded` / the final batch. */
const END_UPDATE = /^UPDATE evaluations SET status = \?/;

/**
 * Cancels on the instance with the object's `markEnded` D1 write throwing once (a D1 blip after the
 * `ended` marker was written); resolves to the error message.
 */
async function cancelWithFailingMarkEnded(id: string): Promise<string> {
  return runInTestObject(id, async (o) => {
    const db = o.bindings.DB;
    const prepare = db.prepare.bind(db);
    const spy = vi.spyOn(db, 'prepare').mockImplementation((sql: string) => {
      if (END_UPDATE.test(sql.trim())) throw new Error('D1 blip');
      return prepare(sql);
    });
    try {
      return await o.cancel(id).then(
        (r) => `resolved ${r.status}`,
        (e: unknown) => String(e),
      );
    } finally {
      spy.mockRestore();
    }
  });
}

describe('ended before it ran here', () => {
  it('a cancel that lands while start() waits on D1 wins: nothing runs', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const stub = evaluationStub(testEnv, id);
    // Called on the instance so the interleaving is fixed: start() reaches its D1 read (loadJob) and
    // yields, then cancel() runs while that read is outstanding.
    const [started, cancelled] = await runInTestObject(id, (o) => Promise.all([o.start(id), o.cancel(id)]));
    expect(cancelled.status).toBe('cancelled');
    expect(started.status).toBe('cancelled');
    // Nothing more will happen: no alarm was armed, so no step can run.
    expect(await pendingAlarm(id)).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await mockRequests(id)).toBe(0);
    expect((await stub.snapshot())?.status).toBe('cancelled');
    expect((await statusRow(id))?.status).toBe('cancelled');
    expect((await stub.start(id)).status).toBe('cancelled');
  });

  it('D1 ended the row without the object knowing: a start with a stale job ends locally; the call in flight is kept, no new call', async () => {
    const ns = `ended-elsewhere-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 200 } });
    // As the DLQ consumer's direct write does when the object is unreachable.
    await testEnv.DB.prepare(
      "UPDATE evaluations SET status = 'failed', error_code = 'queue_delivery_failed', error_message = 'x' WHERE id = ?",
    )
      .bind(id)
      .run();
    const job = (await loadJob(testEnv.DB, id))!;
    // The caller's status is stale on purpose: the object must not trust it.
    const stale = { ...job, status: 'queued' as const };
    const started = await runInTestObject(id, async (o) => {
      // No provider gate in this instance: the first attempt goes out in this turn. (Behind a gate it waits for a
      // slot, and a call still waiting when the object learns of the end is not sent: pipeline-faults tests that.)
      o.useBindings({ PROVIDER_CONCURRENCY_MAX: '0' });
      const r = await o.start(id, stale);
      // Step at once, in the same turn: the first call goes out before D1 answers the object's
      // markRunning, so exactly one call is in flight when the object learns that D1 ended the row.
      await o.alarm();
      return r.status;
    });
    expect(started).toBe('running');
    const snap = await waitForSnapshot(id, (s) => s?.status === 'failed');
    expect(snap?.error?.code).toBe('queue_delivery_failed');
    // The call in flight finished and is stored, billed and in the transcript; nothing after it went out.
    expect(snap?.callsDone).toBe(1);
    expect(
      await pollUntil(
        () => countRows('usage', id),
        (n) => n === 1,
        WAIT_MS,
      ),
    ).toBe(1);
    expect(await countRows('transcripts', id)).toBe(1);
    expect(await countRows('verdicts', id)).toBe(0);
    expect((await statusRow(id))?.status).toBe('failed');
    await expectNoAlarmLeft(id);
    expect(await mockRequests(id)).toBe(1);
  });
});

describe('ended marker and D1', () => {
  it('a cancel whose D1 write failed throws, and the next cancel writes D1', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    expect(await cancelWithFailingMarkEnded(id)).toMatch(/D1 blip/);
    expect((await statusRow(id))?.status).toBe('queued');
    const stub = evaluationStub(testEnv, id);
    expect((await stub.cancel(id)).status).toBe('cancelled');
    expect((await statusRow(id))?.status).toBe('cancelled');
    expect(await mockRequests(id)).toBe(0);
  });

  it("the sweeper's start re-sends the end of a marker whose D1 write failed", async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    expect(await cancelWithFailingMarkEnded(id)).toMatch(/D1 blip/);
    await testEnv.DB.prepare('UPDATE evaluations SET updated_at = 0 WHERE id = ?').bind(id).run();
    const report = await sweep(testEnv);
    expect(report.kicked).toContain(id);
    const row = await statusRow(id);
    expect(row?.status).toBe('cancelled');
    expect(row?.error_code).toBe('cancelled');
    expect(await mockRequests(id)).toBe(0);
    // Ended in D1 now: the next sweep leaves it alone.
    expect((await sweep(testEnv)).kicked).not.toContain(id);
  });

  it('a cancel of a row D1 already failed tells subscribers failed, not cancelled', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    // Subscribed while D1 still says queued: the stream stays open, waiting for a start.
    const res = await forwardEvents(testEnv, id, new Request('http://x/events'));
    const text = res.text();
    await testEnv.DB.prepare(
      "UPDATE evaluations SET status = 'failed', error_code = 'queue_delivery_failed', error_message = 'x' WHERE id = ?",
    )
      .bind(id)
      .run();
    const stub = evaluationStub(testEnv, id);
    expect((await stub.cancel(id)).status).toBe('failed');
    const events = parseSse(await withTimeout(text, 5_000, 'the SSE stream'));
    const statuses = events.filter((e) => e.type === 'status').map((e) => e.data.status);
    expect(statuses).toEqual(['queued', 'failed']);
    expect((events.at(-1)?.data.error as EvaluationError | undefined)?.code).toBe('queue_delivery_failed');
    expect((await stub.snapshot())?.status).toBe('failed');
  });
});

describe('explicit ids', () => {
  it('cancel() and fail() with another evaluation id throw wrong_object and change nothing', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const stub = evaluationStub(testEnv, id);
    // On the instance: a rejected RPC would also surface as an unhandled rejection inside the pool.
    await runInTestObject(id, async (o) => {
      await expect(o.cancel(`${id}_other`, 'nope')).rejects.toThrow(/another evaluation/);
      await expect(o.fail(`${id}_other`, { code: 'x', message: 'y' })).rejects.toThrow(/another evaluation/);
    });
    expect((await statusRow(id))?.status).toBe('queued');
    expect(await stub.snapshot()).toBeNull();
  });
});

describe('final write', () => {
  it('concurrent finalize() calls (end() and the alarm) share one D1 batch', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { latency: 2_000 } });
    const batches = await runInTestObject(id, async (o, state) => {
      await o.start(id);
      // No call goes out: this test drives the end itself.
      await state.storage.deleteAlarm();
      o.endLocally('cancelled', { code: 'cancelled', message: 'test' });
      const spy = vi.spyOn(o.bindings.DB, 'batch');
      try {
        await Promise.all([o.finalizeNow(), o.finalizeNow()]);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    });
    expect(batches).toBe(1);
    expect((await statusRow(id))?.status).toBe('cancelled');
  });

  it('a final write that keeps failing backs off exponentially, and gives up once the row is gone', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { latency: 5_000 } });
    const seen = await runInTestObject(id, async (o, state) => {
      await o.start(id);
      // No call goes out: this test drives the final write itself.
      await state.storage.deleteAlarm();
      o.endLocally('cancelled', { code: 'cancelled', message: 'test' });
      const spy = vi.spyOn(o.bindings.DB, 'batch').mockRejectedValue(new Error('permanent'));
      const delays: number[] = [];
      /** One failing final write; the delay of the retry it armed, or null when it armed none. */
      const attempt = async (): Promise<number | null> => {
        await state.storage.deleteAlarm();
        const before = Date.now();
        await o.finalizeNow();
        const at = await state.storage.getAlarm();
        return at === null ? null : at - before;
      };
      try {
        for (let i = 0; i < 6; i++) delays.push((await attempt()) ?? -1);
        // Many failures later the delay stops growing.
        o.setFinalizeFailures(20);
        const capped = await attempt();
        const snapBefore = await o.snapshot();
        // The row is gone (deleted in D1): the write can never land, so the next failure gives up.
        await o.bindings.DB.prepare('DELETE FROM evaluations WHERE id = ?').bind(id).run();
        const afterGone = await attempt();
        const batches = spy.mock.calls.length;
        await o.finalizeNow();
        return {
          delays,
          capped,
          snapBefore,
          afterGone,
          batches,
          batchesAfter: spy.mock.calls.length,
          snap: await o.snapshot(),
        };
      } finally {
        spy.mockRestore();
      }
    });
    const expected = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000];
    seen.delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(expected[i]! - 50);
      expect(d).toBeLessThan(expected[i]! + 1_000);
    });
    expect(seen.capped).toBeGreaterThanOrEqual(5 * 60_000 - 50);
    expect(seen.capped).toBeLessThan(5 * 60_000 + 1_000);
    // While the row exists it keeps retrying (the snapshot is still the local end).
    expect(seen.snapBefore?.status).toBe('cancelled');
    // Gave up: no alarm, no further batches, the snapshot says why.
    expect(seen.afterGone).toBeNull();
    expect(seen.batchesAfter).toBe(seen.batches);
    expect(seen.snap?.status).toBe('failed');
    expect(seen.snap?.error?.code).toBe('not_found');
  });

  it('a row ended elsewhere in D1 gets no verdict; the transcript and usage of the calls made are kept', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { latency: 300 } });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    await pollUntil(
      () => statusRow(id),
      (r) => r?.status === 'running',
      WAIT_MS,
    );
    // Ended behind the object's back after it was marked running (the DLQ's direct D1 write).
    await testEnv.DB.prepare(
      "UPDATE evaluations SET status = 'failed', error_code = 'queue_delivery_failed' WHERE id = ?",
    )
      .bind(id)
      .run();
    // The final batch changed no status: the object adopts D1's end instead of announcing its own verdict.
    const snap = await waitForSnapshot(id, (s) => s?.status === 'failed');
    expect(snap?.error?.code).toBe('queue_delivery_failed');
    const events = parseSse(
      await withTimeout(
        (await forwardEvents(testEnv, id, new Request('http://x/events'))).text(),
        WAIT_MS,
        'the SSE stream',
      ),
    );
    expect(events.some((e) => e.type === 'verdict')).toBe(false);
    expect(events.at(-1)?.data.status).toBe('failed');
    const usage = await pollUntil(
      () => countRows('usage', id),
      (n) => n === snap?.callsDone,
      WAIT_MS,
    );
    expect(usage).toBe(snap?.callsDone);
    expect(usage).toBeGreaterThan(0);
    expect(await countRows('verdicts', id)).toBe(0);
    // What was said stays on record: one transcript row per billed call.
    expect(await countRows('transcripts', id)).toBe(usage);
    expect((await statusRow(id))?.status).toBe('failed');
  });
});

describe('progress', () => {
  it('progress promotes a row left queued (a lost markRunning) to running, before the end', async () => {
    const ns = `promote-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 150 } });
    // A tiny STALL_SECONDS: progress refreshes D1 on every wave (by default not within 30 s of the running mark).
    await runInTestObject(id, (o) => {
      o.useBindings({ STALL_SECONDS: '0.001' });
    });
    await evaluationStub(testEnv, id).start(id);
    await pollUntil(
      () => statusRow(id),
      (r) => r?.status === 'running',
      WAIT_MS,
    );
    // Simulate the lost markRunning write.
    await testEnv.DB.prepare("UPDATE evaluations SET status = 'queued' WHERE id = ?").bind(id).run();
    const row = await pollUntil(
      () => statusRow(id),
      (r) => r?.status !== 'queued',
      WAIT_MS,
    );
    expect(row?.status).toBe('running');
    expect(row?.calls_done).toBeGreaterThanOrEqual(1);
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });
});

describe('configuration', () => {
  it('unusable LLM settings fail the evaluation with their code at once, not after throwing alarms', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const stub = evaluationStub(testEnv, id);
    await runInTestObject(id, async (o) => {
      // A deployment that forgot LLM_BASE_URL (the API checks it too; the object must not rely on that).
      o.useBindings({ LLM_BASE_URL: '' });
      await o.start(id);
    });
    const row = await waitForEnd(id);
    expect(row.status).toBe('failed');
    expect(row.error_code).toBe('llm_not_configured');
    expect(await mockRequests(id)).toBe(0);
    const snap = await stub.snapshot();
    expect(snap?.error?.code).toBe('llm_not_configured');
  });
});
