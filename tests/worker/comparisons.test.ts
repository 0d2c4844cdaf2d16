/**
 * Comparisons end to end in workerd: bad input refused naming the field, a tournament judged by a mock
 * that prefers answers by hidden quality tags (so the true order and the true win probabilities are
 * known) ranked correctly with intervals containing the truth, CI gates that pass, fail and stay
 * inconclusive, the results pages, and `comparison.completed` written once however the ending repeats.
 */
import { WAIT_MS } from '../support/patience.js';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { Comparison, ComparisonResultLine } from '../../src/comparisons/answer-schemas.js';
import { ComparisonResultLineSchema, ComparisonSchema } from '../../src/comparisons/answer-schemas.js';
import { getComparison } from '../../src/comparisons/rows.js';
import { finishComparison } from '../../src/comparisons/finish.js';
import { markEnded, afterEnding } from '../../src/ending-plan.js';
import { sweep } from '../../queues/sweeper.js';
import { PRESETS } from '../../src/engine/registry.js';
import { qualityTag } from '../../src/mock-llm/judge-mode.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, testEnv } from './helpers.js';
import { createEndpointFor, sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

/** fastchat-pair (both orders inside each evaluation: one evaluation per pair) on the mock with `seed`. */
function judge(seed: string) {
  return { preset: 'fastchat-pair', config: { defaults: { model: mockModel({ seed }) } } };
}

/** A seeded PRNG on [0, 1) (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Noise half-width: each answer's quality is its candidate's true quality plus U(-W, W). */
const W = 1.5;

/** True P(quality_i + U > quality_j + U') for two uniform noises on (-W, W): a triangular difference. */
function trueWinRate(delta: number): number {
  const tail = (x: number) => (x >= 2 * W ? 0 : (2 * W - x) ** 2 / (2 * (2 * W) ** 2));
  return delta >= 0 ? 1 - tail(delta) : tail(-delta);
}

/** `n` items whose outputs carry a hidden quality tag: candidate c's true quality plus seeded noise. */
function taggedItems(n: number, truth: Record<string, number>, seed: number) {
  const rand = prng(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    question: `(${i}) Explain the answer.`,
    outputs: Object.fromEntries(
      Object.entries(truth).map(([c, q]) => [
        c,
        `Answer of ${c} ${qualityTag(+(q + (rand() * 2 - 1) * W).toFixed(4))}`,
      ]),
    ),
  }));
}

async function create(body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const r = await postJson('/v1/comparisons', body, headers);
  const json = await r.json<{ id: string }>();
  expect(r.status, JSON.stringify(json)).toBe(202);
  return json.id;
}

async function view(id: string): Promise<Comparison> {
  const r = await api(`/v1/comparisons/${id}`);
  const json = await r.json();
  expect(r.status, JSON.stringify(json)).toBe(200);
  return ComparisonSchema.parse(json);
}

const waitDone = (id: string) =>
  pollUntil(
    () => view(id),
    (c) => c.basis === 'final',
    WAIT_MS,
    50,
  );

async function errorOf(body: unknown): Promise<{ status: number; paths: string[] }> {
  const r = await postJson('/v1/comparisons', body);
  const json = await r.json<ErrorJson>();
  return { status: r.status, paths: (json.error.issues ?? []).map((i) => i.path) };
}

