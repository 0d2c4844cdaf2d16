/**
 * A stored LLM result is one statement in the evaluation's object: its `results` row, with no update of the
 * `evaluation` row's `updated_at` beside it (with debates in flight every result's statements are on the one
 * thread the other debates' results wait for). A reload still shows the latest result's time as the
 * evaluation's `updatedAt`, as when each result bumped it.
 */
import { describe, expect, it } from 'vitest';
import { EvaluationInstance } from '../../durable-objects/evaluation/instance.js';
import { EvaluationStore } from '../../durable-objects/evaluation/storage.js';
import { Streams } from '../../durable-objects/evaluation/streams.js';
import type { MetaRow } from '../../durable-objects/evaluation/stored-rows.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { engineVersionOf } from '../../src/engine/version.js';
import { newTestId, runInTestObject, testEnv } from './helpers.js';

/** A running `fastchat-pair` evaluation's row as the start writes it, started at `at`. */
function metaRow(id: string, at: number): MetaRow {
  const config = resolveMethodConfig('fastchat-pair', {});
  return {
    id,
    tenant: 'default',
    method: config.method,
    config: JSON.stringify(config),
    task: JSON.stringify({ kind: 'pairwise', question: 'Q?', answerA: 'A.', answerB: 'B.' }),
    status: 'running',
    calls_planned: 2,
    started_at: at,
    updated_at: at,
    error: null,
    finalized: 0,
    alarm_failures: 0,
    finalize_failures: 0,
    engine_version: engineVersionOf(getMethod(config.method)),
    verdict: null,
    tier: 'standard',
    flex_fallback: 'standard',
    wave_group: null,
    rubric: null,
  };
}

/** A stored reply to `callId`, finished at `at`. */
function result(callId: string, at: number) {
  return {
    callId,
    agent: 'judge',
    label: 'Judge',
    stage: 'judge',
    result: {
      id: callId,
      ok: true as const,
      content: '[[A]]',
      model: 'mock-judge',
      usage: { promptTokens: 10, completionTokens: 2, cachedPromptTokens: 0, estimated: false, costUsd: 0 },
    },
    attempts: 1,
    startedAt: at - 250,
    finishedAt: at,
    latencyMs: 250,
  };
}

/** `storage` as the store uses it, with every SQL statement it runs recorded in `seen`. */
function recorded(storage: DurableObjectStorage): { recording: DurableObjectStorage; seen: string[] } {
  const seen: string[] = [];
  const sql = storage.sql;
  const recording = new Proxy(storage, {
    get(target, key) {
      if (key === 'sql')
        return {
          exec: (query: string, ...bindings: unknown[]) => {
            seen.push(query);
            return sql.exec(query, ...bindings);
          },
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { recording, seen };
}

describe("the object's write of a result", () => {
  it('is one statement, and a reload shows the latest result as the last update', async () => {
    const id = newTestId('ev_result_write');
    const out = await runInTestObject(id, (_o, state) => {
      const sql = state.storage.sql;
      const { recording, seen } = recorded(state.storage);
      const store = new EvaluationStore(recording);
      store.insertMeta(metaRow(id, 1_000));
      seen.length = 0;
      const stored = store.insertResult(result('c1', 2_000));
      const statements = [...seen];
      const again = store.insertResult(result('c1', 2_500));
      store.insertResult(result('c2', 3_000));
      const rowUpdatedAt = sql.exec<{ u: number }>('SELECT updated_at AS u FROM evaluation').one().u;
      // A fresh instance over the same storage (after an eviction) loads the row and the results.
      const instance = new EvaluationInstance(state, testEnv, new EvaluationStore(state.storage), new Streams(state), {
        engineVersion: engineVersionOf,
      });
      const loaded = instance.load();
      return {
        stored,
        again,
        statements,
        rowUpdatedAt,
        loaded: loaded && { ...loaded.meta, callsDone: loaded.callsDone },
      };
    });
    expect(out.stored).toBe(true);
    expect(out.again).toBe(false);
    expect(out.statements).toHaveLength(1);
    expect(out.statements[0]).toMatch(/^INSERT OR IGNORE INTO results/);
    expect(out.rowUpdatedAt).toBe(1_000);
    expect(out.loaded).toMatchObject({ status: 'running', updated_at: 3_000, callsDone: 2 });
  });
});

describe("the final write's calls", () => {
  it('come from memory in the object that stored them all, as the table gives them, and from the table after a reload', async () => {
    const id = newTestId('ev_calls_memory');
    const out = await runInTestObject(id, (_o, state) => {
      const sql = state.storage.sql;
      // A new object: the constructor made the schema; drop it so the store below makes it, as a new object's does.
      for (const t of ['schema_version', 'evaluation', 'results', 'pending']) sql.exec(`DROP TABLE IF EXISTS ${t}`);
      const { recording, seen } = recorded(state.storage);
      const store = new EvaluationStore(recording);
      store.insertMeta(metaRow(id, 1_000));
      store.insertResult(result('c1', 2_000));
      store.insertResult({
        ...result('c2', 2_500),
        result: { id: 'c2', ok: false as const, error: { code: 'timeout', message: 'slow' }, attempts: 2 },
        attempts: 2,
      });
      store.insertResult(result('c3', 3_000));
      // A repeat stores nothing, here or in memory.
      store.insertResult(result('c1', 3_500));
      seen.length = 0;
      const fromMemory = store.storedCalls(new Map([['c3', 'no verdict']]));
      const statements = [...seen];
      const fromTable = new EvaluationStore(state.storage).storedCalls(new Map([['c3', 'no verdict']]));
      return { fromMemory, fromTable, statements };
    });
    expect(out.statements).toEqual([]);
    expect(out.fromMemory.map((c) => c.callId)).toEqual(['c1', 'c3']);
    expect(out.fromMemory).toEqual(out.fromTable);
    expect(out.fromMemory[1]).toMatchObject({ parseError: 'no verdict', at: 3_000, latencyMs: 250, attempts: 1 });
  });
});
