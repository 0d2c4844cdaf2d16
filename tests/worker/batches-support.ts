/**
 * Helpers of the batch suites (tests/worker/batches-*.test.ts): a single-call judge with its own mock
 * seed, pairwise items, submitting a batch (JSON or NDJSON), reading it, and waiting for its counts.
 */
import { WAIT_MS } from '../support/patience.js';
import { expect } from 'vitest';
import type { Batch, BatchResultLine } from '../../src/batches/schemas.js';
import type { NewBatchItem } from '../../src/batches/rows.js';
import { insertBatch } from '../../src/batches/rows.js';
import type { VerdictSummary } from '../../src/evaluations/live-events.js';
import type { PairwiseTask } from '../../src/engine/task.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockModelOptions } from '../../src/mock-llm/model-name.js';
import { writeFinal } from '../../src/ending-plan.js';
import { api, postJson } from './api-fetch.js';
import { newTestId, pollUntil, testEnv } from './helpers.js';

/** fastchat-pair with calibration off: one LLM call per item; `mock` shapes the mock's answers. */
export function singleCallJudge(seed: string, mock: MockModelOptions = {}) {
  return {
    preset: 'fastchat-pair',
    config: { calibration: { enabled: false }, defaults: { model: mockModel({ seed, ...mock }) } },
  };
}

/** A pairwise task made distinct by `i`. */
export function pairItem(i: number): PairwiseTask {
  return {
    kind: 'pairwise',
    question: `(${i}) Which answer explains recursion better?`,
    answerA: `A function that calls itself until a base case (${i}).`,
    answerB: 'Recursion is recursion.',
  };
}

/** `n` items with ids `i0`, `i1`, … and metadata `{ n: i }`. */
export function items(n: number): { id: string; task: PairwiseTask; metadata: { n: number } }[] {
  return Array.from({ length: n }, (_, i) => ({ id: `i${i}`, task: pairItem(i), metadata: { n: i } }));
}

/** POSTs a batch as JSON; returns the response. */
export function postBatch(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return postJson('/v1/batches', body, headers);
}

/**
 * POSTs a batch as NDJSON: the header line, then one item per line. Sent with an `Idempotency-Key` (a new one
 * unless `headers` names one) and, as a user's client would, sent once more with that key when the runtime drops
 * the exchange (`Network connection lost.`, seen at load 51 between the test and the Worker's entry): the key
 * makes the second send answer with the batch the first one stored, if it did. The answer is read here, so a
 * drop while it streams is covered too; any other error, and any answer, is the test's to judge. The resend is
 * noted on the console (the test's output, shown when it fails).
 */
export async function postNdjson(
  header: Record<string, unknown>,
  lines: unknown[],
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = [JSON.stringify(header), ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
  const sent = { 'Content-Type': 'application/x-ndjson', 'Idempotency-Key': newTestId('ndjson'), ...headers };
  const send = async () => {
    const r = await api('/v1/batches', { method: 'POST', headers: sent, body });
    return new Response(await r.arrayBuffer(), r);
  };
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof Error) || e.message !== DROPPED) throw e;
    // Said in the test's output (shown when it fails): a dropped exchange stays visible, resent or not.
    console.warn(
      `postNdjson: "${DROPPED}" on POST /v1/batches; sent once more with Idempotency-Key ${sent['Idempotency-Key']}`,
    );
    return send();
  }
}

/** What the runtime throws when it drops an exchange between the test and the Worker. */
const DROPPED = 'Network connection lost.';

/** POSTs a batch and returns its id (expects 202). */
export async function createBatchId(body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const r = await postBatch(body, headers);
  const json = await r.json<{ id: string }>();
  expect(r.status, JSON.stringify(json)).toBe(202);
  return json.id;
}

/** `GET /v1/batches/{id}`. */
export async function getBatch(id: string): Promise<Batch> {
  const r = await api(`/v1/batches/${id}`);
  expect(r.status).toBe(200);
  return r.json<Batch>();
}

/** Waits (polling the API every 25 ms) until the batch satisfies `predicate`, e.g. has completed. */
export function waitForBatch(
  id: string,
  predicate: (b: Batch) => boolean = (b) => b.completedAt !== null,
  timeoutMs = WAIT_MS,
): Promise<Batch> {
  return pollUntil(() => getBatch(id), predicate, timeoutMs, 25);
}

