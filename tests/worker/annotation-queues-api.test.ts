/**
 * `/v1/annotation-queues` over HTTP: creating a queue (items sent, or taken from evaluations with the judge's
 * verdict), each annotator's next item (told apart by `x-annotator`, 204 when none is left, the verdict hidden
 * in a blind queue), labels checked against the rubric (400 naming the field), disagreement and adjudication,
 * and the errors of every route. Every response is checked against the served OpenAPI document.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NextItem, Queue, QueueItem } from '../../src/annotation-queues/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { PAIRWISE_RUBRIC_EXAMPLE, POINTWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE } from './helpers.js';

afterEach(drainAlarms);

const Q = '/v1/annotation-queues';
const question = PAIRWISE.kind === 'pairwise' ? PAIRWISE.question : '';
const pair = (i: number) => ({ id: `t-${i}`, task: { ...PAIRWISE, question: `${question} (${i})` } });
const reply = (i: number) => ({
  id: `r-${i}`,
  task: {
    kind: 'pointwise' as const,
    source: `Where is my parcel? (${i})`,
    output: 'It ships today; here is the tracking link.',
  },
});

async function rubric(body: unknown = PAIRWISE_RUBRIC_EXAMPLE): Promise<RubricVersion> {
  const r = await postJson('/v1/rubrics', body);
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<RubricVersion>();
}

async function queue(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Queue> {
  const r = await postJson(Q, { name: 'q', ...body }, headers);
  expect(r.status, await r.clone().text()).toBe(201);
  const q = await r.json<Queue>();
  expect(r.headers.get('Location')).toBe(`${Q}/${q.id}`);
  return q;
}

const next = (id: string, annotator?: string) =>
  api(`${Q}/${id}/next`, annotator ? { headers: { 'x-annotator': annotator } } : {});

const label = (id: string, item: string, body: unknown, annotator?: string) =>
  postJson(`${Q}/${id}/items/${item}/labels`, body, annotator ? { 'x-annotator': annotator } : {});

async function errorOf(r: Response, status: number): Promise<ErrorJson['error']> {
  expect(r.status, await r.clone().text()).toBe(status);
  return (await r.json<ErrorJson>()).error;
}

describe('creating a queue', () => {
  it('fixes the rubric version, lists and reads it, and replays an Idempotency-Key', async () => {
    const v = await rubric();
    const body = { rubric: v.id, items: [1, 2].map(pair), labelsPerItem: 2 };
    const q = await queue(body, { 'Idempotency-Key': `aq-${v.id}` });
    expect(q).toMatchObject({
      rubric: { id: v.id, version: 1 },
      kind: 'pairwise',
      labelsPerItem: 2,
      blind: false,
      progress: { total: 2, pending: 2, labelled: 0, needsAdjudication: 0, adjudicated: 0 },
    });
    const again = await postJson(Q, { name: 'q', ...body }, { 'Idempotency-Key': `aq-${v.id}` });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<Queue>()).id).toBe(q.id);
    const other = await postJson(Q, { name: 'other', ...body }, { 'Idempotency-Key': `aq-${v.id}` });
    expect((await errorOf(other, 409)).code).toBe('idempotency_conflict');

    expect(await (await api(`${Q}/${q.id}`)).json<Queue>()).toEqual(q);
    const listed = await (await api(`${Q}?limit=100`)).json<{ data: Queue[] }>();
    expect(listed.data.map((x) => x.id)).toContain(q.id);
  });

  it('refuses bodies it cannot use, naming the field', async () => {
    const v = await rubric();
    const both = await postJson(Q, { name: 'q', rubric: v.id, items: [pair(1)], fromEvaluations: { filter: {} } });
    expect((await errorOf(both, 400)).issues?.map((i) => i.path)).toEqual(['items']);
    const neither = await postJson(Q, { name: 'q', rubric: v.id });
    expect((await errorOf(neither, 400)).issues?.map((i) => i.path)).toEqual(['items']);
    const dup = await postJson(Q, { name: 'q', rubric: v.id, items: [pair(1), pair(1)] });
    expect((await errorOf(dup, 400)).issues?.map((i) => i.path)).toEqual(['items.1.id']);
    const kind = await postJson(Q, { name: 'q', rubric: v.id, items: [pair(1), reply(2)] });
    expect((await errorOf(kind, 400)).issues?.map((i) => i.path)).toEqual(['items.1.task.kind']);
    const inline = await postJson(Q, { name: 'q', rubric: { kind: 'pairwise', criteria: 'x' }, items: [pair(1)] });
    expect((await errorOf(inline, 400)).issues?.[0]?.path).toBe('rubric');
    const unknown = await postJson(Q, { name: 'q', rubric: `rb_${'0'.repeat(32)}`, items: [pair(1)] });
    expect((await errorOf(unknown, 404)).message).toContain('rubric');
    const nothing = await postJson(Q, {
      name: 'q',
      rubric: v.id,
      fromEvaluations: { filter: { metadata: { run: `none-${v.id}` } } },
    });
    expect((await errorOf(nothing, 400)).issues?.map((i) => i.path)).toEqual(['fromEvaluations.filter']);
    const badBatch = await postJson(Q, { name: 'q', rubric: v.id, fromEvaluations: { filter: { batch: 'nope' } } });
    expect((await errorOf(badBatch, 400)).issues?.map((i) => i.path)).toEqual(['fromEvaluations.filter.batch']);
    expect((await errorOf(await api(`${Q}/aq_${'0'.repeat(32)}`), 404)).code).toBe('not_found');
    expect((await errorOf(await api(`${Q}/nope`), 400)).issues?.[0]?.path).toBe('id');
    expect((await errorOf(await api(`${Q}?cursor=zzz`), 400)).issues?.[0]?.path).toBe('cursor');
  });
});

describe('labelling', () => {
  it('hands each annotator their next item, settles agreement, flags disagreement and takes an adjudicator', async () => {
    const v = await rubric();
    const q = await queue({ rubric: `${v.id}@1`, items: [1, 2].map(pair), labelsPerItem: 2 });
    const first = await next(q.id, 'ana');
    expect(first.status).toBe(200);
    const item = await first.json<NextItem>();
    expect(item).toMatchObject({ itemId: 't-1', annotator: 'ana', remaining: 2, judge: null });
    expect(item.rubric).toMatchObject({ id: v.id, version: 1, kind: 'pairwise', scale: null, aspects: null });

    expect((await label(q.id, 't-1', { label: { winner: 'A' } }, 'ana')).status).toBe(200);
    expect((await (await next(q.id, 'ana')).json<NextItem>()).itemId).toBe('t-2');
    // Another annotator still gets t-1: it waits for a second label.
    expect((await (await next(q.id, 'ben')).json<NextItem>()).itemId).toBe('t-1');
    const agreed = await (
      await label(q.id, 't-1', { label: { winner: 'A' }, comment: 'follows the policy' }, 'ben')
    ).json<QueueItem>();
    expect(agreed).toMatchObject({ status: 'labelled', resolution: 'unanimous', label: { winner: 'A' } });
    expect(agreed.labels.map((l) => [l.annotator, l.provenance, l.comment])).toEqual([
      ['ana', 'human', null],
      ['ben', 'human', 'follows the policy'],
    ]);

    await label(q.id, 't-2', { label: { winner: 'A' } }, 'ana');
    const split = await (await label(q.id, 't-2', { label: { winner: 'B' } }, 'ben')).json<QueueItem>();
    expect(split).toMatchObject({ status: 'needs_adjudication', label: null });
    // Both labelled everything: nothing is left for either, nor for a third annotator (every item has its two labels).
    for (const who of ['ana', 'ben', 'cy']) expect((await next(q.id, who)).status).toBe(204);
    expect((await (await api(`${Q}/${q.id}`)).json<Queue>()).progress).toMatchObject({
      labelled: 1,
      needsAdjudication: 1,
    });

    const settled = await (
      await label(q.id, 't-2', { label: { winner: 'B' }, adjudicate: true }, 'lead')
    ).json<QueueItem>();
    expect(settled).toMatchObject({ status: 'adjudicated', resolution: 'adjudicated', label: { winner: 'B' } });
    expect(await (await api(`${Q}/${q.id}/items/t-2`)).json<QueueItem>()).toEqual(settled);
    expect((await (await api(`${Q}/${q.id}`)).json<Queue>()).progress).toMatchObject({ labelled: 1, adjudicated: 1 });
  });

  it("checks a label against the rubric's kind, scale and aspects, naming the field", async () => {
    const v = await rubric(POINTWISE_RUBRIC_EXAMPLE);
    const q = await queue({ rubric: v.id, items: [reply(1)] });
    const item = await (await next(q.id)).json<NextItem>();
    expect(item.rubric).toMatchObject({ kind: 'pointwise', scale: { min: 1, max: 5 } });
    expect(item.rubric.aspects?.map((a) => a.name)).toEqual(['policy', 'tone', 'next step']);
    const paths = async (body: unknown) =>
      (await errorOf(await label(q.id, 'r-1', body), 400)).issues?.map((i) => i.path);
    expect(await paths({ label: { winner: 'A' } })).toEqual(['label.winner', 'label.score']);
    expect(await paths({ label: { score: 9 } })).toEqual(['label.score']);
    expect(await paths({ label: { aspects: { tone: 0, style: 3 } } })).toEqual([
      'label.aspects.tone',
      'label.aspects.style',
    ]);
    expect(await paths({ label: { score: 4 }, extra: 1 })).toEqual(['extra']);
    const mismatch = await label(q.id, 'r-1', { label: { score: 4 }, annotator: 'ana' }, 'ben');
    expect((await errorOf(mismatch, 400)).issues?.map((i) => i.path)).toEqual(['annotator']);
    expect((await errorOf(await label(q.id, 'nope', { label: { score: 4 } }), 404)).code).toBe('not_found');
    const ok = await (await label(q.id, 'r-1', { label: { score: 4, aspects: { tone: 5 } } })).json<QueueItem>();
    expect(ok).toMatchObject({ status: 'labelled', resolution: 'single', label: { score: 4, aspects: { tone: 5 } } });
    // Without x-annotator the key labels: here the open deployment's.
    expect(ok.labels[0]?.annotator).toBe('anonymous');
  });
});

describe('items from evaluations', () => {
  it("brings each evaluation's verdict as a judge label, shown unless the queue is blind", async () => {
    const v = await rubric();
    const run = `aq-from-${v.id}`;
    for (const i of [1, 2]) {
      const r = await postJson(
        '/v1/evaluations',
        {
          preset: 'chateval-single',
          config: { defaults: { model: mockModel({ seed: `${run}-${i}` }) } },
          task: pair(i).task,
          rubric: v.id,
          metadata: { run },
        },
        { Prefer: 'wait=30' },
      );
      expect(r.status, await r.clone().text()).toBe(200);
    }
    const filter = { metadata: { run }, rubric: `${v.id}@1` };
    const open = await queue({ rubric: v.id, fromEvaluations: { filter } });
    expect(open.progress.total).toBe(2);
    const shown = await (await next(open.id, 'ana')).json<NextItem>();
    expect(shown.itemId).toMatch(/^ev_/);
    expect(shown.judge?.winner).toMatch(/^(A|B|tie)$/);
    const judged = await (await api(`${Q}/${open.id}/items/${shown.itemId}`)).json<QueueItem>();
    expect(judged.labels.map((l) => [l.annotator, l.provenance])).toEqual([['judge', 'judge']]);
    // The judge's label never counts: the item still waits for a human.
    expect(judged.status).toBe('pending');

    const blind = await queue({ rubric: v.id, blind: true, fromEvaluations: { filter } });
    expect((await (await next(blind.id, 'ana')).json<NextItem>()).judge).toBeNull();
    const judgeName = await label(blind.id, shown.itemId, { label: { winner: 'A' }, annotator: 'judge' });
    expect((await errorOf(judgeName, 400)).issues?.map((i) => i.path)).toEqual(['annotator']);
  });
});

describe('judge labels from evaluations on another question', () => {
  const HELPFUL = {
    name: 'helpful replies',
    kind: 'pointwise',
    criteria: 'The reply helps the customer and is never toxic.',
    scale: { min: 1, max: 5 },
    autoSteps: false,
  };
  const scale = { min: 1, max: 5 };
  let made = 0;

  /** A pointwise evaluation of one reply tagged `run`: on `aspect`, or by `rubric`; its id. */
  async function judgedOn(run: string, by: { aspect: Record<string, unknown> } | { rubric: unknown }): Promise<string> {
    const task = { ...reply(1).task, ...('aspect' in by ? { aspect: by.aspect } : {}) };
    const r = await postJson(
      '/v1/evaluations',
      {
        preset: 'rubric-judge',
        // A seed of its own: the same question to the same judge would be answered from the cache.
        config: { defaults: { model: mockModel({ seed: `${run}-${++made}` }) } },
        task,
        ...('rubric' in by ? { rubric: by.rubric } : {}),
        metadata: { run },
      },
      { Prefer: 'wait=30' },
    );
    expect(r.status, await r.clone().text()).toBe(200);
    return (await r.json<{ id: string }>()).id;
  }

  /** The judge's label of each item of a queue over `rubricRef` made from the evaluations tagged `run`. */
  async function judgeLabels(
    rubricRef: string,
    run: string,
  ): Promise<Map<string, QueueItem['labels'][number]['label'] | null>> {
    const q = await queue({ rubric: rubricRef, fromEvaluations: { filter: { metadata: { run } } } });
    const judged = new Map<string, QueueItem['labels'][number]['label'] | null>();
    for (;;) {
      const r = await next(q.id, 'ana');
      if (r.status === 204) return judged;
      const item = await r.json<NextItem>();
      judged.set(item.itemId, item.judge);
      const skip = await label(q.id, item.itemId, { label: { score: 3 } }, 'ana');
      expect(skip.status, await skip.clone().text()).toBe(200);
    }
  }

  it('keeps no judge label for a verdict on an aspect the criteria merely name, even inverted', async () => {
    const v = await rubric(HELPFUL);
    const run = `aq-tox-${v.id}`;
    // "never toxic" names toxicity, yet a toxicity score (higher is worse) is no helpfulness score.
    const tox = await judgedOn(run, {
      aspect: { name: 'toxicity', description: 'How offensive the reply is.', scale },
    });
    expect(await judgeLabels(v.id, run)).toEqual(new Map([[tox, null]]));
    const harmless = await rubric({ ...HELPFUL, name: 'harmless replies', criteria: 'The reply is harmless.' });
    const harmRun = `aq-harm-${harmless.id}`;
    const harm = await judgedOn(harmRun, { aspect: { name: 'harmfulness', description: 'How harmful it is.', scale } });
    expect(await judgeLabels(harmless.id, harmRun)).toEqual(new Map([[harm, null]]));
  });

  it("keeps the verdict judged by the rubric's version, or on an aspect described by its criteria word for word", async () => {
    const v = await rubric(HELPFUL);
    const run = `aq-help-${v.id}`;
    const byVersion = await judgedOn(run, { rubric: `${v.id}@1` });
    const bySameContent = await judgedOn(run, {
      rubric: { kind: 'pointwise', criteria: HELPFUL.criteria, scale, autoSteps: false },
    });
    const described = await judgedOn(run, { aspect: { name: 'accuracy', description: HELPFUL.criteria, scale } });
    const named = await judgedOn(run, { aspect: { name: 'helpfulness', description: 'How well it helps.', scale } });
    const v2 = await postJson(`/v1/rubrics/${v.id}/versions`, { ...HELPFUL, criteria: 'The reply is never toxic.' });
    expect(v2.status, await v2.clone().text()).toBe(201);
    const byOtherVersion = await judgedOn(run, { rubric: `${v.id}@2` });
    const judged = await judgeLabels(`${v.id}@1`, run);
    expect(judged.size).toBe(5);
    for (const kept of [byVersion, bySameContent, described]) expect(judged.get(kept)?.score).toBeGreaterThanOrEqual(1);
    expect(judged.get(named)).toBeNull();
    expect(judged.get(byOtherVersion)).toBeNull();
  });

  it('keeps no judge label for a pairwise verdict judged by no rubric', async () => {
    const v = await rubric();
    const run = `aq-plain-${v.id}`;
    const r = await postJson(
      '/v1/evaluations',
      {
        preset: 'chateval-single',
        config: { defaults: { model: mockModel({ seed: run }) } },
        task: pair(1).task,
        metadata: { run },
      },
      { Prefer: 'wait=30' },
    );
    expect(r.status, await r.clone().text()).toBe(200);
    const q = await queue({ rubric: v.id, fromEvaluations: { filter: { metadata: { run } } } });
    expect((await (await next(q.id, 'ana')).json<NextItem>()).judge).toBeNull();
  });
});
