/**
 * Workerd-side helpers of the pipeline suite: inserting evaluation rows through the API's store,
 * enqueueing, waiting for a terminal status in D1 with a bounded poll, counting mock LLM requests and
 * draining Durable Object alarms between tests (alarms are not reset between tests: workers-sdk#5388).
 */
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { EvaluationSnapshot } from '../../durable-objects/evaluation.js';
import { mergeConfig, resolveMethodConfig, getMethod } from '../../src/engine/registry.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { Task } from '../../src/engine/task.js';
import type { Bindings } from '../../src/env.js';
import { mockModel } from '../../src/llm/mock/model-name.js';
import type { MockModelOptions } from '../../src/llm/mock/model-name.js';
import { evaluationStub } from '../../src/pipeline/stub.js';
import { getVerdictJson, insertEvaluation } from '../../src/store/evaluations.js';

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

/** A unique evaluation id (also used as the mock seed, so request counts are per test). */
export function newTestId(prefix = 'ev_test'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
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
}

/** Inserts a `queued` row through the API's store (as `POST /v1/evaluations` does) and returns its id. */
export async function insertJob(o: InsertOptions): Promise<{ id: string; callsPlanned: number }> {
  const id = o.id ?? newTestId();
  const model = mockModel({ seed: id, ...o.mock });
  const overrides = mergeConfig(o.config ?? {}, { defaults: { model } });
  const config = resolveMethodConfig(o.preset, overrides);
  const method = getMethod(config.method);
  const callsPlanned = plannedCalls(method, createEvaluation(method, config, o.task));
  await insertEvaluation(testEnv.DB, {
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
  });
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

/** Polls D1 (every 25 ms, at most `timeoutMs`, default 20 s) until the evaluation has ended. */
export async function waitForEnd(id: string, timeoutMs = 20_000): Promise<StatusRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await statusRow(id);
    if (row && ['succeeded', 'failed', 'cancelled'].includes(row.status)) return row;
    if (Date.now() > deadline) throw new Error(`evaluation ${id} still ${row?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Polls the object's snapshot until `predicate` holds (bounded). */
export async function waitForSnapshot(
  id: string,
  predicate: (s: EvaluationSnapshot | null) => boolean,
  timeoutMs = 20_000,
): Promise<EvaluationSnapshot | null> {
  const deadline = Date.now() + timeoutMs;
  const stub = evaluationStub(testEnv, id);
  for (;;) {
    const s = await stub.snapshot();
    if (predicate(s)) return s;
    if (Date.now() > deadline) throw new Error(`snapshot of ${id} never matched: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Chat-completion requests the mock received for this seed (the evaluation id by default). */
export async function mockRequests(seed: string): Promise<number> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  const r = await fetch(`${base}/_test/requests?seed=${encodeURIComponent(seed)}`);
  return (await r.json<{ count: number }>()).count;
}

/** The fields of a stored verdict (D1 `verdicts`, without transcript) the tests assert on. */
export interface StoredVerdict {
  method: string;
  calls: number;
  score?: number;
  votes: unknown[];
  details: unknown;
  transcript?: unknown;
}

/** The verdict stored in D1 for an evaluation, or null before one is written. */
export async function storedVerdict(id: string): Promise<StoredVerdict | null> {
  return (await getVerdictJson(testEnv.DB, id)) as StoredVerdict | null;
}

/** Count of rows in a D1 table for one evaluation. */
export async function countRows(table: 'usage' | 'transcripts' | 'verdicts', id: string): Promise<number> {
  const row = await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE evaluation_id = ?`).bind(id).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Resolves with `p`, or rejects after `ms` (a hanging stream fails the test fast instead of timing it out). */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { reject(new Error(`${what} did not finish within ${ms} ms`)); }, ms);
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

/** Polls `read` (every 20 ms, at most `timeoutMs`) until `predicate` holds; returns the last value read. */
export async function pollUntil<T>(read: () => Promise<T>, predicate: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (predicate(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Deletes every pending alarm of every evaluation object, so no work leaks into the next test. */
export async function drainAlarms(): Promise<void> {
  for (const id of await listDurableObjectIds(testEnv.EVALUATION)) {
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
    { pattern: 'If you find no issue with it, reply NO_ISSUE', reply: 'The score overlooks that the output omits a key point of the source. I suggest lowering the score by one point.' },
  ]);
}

/** A long DEBATE config: 3 iterations with a stubborn critic = 7 sequential calls. */
export const LONG_DEBATE = { preset: 'debate-summeval', config: { maxIterations: 3 } } as const;
