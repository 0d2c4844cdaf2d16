import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/engine/task.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE, POINTWISE, testEnv } from './helpers.js';
import type { MetaEvaluation } from '../../src/meta-evaluations/schemas.js';

afterEach(drainAlarms);

const pair = (i: number): Task =>
  PAIRWISE.kind === 'pairwise' ? { ...PAIRWISE, question: `${PAIRWISE.question} (${i})` } : PAIRWISE;
const judge = (seed: string) => ({ preset: 'chateval-single', config: { defaults: { model: mockModel({ seed }) } } });

async function waitForReport(id: string, timeoutMs = WAIT_MS): Promise<MetaEvaluation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = await (await api(`/v1/meta-evaluations/${id}`)).json<MetaEvaluation>();
    if (m.report) return m;
    if (Date.now() > deadline) throw new Error(`no report: ${JSON.stringify(m.progress)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('meta-evaluations', () => {
  it('POST 3 labelled pairwise items → 202; GET shows progress, then the stored agreement report', async () => {
    const r = await postJson('/v1/meta-evaluations', {
      ...judge('meta-1'),
      items: [
        { id: 'q1', task: pair(1), human: 'A' },
        { id: 'q2', task: pair(2), human: 'B' },
        { id: 'q3', task: pair(3), human: 'tie' },
      ],
    });
    expect(r.status).toBe(202);
    const accepted = await r.json<{ id: string; status: string; itemsTotal: number; links: { self: string } }>();
    expect(accepted).toMatchObject({
      status: 'running',
      itemsTotal: 3,
      links: { self: `/v1/meta-evaluations/${accepted.id}` },
    });

    const first = await (await api(`/v1/meta-evaluations/${accepted.id}`)).json<MetaEvaluation>();
    expect(first.progress.total).toBe(3);
    expect(first.items.map((i) => i.itemId)).toEqual(['q1', 'q2', 'q3']);
    expect(first.items.map((i) => i.human)).toEqual(['A', 'B', 'tie']);

    const done = await waitForReport(accepted.id);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toMatchObject({ total: 3, ended: 3, succeeded: 3 });
    expect(done.report?.kind).toBe('pairwise');
    expect(done.report?.n).toBe(3);
    expect(done.report?.nScored).toBe(3);
    expect(done.reportMarkdown).toContain('|');
    // Each item's judge answer is its verdict's (the viewer plots it against the human label).
    for (const item of done.items) {
      const verdict = (
        await (await api(`/v1/evaluations/${item.evaluationId}`)).json<{ verdict: { winner: string } }>()
      ).verdict;
      expect([item.winner, item.score]).toEqual([verdict.winner, null]);
    }
    const stored = await testEnv.DB.prepare('SELECT status, report FROM meta_evaluations WHERE id = ?')
      .bind(accepted.id)
      .first<{ status: string; report: string }>();
    expect(stored?.status).toBe('succeeded');
    expect(JSON.parse(stored!.report)).toEqual(done.report);
  });

  it('a verdict no vote of which parsed counts as missing, not as the judge saying tie', async () => {
    // Every attempt of every prompt replies in no known format: ChatEval's rule makes the verdict a tie,
    // but the report must not credit the judge with it.
    const r = await postJson('/v1/meta-evaluations', {
      preset: 'chateval-single',
      config: {
        parseRetries: 0,
        defaults: { model: mockModel({ seed: 'meta-unparsed', rate: 1, fault: 'wrong-format' }) },
      },
      items: [
        { id: 'u1', task: pair(11), human: 'tie' },
        { id: 'u2', task: pair(12), human: 'A' },
      ],
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const done = await waitForReport(id);
    expect(done.progress).toMatchObject({ total: 2, succeeded: 2 });
    expect(done.report).toMatchObject({ kind: 'pairwise', n: 2, nScored: 0, nMissing: 2 });
  });

  it('pointwise items with groups → a pointwise report', async () => {
    const items = [1, 2, 3, 4].map((i) => ({
      id: `s${i}`,
      task: POINTWISE.kind === 'pointwise' ? { ...POINTWISE, output: `${POINTWISE.output} v${i}` } : POINTWISE,
      human: i,
      group: i <= 2 ? 'doc1' : 'doc2',
    }));
    const r = await postJson('/v1/meta-evaluations', {
      preset: 'geval-summeval',
      config: { defaults: { model: mockModel({ seed: 'meta-2' }) } },
      items,
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const done = await waitForReport(id);
    expect(done.report?.kind).toBe('pointwise');
    expect(done.report?.n).toBe(4);
    expect(done.items.map((i) => i.human)).toEqual([1, 2, 3, 4]);
    for (const item of done.items) {
      const verdict = (await (await api(`/v1/evaluations/${item.evaluationId}`)).json<{ verdict: { score: number } }>())
        .verdict;
      expect([item.winner, item.score]).toEqual([null, verdict.score]);
    }
  });

  it('stores 120 items in D1 batches within the parameter limit and links every item', async () => {
    const items = Array.from({ length: 120 }, (_, i) => ({
      id: `i${String(i).padStart(3, '0')}`,
      task: pair(i),
      human: i % 2 ? 'A' : 'B',
    }));
    const r = await postJson('/v1/meta-evaluations', { ...judge('meta-big'), items });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const n = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations WHERE meta_id = ?')
      .bind(id)
      .first<{ n: number }>();
    const links = await testEnv.DB.prepare('SELECT count(*) AS n FROM meta_evaluation_items WHERE meta_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(n?.n).toBe(120);
    expect(links?.n).toBe(120);
    const done = await waitForReport(id);
    expect(done.progress.ended).toBe(120);
  });

  it('rejects bad batches with 4xx naming the item', async () => {
    const cases: [unknown, string, string][] = [
      [{ ...judge('x'), items: [] }, 'invalid_request', 'items'],
      [{ ...judge('x'), items: [{ id: 'a', task: PAIRWISE, human: 3 }] }, 'invalid_request', 'items.0.human'],
      [
        {
          ...judge('x'),
          items: [
            { id: 'a', task: PAIRWISE, human: 'A' },
            { id: 'a', task: PAIRWISE, human: 'B' },
          ],
        },
        'invalid_request',
        'items.1.id',
      ],
      [
        {
          ...judge('x'),
          items: [
            { id: 'a', task: PAIRWISE, human: 'A' },
            { id: 'b', task: POINTWISE, human: 3 },
          ],
        },
        'invalid_request',
        'same task kind',
      ],
      [
        { preset: 'more-mtbench', items: [{ id: 'a', task: POINTWISE, human: 3 }] },
        'task_kind_unsupported',
        'items.0.task',
      ],
      [{ preset: 'nope', items: [{ id: 'a', task: PAIRWISE, human: 'A' }] }, 'unknown_preset', 'nope'],
    ];
    for (const [b, code, mentions] of cases) {
      const res = await postJson('/v1/meta-evaluations', b);
      const body = await res.json<ErrorJson>();
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.error.code).toBe(code);
      expect(body.error.message).toContain(mentions);
    }
  });

  it('404 for an unknown meta-evaluation', async () => {
    const r = await api('/v1/meta-evaluations/me_nope');
    expect(r.status).toBe(404);
    expect((await r.json<ErrorJson>()).error.code).toBe('not_found');
  });
});
