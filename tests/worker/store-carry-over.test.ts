/**
 * An existing database carries over to the slimmer layout (migrations/0019_usage_rollup.sql): this file writes rows as the
 * old layout's final write left them (per-call `usage` rows, D1 `transcripts`, nothing booked on the row),
 * runs the new migrations' statements that move data (their DDL already ran on this database: D1 is shared
 * by the files of a runner, so it cannot be emptied mid-run), and reads everything through the API.
 */
import type { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { api } from './api-fetch.js';
import { PAIRWISE, testEnv } from './helpers.js';

type Migrations = Parameters<typeof applyD1Migrations>[1];
const MIGRATIONS = (env as unknown as { TEST_MIGRATIONS: Migrations }).TEST_MIGRATIONS;
/** The first migration of the new layout: everything before it is the old one. */
const FIRST_NEW = '0019';

const ID = 'ev_carried_over';
const NOW = Date.now();
const CALLS = [
  { callId: 'ab/sample0', model: 'gpt-4o-mini', prompt: 100, completion: 7, cost: 0.001 },
  { callId: 'ba/sample0', model: 'gpt-4o-mini', prompt: 101, completion: 8, cost: 0.002 },
];

/** The old layout's rows of one succeeded evaluation of tenant `default`, as its final write left them. */
async function writeOldLayout(): Promise<void> {
  const db = testEnv.DB;
  const config = resolveMethodConfig('chateval-single', {});
  const verdict = { method: config.method, winner: 'A', confidence: 1, positionFlip: false, calls: 2, votes: [] };
  await db.batch([
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

/** The new migrations' data statements (those that write rows: INSERT, UPDATE, DELETE), in order. */
function carryOverStatements(): string[] {
  return MIGRATIONS.filter((m) => m.name >= FIRST_NEW)
    .flatMap((m) => m.queries)
    .map((q) => q.replace(/^(\s*--[^\n]*\n)*/, '').trim())
    .filter((q) => /^(INSERT|UPDATE|DELETE)\b/i.test(q));
}

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
    expect(report.rows).toEqual([expect.objectContaining({ group: 'chateval-single', calls: 2, promptTokens: 201 })]);
  });
});
