/**
 * The flex tier in the Durable Object's call path: calls go with `service_tier: "flex"` and are billed at the
 * flex price with the verdict the standard tier gives; a refusal falls back to the standard tier (default) or
 * waits and goes again at flex (`wait`), never losing the evaluation; every attempt's tier is recorded; an
 * attempt cut off by an eviction is counted when the call goes again, so no request goes out unnoticed; a
 * call the invocation's deadline cuts short is continued by the next alarm.
 */
import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmAttempt } from '../../src/engine/call.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { NOT_SENT } from '../../src/llm/client.js';
import { WAIT_MS } from '../support/patience.js';
import {
  countRows,
  drainAlarms,
  expectNoAlarmLeft,
  heldReplies,
  insertJob,
  mockRequests,
  releaseReplies,
  replyInGroups,
  waitForSnapshot,
  PAIRWISE,
  runInTestObject,
  storedVerdict,
  testEnv,
  pollUntil,
  waitForEnd,
} from './helpers.js';
import { createBatchId, items, singleCallJudge, waitForBatch } from './batches-support.js';
import { as, keyed, submitOk, tenantWithKey } from './tenants-helpers.js';
import type { UsageRow } from './tiers-support.js';
import { failedOf, usageRows } from './tiers-support.js';

afterEach(drainAlarms);

/** Prices for the mock's judge model: flex at half the standard price. */
const PRICES = JSON.stringify({
  'mock-judge': { input: 2, output: 8, flex: { input: 1, output: 4 } },
});

/** Runs the evaluation in its object with the test prices, alarms by hand, to its end. */
async function runPriced(id: string, patch: Record<string, string> = {}): Promise<void> {
  await runInTestObject(id, async (o, state) => {
    o.useBindings({ LLM_PRICES: PRICES, ...patch });
    await o.start(id);
    for (let i = 0; i < 20; i++) {
      await state.storage.deleteAlarm();
      await o.alarm();
      if ((await state.storage.getAlarm()) === null) break;
    }
    await state.storage.deleteAlarm();
  });
  const row = await waitForEnd(id);
  expect(row.status, row.error_message ?? '').toBe('succeeded');
}