describe('bad input', () => {
  const base = {
    ...judge('cmp-bad'),
    candidates: ['v1', 'v2'],
    design: 'all-pairs',
    items: [{ id: 'a', question: 'q?', outputs: { v1: 'x', v2: 'y' } }],
  };
  it.each([
    [
      'fewer than 2 candidates',
      { candidates: ['v1'], items: [{ id: 'a', question: 'q', outputs: { v1: 'x' } }] },
      'candidates',
    ],
    ['a baseline that is not a candidate', { design: { baseline: 'v9' } }, 'design.baseline'],
    ['a gate naming an unknown candidate', { gate: { candidate: 'v3', baseline: 'v1' } }, 'gate.candidate'],
    ['minWinRate outside (0, 1)', { gate: { candidate: 'v2', baseline: 'v1', minWinRate: 1 } }, 'gate.minWinRate'],
    ['confidence outside [0.5, 1)', { gate: { candidate: 'v2', baseline: 'v1', confidence: 0.4 } }, 'gate.confidence'],
    [
      'duplicate item ids',
      {
        items: [
          { id: 'a', question: 'q', outputs: { v1: 'x', v2: 'y' } },
          { id: 'a', question: 'r', outputs: { v1: 'x', v2: 'y' } },
        ],
      },
      'items.1.id',
    ],
    [
      'a missing output for a named candidate',
      {
        items: [
          { id: 'a', question: 'q', outputs: { v1: 'x', v2: 'y' } },
          { id: 'b', question: 'q', outputs: { v1: 'x' } },
        ],
      },
      'items.1.outputs.v2',
    ],
    // The pair tasks are built by the service: a judge of pointwise tasks is the preset's fault, not an item's.
    ['a judge of pointwise tasks only', { preset: 'debate-summeval' }, 'preset'],
    // Chosen by a full config's `method`, no preset sent: that is the field.
    [
      'a full config of a judge of pointwise tasks only',
      { preset: undefined, config: PRESETS.find((p) => p.id === 'debate-summeval')?.config },
      'config.method',
    ],
  ])('%s is a 400 naming the field', async (_what, change, path) => {
    const before = await testEnv.DB.prepare('SELECT count(*) AS n FROM comparisons').first<{ n: number }>();
    const e = await errorOf({ ...base, ...change });
    expect(e.status).toBe(400);
    expect(e.paths).toContain(path);
    const after = await testEnv.DB.prepare('SELECT count(*) AS n FROM comparisons').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it.each([
    ['missing', undefined, 'design: required: "all-pairs"'],
    ['a wrong string', 'all', 'design: expected "all-pairs"'],
    ['an object without baseline', { base: 'v1' }, 'design: expected "all-pairs"'],
  ])('a design %s names the field and both of its forms', async (_what, design, start) => {
    const r = await postJson('/v1/comparisons', { ...base, design });
    expect(r.status).toBe(400);
    const { error } = await r.json<ErrorJson>();
    expect(error.message).toContain(start);
    expect(error.message).toContain('{"baseline": "<candidate>"}');
    expect(error.issues?.map((i) => i.path)).toEqual(['design']);
  });
});

describe('a tournament with a scripted judge', () => {
  it('ranks by the hidden quality with intervals containing the true win rates; results page by item', async () => {
    const truth = { low: 0, mid: 1, high: 2 };
    const id = await create({
      ...judge('cmp-tournament'),
      candidates: ['low', 'mid', 'high'],
      design: 'all-pairs',
      items: taggedItems(30, truth, 7),
    });
    const c = await waitDone(id);
    expect(c.status).toBe('completed');
    expect(c.evaluationsPerPair).toBe(1);
    expect(c.counts).toMatchObject({ total: 90, succeeded: 90 });
    expect(c.ranking.map((r) => r.candidate)).toEqual(['high', 'mid', 'low']);
    expect(c.ranking.every((r) => r.interval !== null)).toBe(true);
    for (const p of c.pairs) {
      const truthRate = trueWinRate(truth[p.a as keyof typeof truth] - truth[p.b as keyof typeof truth]);
      expect(p.wins + p.ties + p.losses).toBe(30);
      expect(p.interval[0]).toBeLessThanOrEqual(truthRate);
      expect(p.interval[1]).toBeGreaterThanOrEqual(truthRate);
    }
    // The judge honours the tags in both orders: no flips.
    expect(c.judge.flipRate).toBe(0);
    expect(c.matrix.candidates).toEqual(['low', 'mid', 'high']);
    expect(c.usage.calls).toBe(180);
    expect(c.summary).toMatch(/^ranking \(Bradley–Terry θ, 95% CI\): 1\. high/);

    const first = await api(`/v1/comparisons/${id}/results?limit=20`);
    const next = first.headers.get('X-Next-Cursor');
    expect(next).not.toBeNull();
    const page2 = await api(`/v1/comparisons/${id}/results?limit=20&cursor=${next ?? ''}`);
    const lines = [first, page2].map(async (r) =>
      new TextDecoder()
        .decode(await r.arrayBuffer())
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => ComparisonResultLineSchema.parse(JSON.parse(l))),
    );
    const all: ComparisonResultLine[] = (await Promise.all(lines)).flat();
    expect(all.flatMap((l) => (l.kind === 'item' ? [l.itemId] : []))).toEqual(
      Array.from({ length: 30 }, (_, i) => `q${i}`),
    );
    const item0 = all[0];
    if (item0?.kind !== 'item') throw new Error('first line is an item');
    expect(item0.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['low-mid', 'low-high', 'mid-high']);
    expect(item0.pairs.every((p) => p.evaluations.length === 1 && p.winner !== null)).toBe(true);
    expect(all.at(-1)).toMatchObject({ kind: 'summary', basis: 'final', summary: c.summary });
  });
});

describe('the CI gate', () => {
  it.each([
    ['passed', { candidate: 'new', baseline: 'old' }, { old: 0, new: 2 }],
    ['failed', { candidate: 'old', baseline: 'new' }, { old: 0, new: 2 }],
    ['inconclusive', { candidate: 'new', baseline: 'old' }, { old: 0, new: 0 }],
  ] as const)(
    '%s end to end, in the result, the results and comparison.completed (once)',
    async (outcome, gate, truth) => {
      await createEndpointFor(sinkUrl(newTestId('cmp-gate')), ['comparison.completed']);
      const id = await create({
        ...judge(`cmp-gate-${outcome}`),
        candidates: ['old', 'new'],
        design: { baseline: 'old' },
        gate,
        items: taggedItems(16, truth, 11),
      });
      const c = await waitDone(id);
      expect(c.gate?.outcome).toBe(outcome);
      expect(c.gateOutcome).toBe(outcome);
      expect(c.summary).toBe(c.gate?.summary);
      if (outcome === 'inconclusive') expect(c.gate?.moreItems).toBeGreaterThan(0);
      else expect(c.gate?.moreItems).toBeNull();

      // Repeated endings and finishes write no second event.
      const { results: evs } = await testEnv.DB.prepare('SELECT id FROM evaluations WHERE batch_id = ?')
        .bind(id)
        .all<{ id: string }>();
      for (const e of evs.slice(0, 3)) {
        expect(await markEnded(testEnv.DB, e.id, 'failed', { code: 'x', message: 'again' }, Date.now())).toBe(false);
        await afterEnding(testEnv, e.id);
      }
      const row = await testEnv.DB.prepare('SELECT tenant FROM comparisons WHERE id = ?')
        .bind(id)
        .first<{ tenant: string }>();
      const stored = await getComparison(testEnv.DB, row?.tenant ?? '', id);
      if (!stored) throw new Error('stored');
      await finishComparison(testEnv, { ...stored, result: null });
      await view(id);
      const { results: events } = await testEnv.DB.prepare(
        "SELECT payload FROM webhook_events WHERE subject_id = ? AND type = 'comparison.completed'",
      )
        .bind(id)
        .all<{ payload: string }>();
      expect(events).toHaveLength(1);
      const data = (JSON.parse(events[0]?.payload ?? '{}') as { data: { gate: { outcome: string }; summary: string } })
        .data;
      expect(data.gate.outcome).toBe(outcome);
      expect(data.summary).toBe(c.summary);
      const r = await api(`/v1/comparisons/${id}/results`);
      const text = new TextDecoder().decode(await r.arrayBuffer());
      const summary = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { kind: string; gate: { outcome: string } };
      expect(summary).toMatchObject({ kind: 'summary', gate: { outcome } });
    },
  );

  it('at a win rate of exactly the bar is inconclusive with moreItems null, as the served document says', async () => {
    const even = qualityTag(0.5);
    const id = await create({
      ...judge('cmp-gate-even'),
      candidates: ['old', 'new'],
      design: { baseline: 'old' },
      gate: { candidate: 'new', baseline: 'old', minWinRate: 0.5 },
      items: Array.from({ length: 4 }, (_, i) => ({
        id: `q${i}`,
        question: `(${i}) Explain the answer.`,
        outputs: { old: `Answer of old ${even}`, new: `Answer of new ${even}` },
      })),
    });
    const c = await waitDone(id);
    expect(c.gate).toMatchObject({ outcome: 'inconclusive', winRate: 0.5, moreItems: null });
    expect(c.gate?.summary).toContain('no number of items is likely to decide it');
    const doc = await (
      await api('/openapi.json')
    ).json<{
      components: { schemas: Record<string, { description?: string }> };
    }>();
    expect(doc.components.schemas.GateResult?.description).toContain('null when the gate decided');
    expect(doc.components.schemas.GateResult?.description).toContain('no number of items would likely decide it');
  });
});

describe('the sweeper', () => {
  it("finishes a comparison whose statistics were never stored after its last ending's commit", async () => {
    const id = await create({
      ...judge('cmp-sweep'),
      candidates: ['a', 'b'],
      design: 'all-pairs',
      items: taggedItems(2, { a: 0, b: 1 }, 5),
    });
    await waitDone(id);
    // As if the process died between the ending's commit and the after-commit step.
    await testEnv.DB.prepare('UPDATE comparisons SET result = NULL, gate_outcome = NULL, completed_at = 1 WHERE id = ?')
      .bind(id)
      .run();
    await sweep(testEnv);
    const row = await testEnv.DB.prepare('SELECT result FROM comparisons WHERE id = ?')
      .bind(id)
      .first<{ result: string | null }>();
    expect(row?.result).not.toBeNull();
  });
});

describe('reads', () => {
  it('lists comparisons newest first and 404s an unknown one', async () => {
    const r = await api('/v1/comparisons?limit=2');
    expect(r.status).toBe(200);
    const list = await r.json<{ data: { id: string; gateOutcome: string | null }[] }>();
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((c) => c.id.startsWith('cp_'))).toBe(true);
    expect((await api('/v1/comparisons/cp_nope')).status).toBe(404);
  });
});

