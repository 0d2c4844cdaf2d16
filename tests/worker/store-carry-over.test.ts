/**
 * An existing database carries over to the slimmer layout (migrations/0019_usage_rollup.sql,
 * 0020_thin_evaluation_rows.sql, 0026_verdict_on_the_row.sql, 0030_task_in_the_object.sql): this file writes rows as the old layout's final
 * write left them (per-call `usage` rows, D1 `transcripts`, a `verdicts` row and a `verdict_cache` entry,
 * nothing booked on the row, the config inline), runs the new migrations' statements that move data (their DDL
 * already ran on this database: D1 is shared by the files of a runner, so it cannot be emptied mid-run; the
 * tables 0026 dropped are made again for the old rows), and reads everything through the API.
 */
import type { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { api, postJson } from './api-fetch.js';
import { createBatchId, items, singleCallJudge, waitForBatch } from './batches-support.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';

type Migrations = Parameters<typeof applyD1Migrations>[1];
const MIGRATIONS = (env as unknown as { TEST_MIGRATIONS: Migrations }).TEST_MIGRATIONS;
/** The first migration of the new layout: everything before it is the old one. */
const FIRST_NEW = '0019';

const ID = 'ev_carried_over';
/** An evaluation still queued in the old layout (its config inline, no hash), started after the migrations. */
const QUEUED = 'ev_carried_over_queued';
const NOW = Date.now();
const CALLS = [
  { callId: 'ab/sample0', model: 'gpt-4o-mini', prompt: 100, completion: 7, cost: 0.001 },
  { callId: 'ba/sample0', model: 'gpt-4o-mini', prompt: 101, completion: 8, cost: 0.002 },
];

/** The tables migration 0026 dropped, as migrations 0001 and 0008 made them. */
const OLD_TABLES = [
  `CREATE TABLE IF NOT EXISTS verdicts (evaluation_id TEXT PRIMARY KEY REFERENCES evaluations (id),
     winner TEXT CHECK (winner IN ('A', 'B', 'tie')), score REAL, confidence REAL NOT NULL, position_flip INTEGER,
     verdict TEXT NOT NULL, created_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS verdict_cache (tenant TEXT NOT NULL, key TEXT NOT NULL,
     evaluation_id TEXT NOT NULL REFERENCES evaluations (id), created_at INTEGER NOT NULL, PRIMARY KEY (tenant, key))`,
];

/** A request the verdict cache answers: one call, its key the same each time. */
const CACHED = { ...singleCallJudge('carry-cache'), task: PAIRWISE, cache: 'use' };

/** The evaluation whose verdict cache entry the old layout holds (made through the API, then laid out the old way). */
let cacheSource = '';

/**
 * Lays `cacheSource`'s verdict and cache entry out as the old layout kept them: a `verdicts` row and a
 * `verdict_cache` row, nothing on its `evaluations` row.
 */
async function oldCacheEntry(): Promise<void> {
  const created = await (await postJson('/v1/evaluations', CACHED)).json<{ id: string }>();
  cacheSource = created.id;
  expect((await waitForEnd(cacheSource)).status).toBe('succeeded');
  const db = testEnv.DB;
  // A pairwise verdict is kept by its object alone now (src/evaluations/verdict-rows.ts): the old layout had it in D1.
  const verdict = (await evaluationStub(testEnv, cacheSource).content()).verdict;
  await db.batch([
    db
      .prepare(
        `INSERT INTO verdicts (evaluation_id, winner, score, confidence, position_flip, verdict, created_at)
         SELECT e.id, e.winner, e.score, e.confidence, e.position_flip, ?, e.finished_at FROM evaluations e WHERE e.id = ?`,
      )
      .bind(verdict, cacheSource),
    db
      .prepare(
        `INSERT INTO verdict_cache (tenant, key, evaluation_id, created_at)
         SELECT tenant, cache_key, id, cache_entry_at FROM evaluations WHERE id = ? AND cache_entry_at IS NOT NULL`,
      )
      .bind(cacheSource),
    db
      .prepare(
        `UPDATE evaluations SET winner = NULL, score = NULL, confidence = NULL, position_flip = NULL,
           cache_entry_at = NULL WHERE id = ?`,
      )
      .bind(cacheSource),
    db.prepare('DELETE FROM verdict_texts WHERE evaluation_id = ?').bind(cacheSource),
  ]);
}

/** The old layout's rows of one succeeded evaluation of tenant `default`, as its final write left them. */
async function writeOldLayout(): Promise<void> {
  const db = testEnv.DB;
  await db.batch(OLD_TABLES.map((q) => db.prepare(q)));
  await oldCacheEntry();
  const config = resolveMethodConfig('chateval-single', {});
  const verdict = { method: config.method, winner: 'A', confidence: 1, positionFlip: false, calls: 2, votes: [] };
  const queuedConfig = resolveMethodConfig('chateval-single', { defaults: { model: mockModel({ seed: QUEUED }) } });
  await db.batch([
    db
      .prepare(
        `INSERT INTO evaluations (id, tenant, status, method, preset, config, task, calls_planned, created_at, updated_at)
         VALUES (?, 'default', 'queued', ?, 'chateval-single', ?, ?, 2, ?, ?)`,
      )
      .bind(QUEUED, queuedConfig.method, JSON.stringify(queuedConfig), JSON.stringify(PAIRWISE), NOW, NOW),
    db
      .prepare(
        `INSERT INTO evaluations (id, tenant, status, method, preset, config, task, calls_done, calls_planned, created_at,
           updated_at, started_at, finished_at)
         VALUES (?, 'default', 'succeeded', ?, 'chateval-single', ?, ?, 2, 2, ?, ?, ?, ?)`,
      )
      .bind(ID, config.method, JSON.stringify(config), JSON.stringify(PAIRWISE), NOW, NOW, NOW, NOW),
    db
      .prepare(
        `INSERT INTO verdicts (evaluation_id, winner, score, confidence, position_flip, verdict, created_at)
         VALUES (?, 'A', NULL, 1, 0, ?, ?)`,
      )
      .bind(ID, JSON.stringify(verdict), NOW),
    ...CALLS.flatMap((c, seq) => [
      db
        .prepare(
          `INSERT INTO transcripts (evaluation_id, seq, call_id, agent, label, stage, model, content, parse_error)
           VALUES (?, ?, ?, 'judge', 'Judge', 'judge', ?, ?, NULL)`,
        )
        .bind(ID, seq, c.callId, c.model, `old reply ${seq} [[A]]`),
      db
        .prepare(
          `INSERT INTO usage (evaluation_id, call_id, tenant, model, prompt_tokens, completion_tokens, cost_usd, created_at)
           VALUES (?, ?, 'default', ?, ?, ?, ?, ?)`,
        )
        .bind(ID, c.callId, c.model, c.prompt, c.completion, c.cost, NOW),
    ]),
  ]);
}

/**
 * The new migrations' data statements (those that write rows: INSERT, UPDATE, DELETE), in order; not those of 0034,
 * which rebuilds `evaluations` through a table of its own (tests/worker/without-rowid-carry-over.test.ts).
 */
function carryOverStatements(): string[] {
  return MIGRATIONS.filter((m) => m.name >= FIRST_NEW && !m.name.startsWith('0034'))
    .flatMap((m) => m.queries)
    .map((q) => q.replace(/^(\s*--[^\n]*\n)*/, '').trim())
    .filter((q) => /^(INSERT|UPDATE|DELETE)\b/i.test(q));
}

afterEach(drainAlarms);

beforeAll(async () => {
  await writeOldLayout();
  const statements = carryOverStatements();
  expect(statements.length).toBeGreaterThan(0);
  await testEnv.DB.batch(statements.map((q) => testEnv.DB.prepare(q)));
});

describe('a database from before the slimmer layout', () => {
  it('keeps its usage: the evaluation, its transcript and the usage report read the carried-over rows', async () => {
    const e = await (
      await api(`/v1/evaluations/${ID}`)
    ).json<{
      status: string;
      usage: { calls: number; promptTokens: number; completionTokens: number; costUsd: number };
    }>();
    expect(e.status).toBe('succeeded');
    expect(e.usage).toMatchObject({ calls: 2, promptTokens: 201, completionTokens: 15 });
    expect(e.usage.costUsd).toBeCloseTo(0.003, 12);
    const t = await (
      await api(`/v1/evaluations/${ID}/transcript`)
    ).json<{
      messages: { callId: string; usage: { promptTokens: number } }[];
    }>();
    expect(t.messages.map((m) => [m.callId, m.usage.promptTokens])).toEqual([
      ['ab/sample0', 100],
      ['ba/sample0', 101],
    ]);
    const report = await (
      await api('/v1/usage?groupBy=preset')
    ).json<{
      rows: { group: string | null; calls: number; promptTokens: number }[];
    }>();
    expect(report.rows).toContainEqual(
      expect.objectContaining({ group: 'chateval-single', calls: 2, promptTokens: 201 }),
    );
  });
});

describe('a database from before verdicts were kept on the row', () => {
  it('reads the carried-over verdict, and its cache entry still answers the same request', async () => {
    const e = await (await api(`/v1/evaluations/${cacheSource}`)).json<{ verdict: { method: string } | null }>();
    expect(e.verdict).toMatchObject({ method: 'single' });
    const listed = await (
      await api('/v1/evaluations?limit=100')
    ).json<{ data: { id: string; verdict: { winner: string | null } | null }[] }>();
    expect(listed.data.find((x) => x.id === ID)?.verdict).toMatchObject({ winner: 'A' });
    const hit = await (await postJson('/v1/evaluations', CACHED)).json<{ id: string }>();
    const row = await waitForEnd(hit.id);
    expect(row.status).toBe('succeeded');
    const served = await testEnv.DB.prepare('SELECT cache_from FROM evaluations WHERE id = ?')
      .bind(hit.id)
      .first<{ cache_from: string | null }>();
    expect(served?.cache_from).toBe(cacheSource);
  });
});

describe('an evaluation queued before configs were stored by hash', () => {
  it('runs with its inline config (no hash), read as before', async () => {
    await evaluationStub(testEnv, QUEUED).start(QUEUED);
    const row = await waitForEnd(QUEUED);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const e = await (await api(`/v1/evaluations/${QUEUED}`)).json<{ usage: { calls: number } }>();
    expect(e.usage.calls).toBe(2);
  });
});

describe('configs by hash', () => {
  it("stores a batch's resolved config once: every item keeps only its hash", async () => {
    const id = await createBatchId({ ...singleCallJudge('carry-batch'), items: items(3) });
    await waitForBatch(id);
    const { results } = await testEnv.DB.prepare(
      `SELECT e.config AS inline, e.config_hash, mc.config FROM evaluations e
       LEFT JOIN method_configs mc ON mc.hash = e.config_hash WHERE e.batch_id = ?`,
    )
      .bind(id)
      .all<{ inline: string; config_hash: string | null; config: string | null }>();
    expect(results).toHaveLength(3);
    expect(new Set(results.map((r) => r.config_hash)).size).toBe(1);
    expect(results.every((r) => r.inline === '' && /^[0-9a-f]{32}$/.test(r.config_hash ?? ''))).toBe(true);
    expect(JSON.parse(results[0]?.config ?? 'null')).toMatchObject({ method: 'single' });
    const stored = await testEnv.DB.prepare('SELECT count(*) AS n FROM method_configs WHERE hash = ?')
      .bind(results[0]?.config_hash ?? '')
      .first<{ n: number }>();
    expect(stored?.n).toBe(1);
  });
});

describe('tasks kept in the evaluation object (migration 0030)', () => {
  /** `evaluations.task`, `task_kind` and the waiting copy of evaluation `id`, as D1 holds them. */
  const d1Task = (id: string) =>
    testEnv.DB.prepare(
      `SELECT e.task AS inline, e.task_kind, (SELECT t.task FROM evaluation_tasks t WHERE t.evaluation_id = e.id) AS waiting
       FROM evaluations e WHERE e.id = ?`,
    )
      .bind(id)
      .first<{ inline: string; task_kind: string | null; waiting: string | null }>();

  it('an older row keeps its inline task, read as before, and gets its kind', async () => {
    expect(await d1Task(ID)).toEqual({ inline: JSON.stringify(PAIRWISE), task_kind: 'pairwise', waiting: null });
    const t = await (await api(`/v1/evaluations/${ID}/task`)).json<{ task: unknown }>();
    expect(t.task).toEqual(PAIRWISE);
    const e = await (await api(`/v1/evaluations/${ID}`)).json<{ taskKind: string }>();
    expect(e.taskKind).toBe('pairwise');
  });

  it('a new row keeps only the kind: the task waits in D1 until its object holds it, then is read from the object', async () => {
    const task = { ...PAIRWISE, question: `Kept in the object ${String(Date.now())}?` };
    // Queued, not started: its task waits in `evaluation_tasks`, and GET …/task reads it there.
    const { id } = await insertJob({ preset: 'chateval-single', task, tenant: 'default' });
    expect(await d1Task(id)).toEqual({ inline: '', task_kind: 'pairwise', waiting: JSON.stringify(task) });
    expect((await (await api(`/v1/evaluations/${id}/task`)).json<{ task: unknown }>()).task).toEqual(task);
    await evaluationStub(testEnv, id).start(id);
    expect((await waitForEnd(id)).status).toBe('succeeded');
    // Ended: D1 keeps no copy; the object answers, and the evaluation reads as before.
    expect(await d1Task(id)).toEqual({ inline: '', task_kind: 'pairwise', waiting: null });
    expect((await evaluationStub(testEnv, id).content()).task).toBe(JSON.stringify(task));
    expect((await (await api(`/v1/evaluations/${id}/task`)).json<{ task: unknown }>()).task).toEqual(task);
    expect((await (await api(`/v1/evaluations/${id}`)).json<{ taskKind: string }>()).taskKind).toBe('pairwise');
    // DELETE erases the object's copy too: nothing is left to read.
    expect((await api(`/v1/evaluations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await evaluationStub(testEnv, id).content()).task).toBeNull();
    expect(await d1Task(id)).toMatchObject({ inline: 'null', waiting: null });
  });

  it("a batch's items wait with their tasks in D1 and leave none there once judged", async () => {
    const id = await createBatchId({ ...singleCallJudge('carry-tasks'), items: items(3) });
    await waitForBatch(id);
    const { results } = await testEnv.DB.prepare(
      `SELECT e.task AS inline, e.task_kind, (SELECT count(*) FROM evaluation_tasks t WHERE t.evaluation_id = e.id) AS waiting
       FROM evaluations e WHERE e.batch_id = ?`,
    )
      .bind(id)
      .all<{ inline: string; task_kind: string; waiting: number }>();
    expect(results).toEqual(Array.from({ length: 3 }, () => ({ inline: '', task_kind: 'pairwise', waiting: 0 })));
  });
});

describe('verdicts kept in the evaluation object (migration 0030)', () => {
  /** How many `verdict_texts` rows D1 keeps for evaluation `id`. */
  const d1Verdicts = async (id: string) =>
    (
      await testEnv.DB.prepare('SELECT count(*) AS n FROM verdict_texts WHERE evaluation_id = ?')
        .bind(id)
        .first<{ n: number }>()
    )?.n;

  it('a pairwise verdict is kept by its object alone; GET, a batch’s results and a cache hit read it there; DELETE erases it', async () => {
    const request = { ...singleCallJudge('carry-verdict-object'), task: PAIRWISE, cache: 'use' };
    const { id } = await (await postJson('/v1/evaluations', request)).json<{ id: string }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(await d1Verdicts(id)).toBe(0);
    // Fast-started (marked running in the API's insert): its final write deleted the task's waiting copy.
    const waiting = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluation_tasks WHERE evaluation_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(waiting?.n).toBe(0);
    const held = (await evaluationStub(testEnv, id).content()).verdict;
    expect(JSON.parse(held ?? 'null')).toMatchObject({ method: 'single', taskKind: 'pairwise' });
    const e = await (await api(`/v1/evaluations/${id}`)).json<{ verdict: { winner: string } | null }>();
    expect(e.verdict).toEqual(
      expect.objectContaining({ winner: (JSON.parse(held ?? '{}') as { winner: string }).winner }),
    );
    // The cache hit of the same request is served from the source's object.
    const hit = await (await postJson('/v1/evaluations', request)).json<{ id: string }>();
    expect((await waitForEnd(hit.id)).status).toBe('succeeded');
    const served = await (
      await api(`/v1/evaluations/${hit.id}`)
    ).json<{ verdict: { winner: string } | null; cache: unknown }>();
    expect(served.verdict?.winner).toBe(e.verdict?.winner);
    expect(served.cache).toMatchObject({ from: id });

    const batch = await createBatchId({ ...singleCallJudge('carry-verdict-batch'), items: items(3) });
    await waitForBatch(batch);
    const text = new TextDecoder().decode(await (await api(`/v1/batches/${batch}/results`)).arrayBuffer());
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { evaluationId: string; verdict: { winner: string } | null });
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.verdict !== null && ['A', 'B', 'tie'].includes(l.verdict.winner))).toBe(true);
    for (const l of lines) expect(await d1Verdicts(l.evaluationId)).toBe(0);

    expect((await api(`/v1/evaluations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await evaluationStub(testEnv, id).content()).verdict).toBeNull();
  });

  it('a verdict D1 keeps (a row written before) is read there first', async () => {
    const { id } = await (
      await postJson('/v1/evaluations', { ...singleCallJudge('carry-verdict-d1'), task: PAIRWISE })
    ).json<{
      id: string;
    }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const held = JSON.parse((await evaluationStub(testEnv, id).content()).verdict ?? '{}') as Record<string, unknown>;
    // As the layout before kept it: in `verdict_texts` (here told apart from the object's by its confidence).
    await testEnv.DB.prepare('INSERT INTO verdict_texts (evaluation_id, verdict) VALUES (?, ?)')
      .bind(id, JSON.stringify({ ...held, confidence: 0.125 }))
      .run();
    const e = await (await api(`/v1/evaluations/${id}`)).json<{ verdict: { confidence: number } | null }>();
    expect(e.verdict?.confidence).toBe(0.125);
  });
});
