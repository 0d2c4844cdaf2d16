/**
 * The batch tier in waves (durable-objects/wave-coordinator/, src/waves/), against the mock's Batch API on its
 * compressed clock (100 ms a batch here): an evaluation registers its ready calls with the coordinator of its
 * (group, provider, model), which submits each wave as a provider batch, polls it by alarm and hands each
 * result back by RPC. Dependent calls wait for their wave; failed and expired lines go in the next wave,
 * counted as attempts, then go synchronously; cancel cancels the provider batch; a crash between upload and submit does not upload
 * again; the custom_id map survives a restart; a repeated delivery stores and bills nothing twice; verdicts
 * are identical at every tier.
 */
import { WAIT_MS } from '../support/patience.js';
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch as BatchView } from '../../src/batches/schemas.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { createBatchClient } from '../../src/llm/batch-client.js';
import { llmEnvOf, settingsFromEnv } from '../../src/llm/settings.js';
import { WaveCoordinator } from '../../src/waves/coordinator.js';
import { coordinatorName } from '../../src/waves/rpc.js';
import type { WaveCall } from '../../src/waves/rpc.js';
import type { PartRow } from '../../src/waves/store.js';
import { api } from './api-fetch.js';
import { createBatchId, items, waitForBatch } from './batches-support.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  PAIRWISE,
  POINTWISE,
  pollUntil,
  runInTestObject,
  storedVerdict,
  stubbornCritic,
  testEnv,
  waitForEnd,
  holdMockBatchApi,
  statusRow,
} from './helpers.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { BATCH_DEFAULTS } from './mock-llm-server.js';
import { TestWaveCoordinatorDO } from './test-wave-coordinator.js';
import type { UsageRow } from './tiers-support.js';
import { failedOf, usageRows } from './tiers-support.js';
import { bodyText } from '../support/body-text.js';

const MOCK_ORIGIN = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
holdMockBatchApi();

/** Sets the mock's Batch API for the batches created from now on; answers its upload count. */
async function mockBatches(
  o: { turnaround?: number; failure?: number; expiry?: number; uploadLoss?: number; createLoss?: number } = {},
): Promise<number> {
  const q = new URLSearchParams({
    turnaround: String(o.turnaround ?? BATCH_DEFAULTS.turnaroundMs),
    failure: String(o.failure ?? 0),
    expiry: String(o.expiry ?? 0),
    uploadLoss: String(o.uploadLoss ?? 0),
    createLoss: String(o.createLoss ?? 0),
  });
  const r = await fetch(`${MOCK_ORIGIN}/_test/batch?${q.toString()}`, { method: 'PUT' });
  return (await r.json<{ uploads: number }>()).uploads;
}

/** The mock's Batch API requests so far: uploads, batch creations and listings of the account's batches. */
async function batchApiCounts(): Promise<{ uploads: number; creates: number; lists: number }> {
  return (await fetch(`${MOCK_ORIGIN}/_test/batch`)).json<{ uploads: number; creates: number; lists: number }>();
}

async function uploads(): Promise<number> {
  return (await batchApiCounts()).uploads;
}

/** A coordinator's result for `callId`: the judge's reply, as a provider batch's output line brings it. */
function waveReply(callId: string) {
  return {
    callId,
    attempt: 1,
    latencyMs: 5,
    outcome: {
      customId: null,
      kind: 'reply' as const,
      content: 'Assistant A is better. [[A]]',
      choices: ['Assistant A is better. [[A]]'],
      model: 'mock-judge',
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    },
  };
}
afterEach(async () => {
  await mockBatches();
  await drainAlarms();
});

/** The coordinator of a lone evaluation's calls to the mock model of `seed`. */
function loneCoordinator(id: string, seed: string): string {
  return coordinatorName(id, 'default', mockModel({ seed }));
}

/** A coordinator's parts (one provider batch each), by name. */
async function partsOf(name: string): Promise<PartRow[]> {
  const stub = testEnv.WAVES.get(testEnv.WAVES.idFromName(name));
  return runInDurableObject(stub, (_o, state) =>
    state.storage.sql.exec<PartRow>('SELECT * FROM parts ORDER BY wave, part').toArray(),
  );
}

