import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { evaluationStub, forwardEvents } from '../../src/evaluations/stub.js';
import { NOT_SENT } from '../../src/llm/client.js';
import {
  gateLimitsOf,
  gateShardOf,
  gateShards,
  providerGateStub,
  shardLimits,
} from '../../src/provider-gate/worker-gate.js';
import {
  countRows,
  drainAlarms,
  heldReplies,
  billedCalls,
  insertJob,
  LONG_DEBATE,
  mockAttempts,
  mockRequests,
  PAIRWISE,
  parseSse,
  expectNoAlarmLeft,
  pollUntil,
  POINTWISE,
  replyInGroups,
  runInTestObject,
  statusRow,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';
import { sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

describe('LLM faults', () => {
  it('a transient fault mid-debate (500 twice per critic call) is retried by the LLM layer, then the debate completes', async () => {
    const ns = `fault-${Date.now()}`;
    await stubbornCritic(ns);
    const id = `ev_fault_${Date.now()}`;
    const critic = { model: mockModel({ mode: 'scripted', ns, seed: id, fail: [[500, 2]] }) };
    await insertJob({
      id,
      ...LONG_DEBATE,
      config: { ...LONG_DEBATE.config, critic },
      task: POINTWISE,
      mock: { mode: 'scripted', ns },
    });
    await testEnv.JOBS.send({ id });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect(await countRows('usage', id)).toBe(7);
    const critics = (await billedCalls(id)).filter((u) => u.call_id.startsWith('critic'));
    expect(critics.map((u) => u.attempts)).toEqual([3, 3, 3]);
    // 7 calls, each critic call sent 3 times by the LLM layer's own retries, nothing more.
    expect(await mockRequests(id)).toBe(7 + 3 * 2);
  });

  it('a permanent provider error (401) fails the evaluation with the provider reason, never a score', async () => {
    const id = `ev_auth_${Date.now()}`;
    const critic = { model: mockModel({ seed: id, permanent: 401 }) };
    await insertJob({ id, ...LONG_DEBATE, config: { ...LONG_DEBATE.config, critic }, task: POINTWISE });
    await testEnv.JOBS.send({ id });
    const row = await waitForEnd(id);
    expect(row.status).toBe('failed');
    expect(row.error_code).toBe('auth');
    // The provider's own reason, quoted (the mock's 401 text).
    expect(row.error_message).toContain('Incorrect API key provided');
    expect(await countRows('verdicts', id)).toBe(0);
    // The scorer's first call succeeded and is billed; the failed critic call is not.
    expect(await countRows('usage', id)).toBe(1);
    const snap = await evaluationStub(testEnv, id).snapshot();
    expect(snap?.status).toBe('failed');
    expect(snap?.error?.code).toBe('auth');
    expect(snap?.error?.callId).toBe('critic1');
  });
});

describe('cancel', () => {
  it('cancel mid-debate: D1 shows cancelled at once, the call in flight is recorded, no new call is made', async () => {
    const ns = `cancel-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 120 } });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    // The third call reached the mock (a call still waiting for its provider slot at the cancel is not sent).
    await pollUntil(
      () => mockRequests(id),
      (n) => n >= 3,
      WAIT_MS,
    );
    const r = await stub.cancel(id, 'user changed their mind');
    expect(r.status).toBe('cancelled');
    // Calls stored by now: at most the one in flight at the cancel comes after them.
    const atCancel = (await stub.snapshot())?.callsDone ?? 0;
    const row = await statusRow(id);
    expect(row?.status).toBe('cancelled');
    expect(row?.error_message).toBe('user changed their mind');
    // The call in flight at the cancel finishes and is stored; then the final write lands and no alarm
    // is left: nothing more will happen. (The final write, not a count: the poll above may see the debate
    // a call further than 2 when the cancel goes.)
    const snap = await waitForSnapshot(id, (s) => s?.status === 'cancelled' && s.finalized);
    const done = snap?.callsDone ?? 0;
    expect(done).toBeGreaterThanOrEqual(3);
    expect(done).toBeLessThanOrEqual(atCancel + 1);
    const usage = await pollUntil(
      () => countRows('usage', id),
      (n) => n === done,
      WAIT_MS,
    );
    await expectNoAlarmLeft(id);
    // Every call that went out (the one in flight included) is stored, billed and in the transcript; no verdict.
    expect(await mockRequests(id)).toBe(done);
    expect(usage).toBe(done);
    expect(await countRows('transcripts', id)).toBe(done);
    expect(await countRows('verdicts', id)).toBe(0);
    expect((await stub.cancel(id)).status).toBe('cancelled');
  });

  it('a cancel stops the retries of the calls in flight: each is stored with the attempt it made, none is sent again', async () => {
    // Every attempt fails; every reply is held until the test lets it go, so both calls' first attempts are out
    // (and will fail) when the cancel is stored.
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, mock: { fail: [[500, 9]] } });
    await replyInGroups(id, Infinity);
    await runInTestObject(id, async (o) => {
      // The attempts wait for this test, not for the suite's 5 s timeout: on a loaded machine that timeout could
      // fire, and its retry go out, before the cancel is stored.
      o.useBindings({ LLM_TIMEOUT_MS: '120000' });
      await o.start(id);
    });
    await pollUntil(
      () => heldReplies(id),
      (n) => n === 2,
      WAIT_MS,
    );
    const stub = evaluationStub(testEnv, id);
    expect((await stub.cancel(id)).status).toBe('cancelled');
    // The two 500s go out; an attempt after them would be answered at once (it would fail, and count below).
    await replyInGroups(id, 1);
    // Both calls stored (failed), then the final write, and no alarm left: nothing more will happen.
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    expect(snap?.callsDone).toBe(2);
    await expectNoAlarmLeft(id);
    const attempts = await mockAttempts(id);
    expect(attempts.map((a) => a?.retries)).toEqual([0, 0]);
    expect(new Set(attempts.map((a) => a?.call)).size).toBe(2);
    // Each call is stored with the one attempt it made (none billed: none answered).
    const finished = parseSse(await (await forwardEvents(testEnv, id, new Request('http://x/events'))).text())
      .filter((e) => e.type === 'call.finished')
      .map((e) => (e.data.error as { attempts?: unknown[] } | undefined)?.attempts?.length);
    expect(finished).toEqual([1, 1]);
    expect(await countRows('usage', id)).toBe(0);
  });

  it('a cancel stored while the first attempts wait at a saturated provider gate ends it at once: asks withdrawn, none sent or billed', async () => {
    const id = `ev_gatecancel_${Date.now()}`;
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    // The evaluation's shard of its model's gate, its whole window held by another tenant's attempts.
    const shards = gateShards(limits);
    const shard = gateShardOf(id, shards);
    const gate = providerGateStub(testEnv, 'default', mockModel({ seed: id }), shard);
    const own = shardLimits(limits, shard, shards);
    const holds = Array.from({ length: own.start }, (_, i) => `hold/${id}/${i}`);
    for (const h of holds) await gate.acquire(h, 'tn_other', own);
    expect((await gate.stats()).inFlight).toBe(own.start);
    // Its tenant takes `evaluation.cancelled` webhooks (delivered to a test sink).
    const tenant = `tn_gatecancel_${Date.now()}`;
    await testEnv.DB.prepare(
      `INSERT INTO webhook_endpoints (id, tenant, url, events, secret, disabled_at, created_at, updated_at)
       VALUES (?, ?, ?, '["evaluation.cancelled"]', 'whsec_dGVzdA==', NULL, 0, 0)`,
    )
      .bind(`we_${tenant}`, tenant, sinkUrl('gatecancel'))
      .run();
    const { id: started } = await insertJob({ id, preset: 'fastchat-pair', task: PAIRWISE, tenant });
    const stub = evaluationStub(testEnv, started);
    await stub.start(id);
    // The evaluation's first attempts are announced and wait their turn at the gate.
    await pollUntil(
      () => gate.stats(),
      (s) => s.waiting > 0,
      WAIT_MS,
    );
    const asked = (await gate.stats()).waiting;
    expect((await stub.cancel(id)).status).toBe('cancelled');
    // Ended while the gate is still saturated: the final write (the row's end, its event) waits for no grant.
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    expect(snap?.callsDone).toBe(0);
    await expectNoAlarmLeft(id);
    expect((await statusRow(id))?.status).toBe('cancelled');
    const events = await testEnv.DB.prepare('SELECT type FROM webhook_events WHERE subject_id = ?')
      .bind(id)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual(['evaluation.cancelled']);
    // Its asks left the gate's queue (withdrawn, none granted): the other tenant's slots are exactly as they were.
    expect(asked).toBeGreaterThan(0);
    expect(await gate.stats()).toMatchObject({ inFlight: own.start, waiting: 0 });
    for (const h of holds) await gate.release(h, 'ok');
    expect(await mockAttempts(id)).toEqual([]);
    expect(await countRows('usage', id)).toBe(0);
    expect(await countRows('transcripts', id)).toBe(0);
    // Each announced call ends as not sent, with no attempt; its slot is back.
    const finished = parseSse(await (await forwardEvents(testEnv, id, new Request('http://x/events'))).text())
      .filter((e) => e.type === 'call.finished')
      .map((e) => (e.data.error as { code?: string } | undefined)?.code);
    expect(finished.length).toBeGreaterThan(0);
    expect(new Set(finished)).toEqual(new Set([NOT_SENT]));
    await expect.poll(async () => (await gate.stats()).inFlight).toBe(0);
  });

  it('cancel before the job started ends the queued row; a later delivery does not run it', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const stub = evaluationStub(testEnv, id);
    expect((await stub.cancel(id)).status).toBe('cancelled');
    expect((await statusRow(id))?.status).toBe('cancelled');
    expect((await stub.start(id)).status).toBe('cancelled');
    expect(await mockRequests(id)).toBe(0);
  });
});
