/**
 * Workerd-side helpers of the pipeline suite: inserting evaluation rows through the API's store,
 * waiting for a terminal status in D1 (a poll that slows as it waits), counting mock LLM requests, driving the test
 * subclass of the Durable Object ({@link runInTestObject}), checking that no alarm is pending, and
 * draining alarms between tests (alarms are not reset between tests: workers-sdk#5388).
 */
import { waitFor } from '../support/backoff-wait.js';
import { TEST_MS, WAIT_MS } from '../support/patience.js';
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, expect } from 'vitest';
import { mergeConfig, resolveMethodConfig, getMethod } from '../../src/engine/registry.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { Task } from '../../src/engine/task.js';
import type { Bindings } from '../../src/config/bindings.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { FlexFallback, Tier } from '../../src/llm/tiers.js';
import type { MockModelOptions } from '../../src/mock-llm/model-name.js';
import type { EvaluationSnapshot } from '../../src/evaluations/rpc.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { getVerdictJson } from '../../src/evaluations/rows.js';
import { insertEvaluation } from '../../src/evaluations/insert-rows.js';
import { objectVerdictJson } from '../../src/evaluations/content.js';
import { listTranscript } from '../../src/evaluations/transcript-rows.js';
import type { TranscriptRow } from '../../src/evaluations/transcript-rows.js';
import { TestEvaluationDO } from './test-evaluation-do.js';

/** The test bindings: the Worker's plus the mock's URL. */
export const testEnv = env as unknown as Bindings & { TEST_MOCK_URL: string };

export const PAIRWISE: Task = {
  kind: 'pairwise',
  question: 'What is the capital of France?',
  answerA: 'Paris is the capital of France.',
  answerB: 'The capital of France is Lyon.',
};

export const POINTWISE: Task = {
  kind: 'pointwise',
  source: 'The city council approved a new budget on Tuesday, increasing funds for parks and libraries by ten percent.',
  output: 'The council raised park and library funding by 10% in its new budget.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

let counter = 0;
/** This runtime's mark in its ids: the project runs two workerds, which share the mock LLM's request counts. */
const RUNTIME_TAG = crypto.randomUUID().slice(0, 6);

/** A unique evaluation id (also used as the mock seed, so request counts are per test). */
export function newTestId(prefix = 'ev_test'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${RUNTIME_TAG}${counter}`;
}

/** Options of {@link insertJob}. */
export interface InsertOptions {
  preset?: string;
  config?: Record<string, unknown>;
  task: Task;
  /** Mock directives for every agent's model (`seed` defaults to the evaluation id). */
  mock?: MockModelOptions;
  id?: string;
  tenant?: string;
  /** The service tier (default `standard`) and what a flex refusal leads to. */
  tier?: Tier;
  flexFallback?: FlexFallback;
}

/** Inserts a `queued` row through the API's store (as `POST /v1/evaluations` does) and returns its id. */
export async function insertJob(o: InsertOptions): Promise<{ id: string; callsPlanned: number }> {
  const id = o.id ?? newTestId();
  const model = mockModel({ seed: id, ...o.mock });
  const overrides = mergeConfig(o.config ?? {}, { defaults: { model } });
  const config = resolveMethodConfig(o.preset, overrides);
  const method = getMethod(config.method);
  const callsPlanned = plannedCalls(method, createEvaluation(method, config, o.task));
  await insertEvaluation(
    testEnv.DB,
    {
      id,
      tenant: o.tenant ?? 'test',
      method: config.method,
      preset: o.preset ?? null,
      config,
      task: o.task,
      metadata: null,
      idempotencyKey: null,
      requestHash: null,
      metaId: null,
      callsPlanned,
      now: Date.now(),
      ...(o.tier ? { tier: o.tier } : {}),
      ...(o.flexFallback ? { flexFallback: o.flexFallback } : {}),
    },
    JSON.stringify(o.task),
  );
  return { id, callsPlanned };
}

/** Row of `evaluations` the tests assert on. */
export interface StatusRow {
  status: string;
  calls_done: number;
  calls_planned: number;
  error_code: string | null;
  error_message: string | null;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export async function statusRow(id: string): Promise<StatusRow | null> {
  return testEnv.DB.prepare(
    'SELECT status, calls_done, calls_planned, error_code, error_message, updated_at, started_at, finished_at FROM evaluations WHERE id = ?',
  )
    .bind(id)
    .first<StatusRow>();
}

/**
 * Waits (polling D1 every 25 ms at first, then less often: ../support/backoff-wait.ts; at most `timeoutMs`, default
 * {@link WAIT_MS}) until the evaluation has ended.
 */
export async function waitForEnd(id: string, timeoutMs = WAIT_MS): Promise<StatusRow> {
  return waitFor(
    async () => {
      const row = await statusRow(id);
      if (!row || !isTerminal(row.status)) throw new Error(`evaluation ${id} still ${row?.status ?? 'missing'}`);
      return row;
    },
    { timeout: timeoutMs, interval: 25 },
  );
}

/** Waits (polling every 10 ms, at most `timeoutMs`) until the object's snapshot satisfies `predicate`. */
export async function waitForSnapshot(
  id: string,
  predicate: (s: EvaluationSnapshot | null) => boolean,
  timeoutMs = WAIT_MS,
): Promise<EvaluationSnapshot | null> {
  const stub = evaluationStub(testEnv, id);
  return pollUntil(() => stub.snapshot(), predicate, timeoutMs, 10);
}

/**
 * Makes the mock send its replies to this seed's requests in groups of `size`: each held until `size` are
 * ready, then all at once (the results of a wave of `size` parallel calls arrive together). `Infinity`: every
 * reply is held until {@link releaseReplies}. A new size keeps the replies held: `1` sends them and holds no more.
 */
export async function replyInGroups(seed: string, size: number): Promise<void> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/groups?seed=${encodeURIComponent(seed)}&size=${size}`, { method: 'PUT' });
  if (!r.ok) throw new Error(`mock groups ${seed}: ${r.status}`);
}

