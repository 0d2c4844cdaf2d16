/**
 * Certified mode (`certify: {agreement, risk}`) through the API: the request's judge is calibrated on its stored
 * rubric version's labelled items (503 `calibration_pending` while it judges them, 409 `labels_needed` with too
 * few), then answers where its confidence reaches the threshold and abstains elsewhere, or escalates through a
 * cascade; evaluations, batches and comparisons carry the `guarantee` and each item `certified`.
 *
 * The mock's judge ranks answers by hidden quality tags: on a tagged pair both orders agree (confidence 1), on an
 * untagged one each order's verdict comes from a hash of its prompt, so some orders disagree (confidence below 1).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, BatchResultLine } from '../../src/batches/schemas.js';
import type { Comparison } from '../../src/comparisons/answer-schemas.js';
import type { Evaluation } from '../../src/evaluations/schemas.js';
import { qualityTag } from '../../src/mock-llm/judge-mode.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { resultsPage, waitForBatch } from './batches-support.js';
import { drainAlarms, pollUntil, waitForEnd } from './helpers.js';
import { clear, labelledRubric, unsure } from './certify-support.js';

afterEach(drainAlarms);

const CERTIFY = { agreement: 0.8, risk: 0.05 };
const GUARANTEE = { agreement: 0.8, risk: 0.05, coverage: 1, calibrationSize: 30 };

const judge = (seed: string) => ({ preset: 'fastchat-pair', config: { defaults: { model: mockModel({ seed }) } } });

/** One rubric with 30 labelled items for the tests below, labelled once; each judge is calibrated on it once. */
let shared: Promise<string> | undefined;
const sharedRubric = (): Promise<string> => (shared ??= labelledRubric('shared', 30));
/** The plain judge the evaluation, batch and comparison tests share, so its calibration runs once. */
const JUDGE = judge('shared');

/** POSTs until the calibration has judged its items: 503 `calibration_pending` (nothing created) until then. */
async function certified(path: string, body: unknown): Promise<Response> {
  const first = await postJson(path, body);
  if (first.status !== 503) return first;
  expect((await first.json<ErrorJson>()).error.code).toBe('calibration_pending');
  expect(first.headers.get('Retry-After')).toBe('5');
  return pollUntil(
    () => postJson(path, body),
    (r) => r.status !== 503,
  );
}