describe('the flex tier', () => {
  it('goes at flex, billed at the flex price, with the verdict the standard tier gives', async () => {
    const seed = `flex-same-${Date.now()}`;
    const standard = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed } });
    const flex = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'flex' });
    await runPriced(standard.id);
    await runPriced(flex.id);
    const [sv, fv] = [await storedVerdict(standard.id), await storedVerdict(flex.id)];
    expect(fv?.votes).toEqual(sv?.votes);
    expect(fv?.score).toBe(sv?.score);
    const s = await usageRows(standard.id);
    const f = await usageRows(flex.id);
    expect(f.map((u) => u.tier)).toEqual(s.map(() => 'flex'));
    expect(s.every((u) => u.tier === 'standard')).toBe(true);
    const total = (rows: UsageRow[]) => rows.reduce((a, u) => a + u.cost_usd, 0);
    expect(total(s)).toBeGreaterThan(0);
    expect(total(f)).toBeCloseTo(total(s) / 2, 9);
  });

  it('a refusal goes again at once at the standard tier (default fallback), both attempts recorded', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tier: 'flex', mock: { flexRefuse: 1 } });
    await runPriced(id);
    const rows = await usageRows(id);
    expect(rows.length).toBeGreaterThan(0);
    for (const u of rows) {
      expect(u.tier).toBe('standard');
      expect(u.attempts).toBe(2);
      expect(failedOf(u)).toEqual([expect.objectContaining({ attempt: 1, code: 'flex_unavailable', tier: 'flex' })]);
    }
    // Every request the provider saw is on the bill's record: one refusal and one answer per call.
    expect(await mockRequests(id)).toBe(rows.length * 2);
  });

  it('`wait`: a call refused past its retries waits in the object and goes again at flex later', async () => {
    // More refusals than one invocation's retries: the first invocation parks every call.
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      flexFallback: 'wait',
      mock: { flexRefuse: 8 },
    });
    await runInTestObject(id, async (o, state) => {
      o.useBindings({ LLM_PRICES: PRICES, LLM_RETRY_BASE_MS: '1', LLM_RETRY_MAX_MS: '2' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      const sql = state.storage.sql;
      const waiting = () =>
        sql.exec<{ not_before: number; attempts: string }>('SELECT not_before, attempts FROM pending').toArray();
      expect(waiting().length).toBeGreaterThan(0);
      for (const w of waiting()) {
        // The first wait: up to a minute (full jitter).
        expect(w.not_before).toBeGreaterThan(Date.now());
        expect(w.not_before).toBeLessThanOrEqual(Date.now() + 60_000);
        const codes = (JSON.parse(w.attempts) as LlmAttempt[]).map((a) => [a.code, a.tier]);
        expect(codes.length).toBeGreaterThan(0);
        expect(new Set(codes.map(String))).toEqual(new Set(['flex_unavailable,flex']));
      }
      // The alarm is armed for the earliest of them, and nothing is stored meanwhile.
      expect(await state.storage.getAlarm()).toBe(Math.min(...waiting().map((w) => w.not_before)));
      expect(sql.exec('SELECT COUNT(*) AS n FROM results').one().n).toBe(0);
      // Time steps on to each wait's end; the next alarm sends them at flex again.
      for (let i = 0; i < 30; i++) {
        sql.exec('UPDATE pending SET not_before = ? WHERE not_before IS NOT NULL', Date.now() - 1);
        await state.storage.deleteAlarm();
        await o.alarm();
        if ((await state.storage.getAlarm()) === null) break;
      }
      await state.storage.deleteAlarm();
    });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const rows = await usageRows(id);
    expect(rows.length).toBeGreaterThan(0);
    for (const u of rows) {
      expect(u.tier).toBe('flex');
      expect(u.attempts).toBe(9);
      expect(failedOf(u).map((a) => [a.attempt, a.code, a.tier])).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'flex_unavailable', 'flex']),
      );
    }
    expect(await mockRequests(id)).toBe(rows.length * 9);
  });

  it('`wait`: a call whose flex refusal comes back after a cancel is stored, not parked: no pending row, nothing billed', async () => {
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      flexFallback: 'wait',
      mock: { flexRefuse: 8 },
    });
    // The refusals are held until the test lets them go: the first attempts are out when the cancel is stored.
    await replyInGroups(id, Infinity);
    await runInTestObject(id, (o) => o.start(id));
    // Both calls of the pair on the wire (their requests reach the mock one at a time): held is 2.
    const held = await pollUntil(
      () => heldReplies(id),
      (n) => n === 2,
      WAIT_MS,
    );
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    expect(await releaseReplies(id)).toBe(held);
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    // Each call stopped after its refusal: stored with that one attempt, counted, in no transcript, billed nothing.
    expect(snap?.callsDone).toBe(held);
    expect(await mockRequests(id)).toBe(held);
    const left = await runInTestObject(id, (_o, state) => ({
      pending: state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending').one().n,
      results: state.storage.sql.exec('SELECT COUNT(*) AS n FROM results').one().n,
    }));
    expect(left).toEqual({ pending: 0, results: held });
    expect(await countRows('usage', id)).toBe(0);
    expect(await countRows('transcripts', id)).toBe(0);
    await expectNoAlarmLeft(id);
  });

  it('`wait`: a call parked before a cancel (waiting for its not_before) is stored as not sent: no pending row, nothing billed', async () => {
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      flexFallback: 'wait',
      mock: { flexRefuse: 8 },
    });
    // More refusals than one invocation's retries: the first invocation parks every call for a minute at most.
    const parked = await runInTestObject(id, async (o, state) => {
      o.useBindings({ LLM_RETRY_BASE_MS: '1', LLM_RETRY_MAX_MS: '2' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      // Its wake-up for the earliest not_before (up to a minute away) would find the work ended: not waited for.
      await state.storage.deleteAlarm();
      return state.storage.sql
        .exec<{ call_id: string; attempts: string }>(
          'SELECT call_id, attempts FROM pending WHERE not_before IS NOT NULL',
        )
        .toArray()
        .map((r) => [r.call_id, (JSON.parse(r.attempts) as LlmAttempt[]).length] as const);
    });
    expect(parked.length).toBeGreaterThan(0);
    const sent = await mockRequests(id);
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    const left = await runInTestObject(id, (_o, state) => ({
      pending: state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending').one().n,
      results: state.storage.sql
        .exec<{ call_id: string; result: string }>('SELECT call_id, result FROM results ORDER BY call_id')
        .toArray()
        .map((r) => {
          const result = JSON.parse(r.result) as { ok: boolean; attempts: number; error?: { code: string } };
          return [r.call_id, result.attempts, result.error?.code] as const;
        }),
    }));
    // Each parked call stored once, with the refusals it had: not sent again, billed nothing.
    expect(left).toEqual({
      pending: 0,
      results: [...parked].sort().map(([callId, attempts]) => [callId, attempts, NOT_SENT]),
    });
    expect(snap?.callsDone).toBe(parked.length);
    expect(await mockRequests(id)).toBe(sent);
    expect(await countRows('usage', id)).toBe(0);
    await expectNoAlarmLeft(id);
  });

  it('`wait`: a call parked before a cancel beside one whose refusal came back after it: both stored, no pending row', async () => {
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      flexFallback: 'wait',
      mock: { flexRefuse: 8 },
    });
    // The first invocation parks both calls; then one call's wait is over (its not_before moved to the past).
    const [first, second] = await runInTestObject(id, async (o, state) => {
      o.useBindings({ LLM_RETRY_BASE_MS: '1', LLM_RETRY_MAX_MS: '2' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      await state.storage.deleteAlarm();
      const ids = state.storage.sql
        .exec<{ call_id: string }>('SELECT call_id FROM pending WHERE not_before IS NOT NULL ORDER BY call_id')
        .toArray()
        .map((r) => r.call_id);
      // Its jittered wait may be near 0: the other's is set an hour away, so it surely still waits.
      state.storage.sql.exec('UPDATE pending SET not_before = ? WHERE call_id = ?', Date.now() - 1, ids[0]);
      state.storage.sql.exec('UPDATE pending SET not_before = ? WHERE call_id = ?', Date.now() + 3_600_000, ids[1]);
      return ids;
    });
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    // That call goes again and its reply is held; the other still waits for its not_before.
    await replyInGroups(id, Infinity);
    const step = runInTestObject(id, (o) => o.alarm());
    expect(
      await pollUntil(
        () => heldReplies(id),
        (n) => n === 1,
        WAIT_MS,
      ),
    ).toBe(1);
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    // Its refusal, stored after the end, is a failure the engine folds in before the final write.
    expect(await releaseReplies(id)).toBe(1);
    await step;
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    const left = await runInTestObject(id, (_o, state) => ({
      pending: state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending').one().n,
      codes: state.storage.sql
        .exec<{ call_id: string; result: string }>('SELECT call_id, result FROM results ORDER BY call_id')
        .toArray()
        .map((r) => [r.call_id, (JSON.parse(r.result) as { error?: { code: string } }).error?.code] as const),
    }));
    expect(left).toEqual({
      pending: 0,
      codes: [
        [first, 'flex_unavailable'],
        [second, NOT_SENT],
      ],
    });
    expect(await countRows('usage', id)).toBe(0);
    await expectNoAlarmLeft(id);
  });

  it('a call the invocation deadline cuts short after a cancel is stored, not parked: no pending row, nothing billed', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tier: 'flex' });
    // The replies are held: each first attempt is cut off at the invocation's deadline, after the cancel.
    await replyInGroups(id, Infinity);
    await runInTestObject(id, (o) => {
      o.useBindings({ CALL_DEADLINE_MS: '1500' });
      return o.start(id);
    });
    // Both calls of the pair on the wire (their requests reach the mock one at a time): held is 2.
    const held = await pollUntil(
      () => heldReplies(id),
      (n) => n === 2,
      WAIT_MS,
    );
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(await releaseReplies(id)).toBe(held);
    expect(snap?.status).toBe('cancelled');
    expect(snap?.callsDone).toBe(held);
    const left = await runInTestObject(id, (_o, state) => ({
      pending: state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending').one().n,
      results: state.storage.sql.exec('SELECT COUNT(*) AS n FROM results').one().n,
    }));
    expect(left).toEqual({ pending: 0, results: held });
    expect(await countRows('usage', id)).toBe(0);
    await expectNoAlarmLeft(id);
  });

  it('a call the invocation deadline cut short before a cancel is stored as `deadline` with its attempt: no pending row', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tier: 'flex', mock: { latency: 1500 } });
    const parked = await runInTestObject(id, async (o, state) => {
      o.useBindings({ CALL_DEADLINE_MS: '1200' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      // Its next invocation would continue the calls: the cancel comes first.
      await state.storage.deleteAlarm();
      return state.storage.sql
        .exec<{ call_id: string }>('SELECT call_id FROM pending WHERE launched_at IS NULL ORDER BY call_id')
        .toArray()
        .map((r) => r.call_id);
    });
    expect(parked.length).toBeGreaterThan(0);
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    const snap = await waitForSnapshot(id, (s) => s?.finalized === true);
    expect(snap?.status).toBe('cancelled');
    const left = await runInTestObject(id, (_o, state) => ({
      pending: state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending').one().n,
      results: state.storage.sql
        .exec<{ call_id: string; result: string }>('SELECT call_id, result FROM results ORDER BY call_id')
        .toArray()
        .map((r) => {
          const result = JSON.parse(r.result) as { attempts: number; error?: { code: string } };
          return [r.call_id, result.attempts, result.error?.code] as const;
        }),
    }));
    // As when the cut comes after the end: its attempt went out and timed out, so it is no `not_sent`.
    expect(left).toEqual({ pending: 0, results: parked.map((callId) => [callId, 1, 'deadline']) });
    expect(snap?.callsDone).toBe(parked.length);
    expect(await countRows('usage', id)).toBe(0);
  });

  it('a call cut short by the invocation deadline is continued by the next alarm, its attempt counted', async () => {
    // Each reply takes 1.5 s; the invocation may wait 1 s on a call: every attempt is cut off and continued.
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      mock: { latency: 1500 },
    });
    await runInTestObject(id, async (o, state) => {
      o.useBindings({ CALL_DEADLINE_MS: '1200' });
      await o.start(id);
      await state.storage.deleteAlarm();
      await o.alarm();
      const parked = state.storage.sql
        .exec<{ launched_at: number | null; attempts: string }>('SELECT launched_at, attempts FROM pending')
        .toArray();
      expect(parked.length).toBeGreaterThan(0);
      for (const p of parked) {
        expect(p.launched_at).toBeNull();
        expect(JSON.parse(p.attempts)).toEqual([expect.objectContaining({ kind: 'timeout', tier: 'flex' })]);
      }
      // The next invocation has time enough.
      expect(await state.storage.getAlarm()).not.toBeNull();
      o.useBindings({ CALL_DEADLINE_MS: '840000' });
      for (let i = 0; i < 20; i++) {
        await state.storage.deleteAlarm();
        await o.alarm();
        if ((await state.storage.getAlarm()) === null) break;
      }
      await state.storage.deleteAlarm();
    });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const rows = await usageRows(id);
    expect(rows.some((u) => u.attempts === 2 && failedOf(u)[0]?.kind === 'timeout')).toBe(true);
  });

  it('an eviction mid-flex: the attempt it cut off is counted when the call goes again, none unnoticed', async () => {
    const { id } = await insertJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      tier: 'flex',
      mock: { latency: 800 },
    });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    // The first calls are out (0.8 s each) and reached the mock: evict the object with them in flight.
    const launched = () =>
      runInTestObject(id, (_o, state) =>
        Number(state.storage.sql.exec('SELECT COUNT(*) AS n FROM pending WHERE launched_at IS NOT NULL').one().n),
      );
    await pollUntil(
      async () => [await launched(), await mockRequests(id)] as const,
      ([out, seen]) => out > 0 && seen >= out,
    );
    await abortAllDurableObjects();
    await evaluationStub(testEnv, id).start(id);
    // workerd retries the alarm the eviction cut off ~2 s later: run it now rather than wait.
    await runDurableObjectAlarm(evaluationStub(testEnv, id));
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const rows = await usageRows(id);
    const evicted = rows.flatMap(failedOf).filter((a) => a.code === 'evicted');
    expect(evicted.length).toBeGreaterThan(0);
    for (const a of evicted) expect(a.tier).toBe('flex');
    // Every request the mock saw is one the usage rows account for.
    const accounted = rows.reduce((n, u) => n + u.attempts, 0);
    expect(await mockRequests(id)).toBe(accounted);
  });

  it("a batch's tier is every item's: shown on the batch and each item, every call billed at flex", async () => {
    const seed = `flex-batch-${Date.now()}`;
    const id = await createBatchId({ ...singleCallJudge(seed), tier: 'flex', flexFallback: 'wait', items: items(3) });
    const batch = await waitForBatch(id);
    expect(batch).toMatchObject({ tier: 'flex', flexFallback: 'wait' });
    const r = await testEnv.DB.prepare('SELECT id, tier, flex_fallback FROM evaluations WHERE batch_id = ?')
      .bind(id)
      .all<{ id: string; tier: string; flex_fallback: string }>();
    const billed = await Promise.all(
      r.results.map(async (e) => (await usageRows(e.id)).map((u) => ({ ...e, billed: u.tier }))),
    );
    expect(billed.flat().map(({ id: _id, ...rest }) => rest)).toEqual(
      Array.from({ length: 3 }, () => ({ tier: 'flex', flex_fallback: 'wait', billed: 'flex' })),
    );
  });

  it("a tenant's default tier (admin API) applies to its requests that name none; a request's own wins", async () => {
    const { key } = await tenantWithKey({ defaultTier: 'flex' });
    const byDefault = await submitOk(key);
    const own = await keyed(
      '/v1/evaluations',
      as(key, {
        body: {
          preset: 'chateval-single',
          config: { defaults: { model: 'mock-judge' } },
          task: PAIRWISE,
          tier: 'standard',
        },
      }),
    );
    expect(own.status).toBe(202);
    const ownId = (await own.json<{ id: string }>()).id;
    const tierOf = async (id: string) =>
      (await testEnv.DB.prepare('SELECT tier FROM evaluations WHERE id = ?').bind(id).first<{ tier: string }>())?.tier;
    expect(await tierOf(byDefault)).toBe('flex');
    expect(await tierOf(ownId)).toBe('standard');
    await waitForEnd(byDefault);
    await waitForEnd(ownId);
  });
});