/** The replies to this seed's requests the mock holds now (ready, waiting for their group: {@link replyInGroups}). */
export async function heldReplies(seed: string): Promise<number> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/groups?seed=${encodeURIComponent(seed)}`);
  return (await r.json<{ held: number }>()).held;
}

/** Sends the replies to this seed's requests the mock holds now, all in the same tick; answers how many. */
export async function releaseReplies(seed: string): Promise<number> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/groups?seed=${encodeURIComponent(seed)}`, { method: 'POST' });
  if (!r.ok) throw new Error(`mock groups ${seed}: ${r.status}`);
  return (await r.json<{ released: number }>()).released;
}

/**
 * Chat-completion requests the mock received for this seed (the evaluation id by default); `responses`: its `POST
 * /v1/responses` requests. A re-send of an attempt the mock answered cleanly (a loaded machine's timeout) is left
 * out; a call sent afresh is counted (./mock-llm-server.ts).
 */
export async function mockRequests(seed: string, route: 'chat' | 'responses' = 'chat'): Promise<number> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const only = route === 'responses' ? '&route=responses' : '';
  const r = await fetch(`${base}/_test/requests?seed=${encodeURIComponent(seed)}${only}`);
  return (await r.json<{ count: number }>()).count;
}

/** Each chat-completion request the mock received for this seed: its call id and retry count, in order, re-sends included. */
export async function mockAttempts(seed: string): Promise<({ call: string; retries: number } | null)[]> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/attempts?seed=${encodeURIComponent(seed)}`);
  return (await r.json<{ attempts: ({ call: string; retries: number } | null)[] }>()).attempts;
}

/** The prompts the mock received for this seed, in order (re-sends left out, as {@link mockRequests}): each request's message contents joined by a blank line. */
export async function mockPrompts(seed: string): Promise<string[]> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/prompts?seed=${encodeURIComponent(seed)}`);
  return (await r.json<{ prompts: string[] }>()).prompts;
}

/**
 * `DB` (this project keeps everything there: `D1_SHARDS` 0) recording the SQL prepared on it: `statements`
 * every one in order, `batches` the statements of each `batch()` call (those prepared since the previous batch).
 */
export function recordingDb(): { db: D1Database; statements: string[]; batches: string[][] } {
  const statements: string[] = [];
  const batches: string[][] = [];
  let batched = 0;
  const db = new Proxy(testEnv.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          statements.push(sql);
          return target.prepare(sql);
        };
      if (key === 'batch')
        return (list: D1PreparedStatement[]) => {
          batches.push(statements.slice(batched));
          batched = statements.length;
          return target.batch(list);
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, statements, batches };
}