/** One page of results: the parsed lines and the next cursor. */
export async function resultsPage(
  id: string,
  query = '',
): Promise<{ lines: BatchResultLine[]; next: string | null; link: string | null; type: string | null }> {
  const r = await api(`/v1/batches/${id}/results${query}`);
  // Decoded by hand: workerd warns on .text() of a body whose type (NDJSON) it does not know as text.
  const text = new TextDecoder().decode(await r.arrayBuffer());
  expect(r.status, text).toBe(200);
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as BatchResultLine);
  return {
    lines,
    next: r.headers.get('X-Next-Cursor'),
    link: r.headers.get('Link'),
    type: r.headers.get('Content-Type'),
  };
}

/** Count of rows in a table, optionally with a WHERE clause. */
export async function countWhere(
  table: 'batches' | 'evaluations' | 'meta_evaluations',
  where = '1',
  ...binds: (string | number)[]
): Promise<number> {
  const row = await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * A stored batch of `n` queued `fastchat-pair` items, nothing claimed and no object started (the tests end
 * or start the rows themselves). Defaults: kind `batch`, tenant `test`, window 16, config `{ method: 'single' }`.
 */
export async function storedBatch(
  n: number,
  options: {
    kind?: 'batch' | 'meta_evaluation';
    tenant?: string;
    concurrency?: number;
    config?: unknown;
    /** Characters of padding appended to every item's first answer (default 0). */
    pad?: number;
    /** The database the insert goes through (default `testEnv.DB`). */
    db?: D1Database;
    /** The batch's preset (default `fastchat-pair`) and the key that created it (default none). */
    preset?: string;
    keyId?: string;
  } = {},
): Promise<{ id: string; items: string[] }> {
  const id = newTestId('ba_stored');
  const pad = 'x'.repeat(options.pad ?? 0);
  const items: NewBatchItem[] = Array.from({ length: n }, (_, i) => ({
    evaluationId: `${id}_ev${i}`,
    seq: i,
    itemId: null,
    task: { ...pairItem(i), answerA: pairItem(i).answerA + pad },
    metadata: null,
    callsPlanned: 1,
  }));
  const created = await insertBatch(options.db ?? testEnv.DB, {
    id,
    tenant: options.tenant ?? 'test',
    kind: options.kind ?? 'batch',
    method: 'single',
    preset: options.preset ?? 'fastchat-pair',
    ...(options.keyId !== undefined ? { keyId: options.keyId } : {}),
    config: options.config ?? { method: 'single' },
    webhookUrl: null,
    idempotencyKey: null,
    requestHash: null,
    concurrency: options.concurrency ?? 16,
    items,
    now: Date.now(),
  });
  expect(created).toBe(true);
  return { id, items: items.map((i) => i.evaluationId) };
}

/**
 * A queued single evaluation of `tenant` outside any batch, waiting for a slot (the admission suites' rows: no
 * object, no task); created at `createdAt` (ms since epoch, default now). Answers its id.
 */
export async function queuedSingle(tenant: string, createdAt = Date.now()): Promise<string> {
  const id = newTestId('ev_queued_single');
  await testEnv.DB.prepare(
    `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at)
     VALUES (?, ?, 'queued', 'single', '', '', ?, ?)`,
  )
    .bind(id, tenant, createdAt, createdAt)
    .run();
  return id;
}

/** A single judge's verdict with one call, for final writes the tests make themselves. */
export const ONE_CALL_VERDICT: VerdictSummary = {
  method: 'single',
  taskKind: 'pairwise',
  winner: 'A',
  votes: [],
  confidence: 1,
  positionFlip: null,
  unparsed: [],
  calls: 1,
  usage: { promptTokens: 10, completionTokens: 2, cachedPromptTokens: 0, estimated: false, costUsd: 0 },
  details: {},
};

/** The one judge call of {@link ONE_CALL_VERDICT} as the object reports it in its final write, stored at `at` (epoch ms). */
export function oneJudgeCall(at: number) {
  return {
    callId: 'judge',
    agent: 'judge',
    label: 'Judge',
    stage: 'judge',
    model: 'mock-judge',
    content: '[[A]]',
    usage: ONE_CALL_VERDICT.usage,
    parseError: null,
    attempts: 1,
    latencyMs: 1,
    at,
  };
}

/**
 * The object's final write of a succeeded item with one call ({@link ONE_CALL_VERDICT}), with everything it reports; `known` says whether the writer knows its batch (the
 * object does, unless evicted), `on` is the database it writes through.
 */
export function succeededWrite(
  id: string,
  now = Date.now(),
  known: { batchId?: string | null } = {},
  on: D1Database = testEnv.DB,
): ReturnType<typeof writeFinal> {
  return writeFinal(on, {
    ...known,
    id,
    tenant: 'test',
    status: 'succeeded',
    verdict: ONE_CALL_VERDICT,
    calls: [oneJudgeCall(now)],
    callsDone: 1,
    engineVersion: '1/single@1',
    now,
    defaultMaxRunning: 100,
  });
}