/** A coordinator's calls' states and lines, by name, in registration order. */
async function linesOf(name: string): Promise<{ state: string; line: string }[]> {
  return runInDurableObject(testEnv.WAVES.get(testEnv.WAVES.idFromName(name)), (_o, state) =>
    state.storage.sql
      .exec<{ state: string; line: string }>(
        'SELECT c.state, COALESCE(l.line, c.line) AS line FROM calls c LEFT JOIN lines l USING (custom_id) ORDER BY c.rowid',
      )
      .toArray(),
  );
}

/** The mock's view of a provider batch. */
async function providerBatch(
  batchId: string,
): Promise<{ status: string; request_counts?: { completed: number; total: number } }> {
  const r = await fetch(`${testEnv.TEST_MOCK_URL}/batches/${batchId}`, {
    headers: { authorization: `Bearer ${testEnv.LLM_API_KEY ?? ''}` },
  });
  return r.json<{ status: string; request_counts?: { completed: number; total: number } }>();
}

/** Inserts and starts an evaluation (its object's alarms and the coordinator's run it). */
async function startJob(o: Parameters<typeof insertJob>[0]): Promise<string> {
  const { id } = await insertJob(o);
  await evaluationStub(testEnv, id).start(id);
  return id;
}

describe('the batch tier', () => {
  it('goes in provider batches at the batch price, with the verdict the standard tier gives; no synchronous call', async () => {
    const seed = 'wave-same';
    const standard = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed } });
    expect((await waitForEnd(standard)).status).toBe('succeeded');
    const before = await mockRequests(seed);
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    // Nothing went to /chat/completions: every call was a batch line.
    expect(await mockRequests(seed)).toBe(before);
    const [sv, bv] = [await storedVerdict(standard), await storedVerdict(id)];
    expect(bv?.votes).toEqual(sv?.votes);
    expect(bv?.score).toBe(sv?.score);
    const s = await usageRows(standard);
    const b = await usageRows(id);
    expect(b.map((u) => u.tier)).toEqual(s.map(() => 'batch'));
    const total = (rows: UsageRow[]) => rows.reduce((a, u) => a + u.cost_usd, 0);
    expect(total(b)).toBeCloseTo(total(s) / 2, 9);
    // FastChat's two orders are independent: one wave, one provider batch.
    const name = loneCoordinator(id, seed);
    const parts = await partsOf(name);
    expect(parts.map((p) => [p.wave, p.state])).toEqual([[1, 'delivered']]);
    // The prompts are not kept once their outcomes are delivered: each call's line is dropped.
    expect(await linesOf(name)).toEqual([
      { state: 'delivered', line: '' },
      { state: 'delivered', line: '' },
    ]);
  });

  it('dependent calls wait for their wave: a 3-call DEBATE chain takes 3 waves, none of them listing batches', async () => {
    const seed = 'wave-chain';
    await stubbornCritic(seed);
    const before = await batchApiCounts();
    const id = await startJob({
      ...LONG_DEBATE,
      config: { ...LONG_DEBATE.config, maxIterations: 1 },
      task: POINTWISE,
      mock: { seed, mode: 'scripted', ns: seed },
      tier: 'batch',
    });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect(row.calls_done).toBe(3);
    const parts = await partsOf(coordinatorName(id, 'default', mockModel({ seed, mode: 'scripted', ns: seed })));
    expect(parts.map((p) => p.wave)).toEqual([1, 2, 3]);
    // A creation is looked up among the account's batches only after a try whose answer was lost: none here.
    const after = await batchApiCounts();
    expect(after.creates - before.creates).toBe(3);
    expect(after.lists - before.lists).toBe(0);
    // Each wave was submitted after the one before it delivered.
    for (let i = 1; i < parts.length; i++)
      expect(parts[i]!.submitted_at!).toBeGreaterThanOrEqual(parts[i - 1]!.submitted_at!);
  });

  it('failed and expired lines go in the next wave, each try an attempt at tier batch', async () => {
    await mockBatches({ failure: 0.4, expiry: 0.4 });
    const seed = 'wave-faults';
    const id = await startJob({
      id: 'ev_wave_faults_1',
      preset: 'fastchat-pair',
      task: PAIRWISE,
      mock: { seed },
      tier: 'batch',
    });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const rows = await usageRows(id);
    const failed = rows.flatMap(failedOf);
    const codes = new Set(failed.map((a) => a.code));
    expect(codes).toContain('batch_expired');
    // A 500 line reads as the HTTP failure it is.
    expect(codes).toContain('provider_error');
    for (const a of failed) expect(a.tier).toBe('batch');
    for (const u of rows) {
      expect(u.tier).toBe('batch');
      expect(u.attempts).toBe(failedOf(u).length + 1);
    }
  });

  it('a line that keeps expiring goes as a synchronous call once its tries in waves are spent: nothing lost', async () => {
    await mockBatches({ expiry: 1 });
    const seed = 'wave-expired';
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    await runInTestObject(id, async (o) => {
      o.useBindings({ LLM_MAX_ATTEMPTS: '2' });
      await o.start(id);
    });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const rows = await usageRows(id);
    expect(rows).toHaveLength(2);
    for (const u of rows) {
      // Billed at the tier that answered, with both tries in waves on the record.
      expect(u.tier).toBe('standard');
      expect(u.attempts).toBe(3);
      expect(failedOf(u)).toEqual([
        expect.objectContaining({ attempt: 1, code: 'batch_expired', tier: 'batch' }),
        expect.objectContaining({ attempt: 2, code: 'batch_expired', tier: 'batch' }),
      ]);
    }
    expect(await mockRequests(seed)).toBe(2);
  });

  it('a budget holds each wave to what is left: the call past it is refused, never sent', async () => {
    // MORE's advocates run in parallel: 9 calls planned, 5 allowed; the sixth is refused before any wave has it.
    const seed = 'wave-budget';
    const id = await startJob({
      preset: 'more-mtbench',
      task: PAIRWISE,
      config: { budget: { maxCalls: 5 } },
      mock: { seed },
      tier: 'batch',
      tenant: 'default',
    });
    const row = await waitForEnd(id);
    expect(row.status).toBe('failed');
    expect(row.error_code).toBe('budget_exceeded');
    expect(row.calls_done).toBe(5);
    const lines = await runInDurableObject(
      testEnv.WAVES.get(testEnv.WAVES.idFromName(loneCoordinator(id, seed))),
      (_o, state) => state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM calls').one().n,
    );
    expect(lines).toBe(5);
  });

  it('cancel mid-wave cancels the provider batch', async () => {
    await mockBatches({ turnaround: 20_000 });
    const seed = 'wave-cancel';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const name = loneCoordinator(id, seed);
    const [part] = await pollUntil(
      () => partsOf(name),
      (p) => p[0]?.state === 'submitted',
    );
    await evaluationStub(testEnv, id).cancel(id);
    expect((await waitForEnd(id)).status).toBe('cancelled');
    const cancelled = await pollUntil(
      () => providerBatch(part!.batch_id!),
      (b) => b.status === 'cancelling' || b.status === 'cancelled',
    );
    expect(['cancelling', 'cancelled']).toContain(cancelled.status);
  });

  it('deleting an evaluation withdraws its calls from their wave: its provider batch is cancelled', async () => {
    await mockBatches({ turnaround: 20_000 });
    const seed = 'wave-delete';
    const id = await startJob({
      preset: 'fastchat-pair',
      task: PAIRWISE,
      mock: { seed },
      tier: 'batch',
      tenant: 'default',
    });
    const name = loneCoordinator(id, seed);
    const [part] = await pollUntil(
      () => partsOf(name),
      (p) => p[0]?.state === 'submitted',
    );
    expect((await api(`/v1/evaluations/${id}`, { method: 'DELETE' })).status).toBe(204);
    const cancelled = await pollUntil(
      () => providerBatch(part!.batch_id!),
      (b) => b.status === 'cancelling' || b.status === 'cancelled',
    );
    expect(['cancelling', 'cancelled']).toContain(cancelled.status);
    const states = await runInDurableObject(testEnv.WAVES.get(testEnv.WAVES.idFromName(name)), (_o, state) =>
      state.storage.sql.exec<{ state: string }>('SELECT state FROM calls').toArray(),
    );
    expect(states.map((r) => r.state)).not.toContain('sent');
  });

  it("a withdrawn call's line is not in its part's file, though the wave closed with it", async () => {
    const name = coordinatorName('wave-withdraw-planned', 'default', mockModel({ seed: 'wave-withdraw-planned' }));
    const stub = testEnv.WAVES.get(testEnv.WAVES.idFromName(name));
    const settings = settingsFromEnv(llmEnvOf(testEnv));
    const line = (text: string): WaveCall[] => [
      {
        callId: 'c1',
        attempt: 1,
        line: {
          custom_id: '',
          method: 'POST',
          url: '/v1/chat/completions',
          body: { model: mockModel({ seed: 'wave-withdraw-planned' }), messages: [{ role: 'user', content: text }] },
        },
      },
    ];
    const fileId = await runInDurableObject(stub, async (_o, state) => {
      let clock = 1_000;
      // The first upload is refused, so the wave's part waits in `planned` while item-b ends.
      let client = createBatchClient(settings, 'no-such-provider');
      const logic = new WaveCoordinator(name, {
        sql: state.storage.sql,
        storage: state.storage,
        client: () => client,
        deliver: () => Promise.resolve([]),
        timings: () => ({ quietMs: 10, maxWaitMs: 100, pollMinMs: 10, pollMaxMs: 10 }),
        now: () => clock,
      });
      logic.register('item-a', line('kept'));
      logic.register('item-b', line('withdrawn'));
      clock += 20;
      await logic.step();
      logic.withdraw('item-b');
      client = createBatchClient(settings);
      clock += 20;
      await logic.step();
      return state.storage.sql.exec<{ file_id: string | null }>('SELECT file_id FROM parts').one().file_id;
    });
    const content = await bodyText(
      await fetch(`${testEnv.TEST_MOCK_URL}/files/${fileId ?? ''}/content`, {
        headers: { authorization: `Bearer ${testEnv.LLM_API_KEY ?? ''}` },
      }),
    );
    expect(content).toContain('kept');
    expect(content).not.toContain('withdrawn');
  });

  it('a cancel makes its final write at once: it does not wait for the lines its provider batch ran anyway', async () => {
    // The cancel must reach the provider's batch before it completes: its lines finish at random times over
    // 0.1-0.9 of the turnaround, so at 2 s the first could finish 0.2 s before the end, which a loaded machine
    // (load 20-30) missed; at 20 s the cancel has seconds, as in this file's other waits on a running batch.
    await mockBatches({ turnaround: 20_000 });
    const seed = 'wave-cancel-ran';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const name = loneCoordinator(id, seed);
    const [part] = await pollUntil(
      () => partsOf(name),
      (p) => p[0]?.state === 'submitted',
    );
    await pollUntil(
      () => providerBatch(part!.batch_id!),
      (b) => (b.request_counts?.completed ?? 0) >= 1,
    );
    await evaluationStub(testEnv, id).cancel(id);
    const finalized = () =>
      runInTestObject(
        id,
        (_o, state) =>
          state.storage.sql.exec<{ finalized: number }>('SELECT finalized FROM evaluation').one().finalized,
      );
    // Written before the provider's cancelled batch is read: the webhook and an erase never wait on its window.
    expect(await finalized()).toBe(1);
    // The withdrawn calls' prompts are dropped at once, though their outcomes are still awaited.
    expect(await linesOf(name)).toEqual([
      { state: 'withdrawn', line: '' },
      { state: 'withdrawn', line: '' },
    ]);
    // The cancelled batch's output still reaches the item, which stores nothing from it.
    await pollUntil(
      () => partsOf(name),
      (p) => p[0]?.state === 'delivered',
    );
    expect(await usageRows(id)).toEqual([]);
    expect((await statusRow(id))?.status).toBe('cancelled');
  });

  it('a crash between upload and submit resumes without a second upload', async () => {
    const seed = 'wave-crash';
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const name = loneCoordinator(id, seed);
    await runInDurableObject(testEnv.WAVES.get(testEnv.WAVES.idFromName(name)), (o) => {
      if (!(o instanceof TestWaveCoordinatorDO)) throw new Error('WAVES does not run TestWaveCoordinatorDO');
      o.crashAfterUpload = true;
    });
    const before = await batchApiCounts();
    await evaluationStub(testEnv, id).start(id);
    await pollUntil(
      () => partsOf(name),
      (p) => p[0]?.state === 'uploaded',
    );
    // Until its outcome is delivered, each line is kept (a part may be uploaded again), with the evaluation's
    // prompt cache key, as its synchronous calls would send.
    const lines = await linesOf(name);
    expect(lines).toHaveLength(2);
    for (const { state, line } of lines) {
      expect(state).toBe('sent');
      expect(JSON.parse(line)).toMatchObject({
        method: 'POST',
        body: { prompt_cache_key: id, model: mockModel({ seed }) },
      });
    }
    // The platform retries a crashed alarm after a backoff of seconds: the test steps it instead.
    const coordinator = testEnv.WAVES.get(testEnv.WAVES.idFromName(name));
    await pollUntil(
      async () => {
        await runInDurableObject(coordinator, (o) => o.alarm());
        return partsOf(name);
      },
      (p) => p[0]?.state === 'delivered',
    );
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const after = await batchApiCounts();
    expect(after.uploads).toBe(before.uploads + 1);
    // The crash came before any creation was tried: the resumed step creates without looking for a batch.
    expect([after.creates - before.creates, after.lists - before.lists]).toEqual([1, 0]);
    expect((await partsOf(name)).map((p) => p.state)).toEqual(['delivered']);
  });

  it('an upload whose answer was lost is found by its name and size, never uploaded twice', async () => {
    // Every upload is stored and its answer lost: only the lookup can get the wave out.
    const before = await mockBatches({ uploadLoss: 1 });
    const seed = 'wave-upload-lost';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    // Without the lookup each try uploads again: stop at the second upload rather than wait for an end.
    const seen = await pollUntil(
      async () => ({ uploads: await uploads(), row: await statusRow(id) }),
      (s) => s.uploads > before + 1 || (s.row !== null && isTerminal(s.row.status)),
      WAIT_MS,
    );
    expect(seen.uploads).toBe(before + 1);
    expect(seen.row?.status, seen.row?.error_message ?? '').toBe('succeeded');
    expect((await partsOf(loneCoordinator(id, seed))).map((p) => p.state)).toEqual(['delivered']);
  });

  it("a batch creation whose answer was lost is found by the part's metadata, never created twice", async () => {
    // Every creation makes its batch and answers a 500: only the lookup can get the wave out.
    await mockBatches({ createLoss: 1 });
    const before = await batchApiCounts();
    const seed = 'wave-create-lost';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    // Without the lookup each try creates again: stop at the second creation rather than wait for an end.
    const seen = await pollUntil(
      async () => ({ counts: await batchApiCounts(), row: await statusRow(id) }),
      (s) => s.counts.creates > before.creates + 1 || (s.row !== null && isTerminal(s.row.status)),
      WAIT_MS,
    );
    expect(seen.counts.creates).toBe(before.creates + 1);
    expect(seen.counts.lists).toBeGreaterThan(before.lists);
    expect(seen.row?.status, seen.row?.error_message ?? '').toBe('succeeded');
    expect((await partsOf(loneCoordinator(id, seed))).map((p) => p.state)).toEqual(['delivered']);
  });

  it('the custom_id map survives a restart of every object mid-wave', async () => {
    await mockBatches({ turnaround: 600 });
    const seed = 'wave-restart';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    await pollUntil(
      () => partsOf(loneCoordinator(id, seed)),
      (p) => p[0]?.state === 'submitted',
    );
    await abortAllDurableObjects();
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect(await countRows('usage', id)).toBe(row.calls_done);
  });

  it('a repeated delivery stores nothing twice and bills once', async () => {
    await mockBatches({ turnaround: 20_000 });
    const seed = 'wave-repeat';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const name = loneCoordinator(id, seed);
    const registered = await pollUntil(
      () =>
        runInTestObject(id, (_o, state) =>
          state.storage.sql
            .exec<{ call_id: string; wave: string | null }>('SELECT call_id, wave FROM pending')
            .toArray(),
        ),
      (rows) => rows.length > 0 && rows.every((r) => r.wave === name),
    );
    const results = registered.map((r) => waveReply(r.call_id));
    const stub = evaluationStub(testEnv, id);
    await stub.batchResults(id, name, results);
    await stub.batchResults(id, name, results);
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const usage = await usageRows(id);
    expect(usage.map((u) => u.call_id)).toEqual(registered.map((r) => r.call_id).sort());
    expect(usage.every((u) => u.attempts === 1)).toBe(true);
    expect(row.calls_done).toBe(registered.length);
  });

  it("a coordinator's results never push back a step already due: the wave watchdog arms only when nothing is sooner", async () => {
    await mockBatches({ turnaround: 20_000 });
    const seed = 'wave-arm-by';
    const id = await startJob({ preset: 'fastchat-pair', task: PAIRWISE, mock: { seed }, tier: 'batch' });
    const name = loneCoordinator(id, seed);
    const registered = await pollUntil(
      () =>
        runInTestObject(id, (_o, state) =>
          state.storage.sql.exec<{ call_id: string }>('SELECT call_id FROM pending').toArray(),
        ),
      (rows) => rows.length === 2,
    );
    // A step due in 30 s (as another coordinator's results or a retry leave one), then the first call's result:
    // the evaluation is not concluded, so it re-registers and arms its watchdog, which must not replace the step.
    const soon = Date.now() + 30_000;
    await runInTestObject(id, (_o, state) => state.storage.setAlarm(soon));
    const stub = evaluationStub(testEnv, id);
    await stub.batchResults(id, name, [waveReply(registered[0]!.call_id)]);
    expect(await runInTestObject(id, (_o, state) => state.storage.getAlarm())).toBe(soon);
    await stub.batchResults(id, name, [waveReply(registered[1]!.call_id)]);
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
  });

  it('a Tribunal batch at tier batch: every item in one wave, completed as today, verdicts as at standard and flex', async () => {
    const judge = (seed: string) => ({
      preset: 'fastchat-pair',
      config: { calibration: { enabled: false }, defaults: { model: mockModel({ seed }) } },
    });
    const seed = 'wave-group';
    const ids: Record<string, string> = {};
    for (const tier of ['standard', 'flex', 'batch'] as const)
      ids[tier] = await createBatchId({ ...judge(seed), tier, cache: 'off', items: items(4) });
    const done: Record<string, BatchView> = {};
    for (const tier of ['standard', 'flex', 'batch'] as const) done[tier] = await waitForBatch(ids[tier]!);
    for (const b of Object.values(done)) expect(b.counts).toMatchObject({ succeeded: 4, failed: 0 });
    const verdicts = async (batchId: string) =>
      (
        await testEnv.DB.prepare(
          `SELECT e.winner AS w FROM evaluations e WHERE e.batch_id = ? AND e.confidence IS NOT NULL ORDER BY e.batch_seq`,
        )
          .bind(batchId)
          .all<{ w: string }>()
      ).results.map((r) => r.w);
    const standard = await verdicts(ids.standard!);
    expect(standard).toHaveLength(4);
    expect(await verdicts(ids.flex!)).toEqual(standard);
    expect(await verdicts(ids.batch!)).toEqual(standard);
    const parts = await partsOf(coordinatorName(ids.batch!, 'default', mockModel({ seed })));
    expect(parts).toHaveLength(1);
  });

  it("a group's first wave waits past the quiet for every item not yet ended, then closes at once", async () => {
    const name = coordinatorName('wave-first-group', 'default', 'm');
    const stub = testEnv.WAVES.get(testEnv.WAVES.idFromName(name));
    const call = (callId: string): WaveCall[] => [
      {
        callId,
        attempt: 1,
        line: { custom_id: '', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [] } },
      },
    ];
    await runInDurableObject(stub, async (_o, state) => {
      let clock = 1_000;
      // Three items; the third ends before it registers (a cached verdict): the count is read again.
      const open = [3, 2];
      const reads: number[] = [];
      const logic = new WaveCoordinator(name, {
        sql: state.storage.sql,
        storage: state.storage,
        // Refuses every request: this test is about when waves close, not what they send.
        client: () => createBatchClient(settingsFromEnv(llmEnvOf(testEnv)), 'no-such-provider'),
        deliver: () => Promise.resolve([]),
        timings: () => ({ quietMs: 500, maxWaitMs: 10_000, pollMinMs: 50, pollMaxMs: 100 }),
        now: () => clock,
        groupSize: () => {
          reads.push(clock);
          return Promise.resolve(open.shift() ?? 2);
        },
      });
      const waves = () => state.storage.sql.exec<{ n: number }>('SELECT waves AS n FROM meta').one().n;
      logic.register('item-a', call('c1'));
      // Past the quiet with 1 of 3 registered: the first wave stays open and checks again a quiet later.
      clock += 600;
      expect(await logic.step()).toBe(1_000 + 600 + 500);
      expect(waves()).toBe(0);
      logic.register('item-b', call('c1'));
      // 2 of 3: a registration arms the alarm for the count's next read, not for a step at once.
      expect(await logic.nextDue()).toBe(1_600 + 500);
      clock += 100;
      expect(await logic.step()).not.toBeNull();
      expect(waves()).toBe(0);
      // A quiet after the last read: the count is read again (2 not ended) and both are in: it closes.
      clock += 500;
      await logic.step();
      expect(waves()).toBe(1);
      expect(reads).toEqual([1_600, 2_200]);
      // Later waves close on the quiet (or at once after a delivery), never on the count.
      logic.register('item-a', call('c2'));
      clock += 600;
      await logic.step();
      expect(waves()).toBe(2);
      expect(reads).toHaveLength(2);
    });
  });
});