/** The engine version D1 recorded for an evaluation (migrations/0002_engine_version.sql), or null. */
export async function engineVersionIn(id: string): Promise<string | null> {
  const row = await testEnv.DB.prepare('SELECT engine_version FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ engine_version: string | null }>();
  return row?.engine_version ?? null;
}

/** The fields of a stored verdict (on its D1 row, without transcript) the tests assert on. */
export interface StoredVerdict {
  method: string;
  calls: number;
  usage: { promptTokens: number; completionTokens: number };
  score?: number;
  votes: unknown[];
  details: unknown;
  transcript?: unknown;
}

/**
 * The verdict stored for an evaluation, where it is kept: D1 (src/evaluations/verdict-rows.ts), else its object;
 * null before one is written.
 */
export async function storedVerdict(id: string): Promise<StoredVerdict | null> {
  return ((await getVerdictJson(testEnv.DB, id)) ?? (await objectVerdictJson(testEnv, id))) as StoredVerdict | null;
}

/** An evaluation's stored transcript, where it is kept: its object, or D1 for one that ended before the object kept it. */
export async function storedTranscript(id: string): Promise<TranscriptRow[]> {
  const inD1 = await listTranscript(testEnv.DB, id);
  return inD1.length > 0 ? inD1 : ((await evaluationStub(testEnv, id).transcript()) ?? []);
}

/**
 * Count of one evaluation's stored rows of a kind: its verdict (1 when D1 or its object keeps one), its transcript's replies (kept by its
 * object; an evaluation that ended before that has them in D1's `transcripts`), its billed calls (`usage`:
 * the calls its final write booked on its D1 row, src/tenants/usage-rollup.ts; 0 before).
 */
export async function countRows(table: 'usage' | 'transcripts' | 'verdicts', id: string): Promise<number> {
  if (table === 'usage') {
    const booked = await testEnv.DB.prepare('SELECT billed_calls AS n FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ n: number | null }>();
    return booked?.n ?? 0;
  }
  if (table === 'verdicts') {
    const v = await testEnv.DB.prepare('SELECT count(*) AS n FROM verdict_texts WHERE evaluation_id = ?')
      .bind(id)
      .first<{ n: number }>();
    // D1 keeps a copy only where its queries read it; else the object alone holds it.
    if ((v?.n ?? 0) > 0) return v?.n ?? 0;
    return (await evaluationStub(testEnv, id).content()).verdict === null ? 0 : 1;
  }
  const row = await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE evaluation_id = ?`)
    .bind(id)
    .first<{ n: number }>();
  return (row?.n ?? 0) + ((await evaluationStub(testEnv, id).transcript())?.length ?? 0);
}

/** One billed call's detail as the evaluation's object keeps it (with its transcript), by call id. */
export interface BilledCallRow {
  call_id: string;
  model: string;
  tier: string;
  cost_usd: number;
  attempts: number;
  /** JSON of the failed attempts, or null (as the old per-call `usage` rows had it). */
  failed_attempts: string | null;
}

/** The evaluation's billed calls from its object (empty before its final write or after an erase), by call id. */
export async function billedCalls(id: string): Promise<BilledCallRow[]> {
  const rows = (await evaluationStub(testEnv, id).transcript()) ?? [];
  return rows
    .flatMap((r) =>
      r.billing
        ? [
            {
              call_id: r.callId,
              model: r.model,
              tier: r.billing.tier,
              cost_usd: r.usage.costUsd,
              attempts: r.billing.attempts,
              failed_attempts: r.billing.failedAttempts ? JSON.stringify(r.billing.failedAttempts) : null,
            },
          ]
        : [],
    )
    .sort((a, b) => a.call_id.localeCompare(b.call_id));
}

/** The calls booked for a batch's items (the sum of their `billed_calls`). */
export async function batchBilledCalls(batchId: string): Promise<number> {
  const r = await testEnv.DB.prepare('SELECT COALESCE(SUM(billed_calls), 0) AS n FROM evaluations WHERE batch_id = ?')
    .bind(batchId)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

/** Resolves with `p`, or rejects after `ms` (a hanging stream fails the test fast instead of timing it out). */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One parsed SSE event (comments such as `: ping` are skipped). */
export interface SseEvent {
  type: string;
  data: Record<string, unknown>;
}

/** Parses an SSE body into its events, skipping comment-only blocks. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((b) => /^event: /m.test(b))
    .map((block) => {
      const type = /^event: (.+)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      return { type, data };
    });
}

/**
 * Waits until `predicate` holds for a value `read` returns (every `intervalMs` at first, default 20, then less
 * often as the wait goes on: ../support/backoff-wait.ts; at most `timeoutMs`, default {@link WAIT_MS}) and returns
 * that value; fails with the last value read otherwise.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  predicate: (v: T) => boolean,
  timeoutMs = WAIT_MS,
  intervalMs = 20,
): Promise<T> {
  return waitFor(
    async () => {
      const v = await read();
      if (!predicate(v)) throw new Error(`condition not met; last value: ${JSON.stringify(v)}`);
      return v;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}

/**
 * Runs `fn` inside the evaluation's object with the instance typed as {@link TestEvaluationDO} (the
 * class tests/vitest.worker.config.ts binds to `EVALUATION`), so tests use its hooks, never casts.
 */
export async function runInTestObject<R>(
  id: string,
  fn: (o: TestEvaluationDO, state: DurableObjectState) => R | Promise<R>,
): Promise<R> {
  return runInDurableObject(evaluationStub(testEnv, id), (o, state) => {
    if (!(o instanceof TestEvaluationDO))
      throw new Error('EVALUATION does not run TestEvaluationDO: see tests/vitest.worker.config.ts');
    return fn(o, state);
  });
}

/** The evaluation object's pending alarm (epoch ms), or null: with nothing in flight, null means nothing more will happen. */
export async function pendingAlarm(id: string): Promise<number | null> {
  return runInDurableObject(evaluationStub(testEnv, id), (_o, state) => state.storage.getAlarm());
}

/** Waits (up to `WAIT_MS`) for the evaluation object to hold no alarm, and expects none: nothing more will happen. */
export async function expectNoAlarmLeft(id: string): Promise<void> {
  expect(
    await pollUntil(
      () => pendingAlarm(id),
      (a) => a === null,
      WAIT_MS,
    ),
  ).toBeNull();
}

/**
 * Evaluation objects of earlier test files: the files of a runner share its workerd, whose object list keeps every
 * object it ever made, even after tests/worker/fresh-storage.ts emptied them (no storage, no alarm).
 */
const earlierFiles = new Set<string>();

/**
 * The namespaces, besides evaluations ({@link drainAlarms}), whose objects arm alarms of their own: a trace's quiet
 * period, a lane's retry, a coordinator's next poll, a gate's lease reaper.
 */
const ARMING = ['TRACE', 'WEBHOOK_LANE', 'WAVES', 'PROVIDER_GATE'] as const;

/** Namespace `ns` of {@link ARMING}, untyped by its class: only its alarm is touched. */
const arming = (ns: (typeof ARMING)[number]): DurableObjectNamespace =>
  testEnv[ns] as unknown as DurableObjectNamespace;

/** Objects of {@link ARMING} made by earlier files (or cleared already), as `namespace:id`. */
const earlierArming = new Set<string>();

/** Called by tests/worker/fresh-storage.ts once storage is empty: the objects listed now are not this file's. */
export async function forgetEarlierFiles(): Promise<void> {
  for (const id of await listDurableObjectIds(testEnv.EVALUATION)) earlierFiles.add(id.toString());
  for (const ns of ARMING)
    for (const id of await listDurableObjectIds(arming(ns))) earlierArming.add(`${ns}:${id.toString()}`);
}

/**
 * Deletes the alarm of every object of {@link ARMING} this file made (tests/worker/fresh-storage.ts, after its last
 * test). The next file's reset empties each object but workerd's alarm manager keeps its alarm: it fired on the
 * emptied object, and workerd logged "SQLite alarm handler canceled with requestScheduledAlarm".
 */
export async function clearFileAlarms(): Promise<void> {
  for (const ns of ARMING)
    for (const id of await listDurableObjectIds(arming(ns))) {
      const key = `${ns}:${id.toString()}`;
      if (earlierArming.has(key)) continue;
      earlierArming.add(key);
      await runInDurableObject(arming(ns).get(id), (_o, state) => state.storage.deleteAlarm());
    }
}

/** Deletes every pending alarm of every evaluation object of this file, so no work leaks into the next test. */
export async function drainAlarms(): Promise<void> {
  for (const id of await listDurableObjectIds(testEnv.EVALUATION)) {
    if (earlierFiles.has(id.toString())) continue;
    const stub = testEnv.EVALUATION.get(id);
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.deleteAlarm();
    });
  }
}

/** Sets the mock's scripted-mode rules of namespace `ns` (requests opt in with `ns` in the model name). */
export async function setMockScript(ns: string, rules: { pattern: string; reply: string }[]): Promise<void> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_mock/scripts/${encodeURIComponent(ns)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  if (!r.ok) throw new Error(`mock script ${ns}: ${r.status} ${await r.text()}`);
}

/** A critic that never says NO_ISSUE: DEBATE then runs all `maxIterations` rounds. */
export async function stubbornCritic(ns: string): Promise<void> {
  await setMockScript(ns, [
    {
      pattern: 'If you find no issue with it, reply NO_ISSUE',
      reply:
        'The score overlooks that the output omits a key point of the source. I suggest lowering the score by one point.',
    },
  ]);
}

/**
 * A long DEBATE config: the paper's loop (the Scorer re-scores after every critique), 3 iterations with a
 * stubborn critic = 7 sequential calls, `score0`, `critic1`, `score1`, … `score3`.
 */
export const LONG_DEBATE = { preset: 'debate-summeval', config: { maxIterations: 3, flow: 'paper' } } as const;

/**
 * Holds the mock's Batch API for the calling file, from its first test to its last: its settings and upload
 * count are the mock's, shared by the project's two runtimes. Waits (up to {@link TEST_MS}) while another file holds it.
 */
export function holdMockBatchApi(): void {
  const lock = `${testEnv.TEST_MOCK_URL.replace(/\/v1$/, '')}/_test/batch-lock`;
  beforeAll(async () => {
    await (await fetch(lock, { method: 'POST' })).arrayBuffer();
  }, TEST_MS);
  afterAll(async () => {
    await (await fetch(lock, { method: 'DELETE' })).arrayBuffer();
  });
}