describe('a comparison trigger', () => {
  it('turns a signed CI event into one comparison (a retried delivery replays it); a bad mapping is a 422 naming the field', async () => {
    const r = await postJson('/v1/triggers', {
      ...judge('cmp-trigger'),
      mapping: {
        task: {
          kind: 'comparison',
          candidates: '/candidates',
          items: '/items',
          design: { value: { baseline: 'prod' } },
          gate: { template: '{"candidate": "{{/candidate}}", "baseline": "prod"}' },
        },
      },
    });
    expect(r.status, await r.clone().text()).toBe(201);
    const t = await r.json<{ url: string; secret: string }>();
    const send = (to: { url: string; secret: string }, event: unknown, msgId: string) => {
      const body = JSON.stringify(event);
      const at = new Date();
      return api(to.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': msgId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(to.secret).sign(msgId, at, body),
        },
        body,
      });
    };
    const event = {
      candidate: 'pr-7',
      candidates: ['prod', 'pr-7'],
      items: taggedItems(4, { prod: 0, 'pr-7': 2 }, 3),
    };
    // A template gives text, not an object: the gate fails its schema, named.
    const bad = await send(t, event, 'msg_cmp_bad');
    expect(bad.status).toBe(422);
    expect((await bad.json<ErrorJson>()).error.issues?.[0]?.path).toBe('task.gate');

    const r2 = await postJson('/v1/triggers', {
      ...judge('cmp-trigger'),
      mapping: { task: { kind: 'comparison', candidates: '/candidates', items: '/items', gate: '/gate' } },
    });
    const t2 = await r2.json<{ url: string; secret: string }>();
    const ok = await send(t2, { ...event, gate: { candidate: 'pr-7', baseline: 'prod' } }, 'msg_cmp_1');
    const body = await ok.json<{ comparisonId: string; replayed: boolean }>();
    expect(ok.status, JSON.stringify(body)).toBe(202);
    expect(body.replayed).toBe(false);
    const again = await send(t2, { ...event, gate: { candidate: 'pr-7', baseline: 'prod' } }, 'msg_cmp_1');
    expect(await again.json()).toMatchObject({ comparisonId: body.comparisonId, replayed: true });
    const c = await waitDone(body.comparisonId);
    expect(c.gate).toMatchObject({ candidate: 'pr-7', baseline: 'prod', n: 4 });
    expect(c.gate?.wins).toBeGreaterThanOrEqual(3);
  });
});