async function evaluation(body: Record<string, unknown>): Promise<Evaluation> {
  const r = await certified('/v1/evaluations', body);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<{ id: string }>();
  await waitForEnd(id);
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

describe('certified mode', () => {
  it('409 labels_needed says how many more labels; a certify without a stored rubric is a 400 naming rubric', async () => {
    const rubric = await labelledRubric('few', 2);
    const r = await postJson('/v1/evaluations', { ...judge('few'), rubric, task: clear('few'), certify: CERTIFY });
    expect(r.status).toBe(409);
    const e = await r.json<ErrorJson & { error: { labelsNeeded?: number } }>();
    expect(e.error.code).toBe('labels_needed');
    expect(e.error.labelsNeeded).toBe(28);
    expect(e.error.message).toContain('label 28 more');
    const inline = await postJson('/v1/evaluations', { ...judge('few'), task: clear('few'), certify: CERTIFY });
    expect(inline.status).toBe(400);
    expect((await inline.json<ErrorJson>()).error.issues?.[0]?.path).toBe('rubric');
    const batch = await postJson('/v1/batches', {
      ...judge('few'),
      rubric,
      certify: CERTIFY,
      items: [{ task: clear('few') }],
    });
    expect(batch.status).toBe(409);
  });

  it('an evaluation answers where the calibrated threshold holds and abstains elsewhere', async () => {
    const rubric = await sharedRubric();
    const sure = await evaluation({ ...JUDGE, rubric, task: clear('ev'), certify: CERTIFY });
    expect(sure.status).toBe('succeeded');
    expect(sure.guarantee).toEqual(GUARANTEE);
    expect(sure.certified).toBe(true);
    expect(sure.certification).toEqual({ outcome: 'answered', stage: 0 });
    expect(sure.verdict?.winner).toBe('A');

    // Untagged pairs: where the two orders disagree the confidence is below the threshold (1): no winner, not an error.
    const others = await Promise.all(
      ['u1', 'u2', 'u3', 'u4', 'u5'].map((t) => evaluation({ ...JUDGE, rubric, task: unsure(t), certify: CERTIFY })),
    );
    const abstained = others.filter((e) => e.certification?.outcome === 'abstained');
    expect(abstained.length).toBeGreaterThan(0);
    for (const e of others) {
      expect(e.status).toBe('succeeded');
      expect(e.certified).toBe(e.certification?.outcome === 'answered');
      if (e.certified) expect(e.verdict?.confidence).toBe(1);
      else expect(e.verdict?.winner).toBeUndefined();
    }
    // Without certify, the same judge gives no guarantee and no certified state.
    const plain = await evaluation({ ...JUDGE, rubric, task: clear('ev-plain') });
    expect(plain).toMatchObject({ guarantee: null, certified: null, certification: null });
  });

  it('a cascade escalates below a stage’s threshold, and the next stage’s certified verdict answers', async () => {
    const rubric = await sharedRubric();
    // Stage 0 always prefers the answer shown first (its orders disagree): it passes no threshold.
    const cascade = {
      config: {
        method: 'cascade',
        stages: [
          { preset: 'fastchat-pair', config: { defaults: { model: mockModel({ seed: 'cascade', bias: 1 }) } } },
          { preset: 'fastchat-pair', config: { defaults: { model: mockModel({ seed: 'cascade' }) } } },
        ],
      },
    };
    const e = await evaluation({ ...cascade, rubric, task: clear('cascade'), certify: CERTIFY });
    expect(e.status).toBe('succeeded');
    expect(e.guarantee).toEqual(GUARANTEE);
    expect(e).toMatchObject({ certified: true, certification: { outcome: 'escalated', stage: 1 } });
    expect(e.verdict?.winner).toBe('A');
  });

  it('a batch carries the guarantee, and each result line whether it is certified', async () => {
    const rubric = await sharedRubric();
    const r = await certified('/v1/batches', {
      ...JUDGE,
      rubric,
      certify: CERTIFY,
      items: [
        { id: 'sure', task: clear('batch') },
        ...['b1', 'b2', 'b3', 'b4'].map((t) => ({ id: t, task: unsure(t) })),
      ],
    });
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const b: Batch = await waitForBatch(id);
    expect(b.guarantee).toEqual(GUARANTEE);
    const { lines } = await resultsPage(id);
    const byId = new Map(lines.map((l): [string | null, BatchResultLine] => [l.itemId, l]));
    expect(byId.get('sure')).toMatchObject({ certified: true, certification: { outcome: 'answered', stage: 0 } });
    for (const l of lines) {
      expect(l.certified).toBe(l.verdict?.winner !== undefined);
      expect(l.certification?.outcome).toBe(l.certified ? 'answered' : 'abstained');
    }
  });

  it('a comparison carries the guarantee, and each pair evaluation whether it is certified', async () => {
    const rubric = await sharedRubric();
    const r = await certified('/v1/comparisons', {
      ...JUDGE,
      rubric,
      certify: CERTIFY,
      candidates: ['v2', 'v1'],
      design: 'all-pairs',
      items: [
        {
          id: 'q',
          question: '(cmp) What is 12 × 12?',
          outputs: { v2: `144. ${qualityTag(1)}`, v1: `154. ${qualityTag(0)}` },
        },
      ],
    });
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const c = await pollUntil(
      async () => (await api(`/v1/comparisons/${id}`)).json<Comparison>(),
      (x) => x.basis === 'final',
    );
    expect(c.guarantee).toEqual(GUARANTEE);
    const res = await api(`/v1/comparisons/${id}/results`);
    const text = new TextDecoder().decode(await res.arrayBuffer());
    const item = JSON.parse(text.split('\n')[0] ?? '{}') as {
      pairs: { winner: string; evaluations: { certified: boolean }[] }[];
    };
    expect(item.pairs[0]?.winner).toBe('v2');
    expect(item.pairs[0]?.evaluations.map((e) => e.certified)).toEqual([true]);
  });
});
