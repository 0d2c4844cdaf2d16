/**
 * A batch-tier run's pass still going when its eval is deleted: the calls it reaches afterwards store no
 * `eval_run_wave_calls` row (the request holds the item's content the delete erased), and none of its calls
 * stays with a wave coordinator, whether the delete came before the pass registered them or while it did (the
 * delete's withdraw then read no coordinator on the run). The pass is driven by hand on a run stored without a
 * queue message, so the window is not left to timing.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { RunRecord } from '../../src/evals/run-rows.js';
import { insertRun } from '../../src/evals/run-rows.js';
import type { Waiting } from '../../src/evals/run-waves.js';
import { nothingWaiting, registerWaves, waveLlm, waveSettings } from '../../src/evals/run-waves.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { testEnv } from './helpers.js';
import { sdk } from './openai-support.js';

const client = sdk();
const env = testEnv as unknown as Bindings;
const MODEL = mockModel({ seed: 'evals-delete-waves' });

/** An eval made through the API and a batch-tier run of it stored by hand (no pass starts on its own). */
async function evalAndRun(): Promise<{ evalId: string; run: RunRecord }> {
  const ev = await client.evals.create({
    name: 'delete-waves',
    data_source_config: { type: 'custom', item_schema: { type: 'object', properties: {} } },
    testing_criteria: [{ type: 'string_check', name: 'x', operation: 'eq', input: 'a', reference: 'a' }],
  });
  const row = await testEnv.DB.prepare('SELECT tenant FROM evals WHERE id = ?').bind(ev.id).first<{ tenant: string }>();
  const run: RunRecord = {
    id: `evalrun_${crypto.randomUUID().replaceAll('-', '')}`,
    tenant: row?.tenant ?? '',
    evalId: ev.id,
    name: 'by hand',
    status: 'in_progress',
    dataSource: {},
    model: MODEL,
    metadata: null,
    itemsTotal: 1,
    error: null,
    createdAt: Date.now(),
    keyId: null,
    leaseUntil: null,
    serviceTier: 'batch',
    cacheMode: 'bypass',
    wakeAt: null,
    certify: null,
  };
  expect(await insertRun(testEnv.DB, run)).toBe(true);
  return { evalId: ev.id, run };
}

const REQUEST: LlmCallRequest = {
  id: 'sample',
  agent: 'sampler',
  label: 'sampler',
  stage: 'sample',
  model: MODEL,
  messages: [{ role: 'user', content: 'the customer content' }],
  temperature: 0,
  maxTokens: 16,
  parser: { type: 'leading-number', min: 1, max: 5 },
};

/** Item 0's call as the pass reaches it: placed in its wave (and, for a live run, stored). */
async function reach(run: RunRecord): Promise<Waiting> {
  const waiting = nothingWaiting();
  const sync = () => Promise.reject(new Error('no synchronous call here'));
  await waveLlm(testEnv.DB, run, 0, waveSettings(env), waiting, sync)(REQUEST);
  return waiting;
}

async function waveRows(runId: string): Promise<number> {
  const r = await testEnv.DB.prepare('SELECT count(*) AS n FROM eval_run_wave_calls WHERE run_id = ?')
    .bind(runId)
    .first<{ n: number }>();
  return r?.n ?? -1;
}

/** The run's calls a coordinator still holds to send (not withdrawn). */
function heldCalls(coordinator: string, runId: string): Promise<number> {
  const stub = testEnv.WAVES.get(testEnv.WAVES.idFromName(coordinator));
  return runInDurableObject(stub, (_o, state) => {
    const has = state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'calls'").toArray().length > 0;
    if (!has) return 0;
    return state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM calls WHERE evaluation_id = ? AND state != 'withdrawn'", runId)
      .one().n;
  });
}

describe('a batch-tier pass going on after its eval was deleted', () => {
  it('stores no wave row and registers nothing for a call reached after the delete', async () => {
    const { evalId, run } = await evalAndRun();
    await client.evals.delete(evalId);
    const waiting = await reach(run);
    expect(await waveRows(run.id)).toBe(0);
    const [placed] = waiting.calls;
    expect(placed).toBeDefined();
    await registerWaves(env, testEnv.DB, run, waiting.calls);
    expect(await heldCalls(placed?.coordinator ?? '', run.id)).toBe(0);
  });

  it('withdraws what it registered when the delete lands while it registers', async () => {
    const { evalId, run } = await evalAndRun();
    const waiting = await reach(run);
    expect(await waveRows(run.id)).toBe(1);
    const [placed] = waiting.calls;
    const coordinator = placed?.coordinator ?? '';
    // The delete commits (and withdraws what the run notes) just after the coordinator took the calls.
    const racing = {
      ...env,
      WAVES: {
        idFromName: (n: string) => testEnv.WAVES.idFromName(n),
        get: (id: DurableObjectId) => {
          const real = testEnv.WAVES.get(id);
          return {
            register: async (...a: Parameters<typeof real.register>) => {
              await real.register(...a);
              await client.evals.delete(evalId);
            },
            withdraw: (...a: Parameters<typeof real.withdraw>) => real.withdraw(...a),
          };
        },
      },
    } as unknown as Bindings;
    await registerWaves(racing, testEnv.DB, run, waiting.calls);
    expect(await heldCalls(coordinator, run.id)).toBe(0);
    expect(await waveRows(run.id)).toBe(0);
  });
});
