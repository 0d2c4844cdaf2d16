/**
 * A judge's reliability as an option of meta-evaluations (`repeats: k`): every labelled item judged k times
 * (no verdict reused), and once every repeat ended a reliability report: test-retest, position bias, flip
 * and tie rates, agreement with the labels with CIs. The mock's `vary` answers each repeat afresh, and its
 * `bias` sends a share of verdicts to whichever answer is shown first, so the report has something to find.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/engine/task.js';
import { MetaEvaluationSchema } from '../../src/meta-evaluations/schemas.js';
import type { MetaEvaluation } from '../../src/meta-evaluations/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, pollUntil } from './helpers.js';

afterEach(drainAlarms);

const pair = (i: number): Task => ({
  kind: 'pairwise',
  question: `(${i}) Which answer is better?`,
  answerA: `Answer one (${i}).`,
  answerB: `Answer two (${i}).`,
});

async function view(id: string): Promise<MetaEvaluation> {
  const r = await api(`/v1/meta-evaluations/${id}`);
  expect(r.status).toBe(200);
  return MetaEvaluationSchema.parse(await r.json());
}

describe('repeats: k on a meta-evaluation', () => {
  it('judges each item k times and reports test-retest, position bias, flips and agreement with CIs', async () => {
    // One order per evaluation (calibration off), so the first-shown bias shows as position bias.
    const config = {
      calibration: { enabled: false },
      defaults: { model: mockModel({ seed: 'rel-1', vary: true, bias: 0.5 }) },
    };
    const items = Array.from({ length: 12 }, (_, i) => ({
      id: `q${i}`,
      task: pair(i),
      human: i % 2 === 0 ? 'A' : 'B',
    }));
    const r = await postJson('/v1/meta-evaluations', { preset: 'fastchat-pair', config, items, repeats: 3 });
    const accepted = await r.json<{ id: string; itemsTotal: number }>();
    expect(r.status, JSON.stringify(accepted)).toBe(202);
    expect(accepted.itemsTotal).toBe(12);
    const done = await pollUntil(
      () => view(accepted.id),
      (m) => m.reliability !== null,
      WAIT_MS,
      50,
    );
    expect(done.repeats).toBe(3);
    expect(done.report?.n).toBe(12);
    const rel = done.reliability;
    if (!rel) throw new Error('no reliability');
    expect(rel).toMatchObject({ items: 12, repeats: 36 });
    // A judge that answers afresh and favours the first-shown answer half the time: repeats disagree sometimes.
    expect(rel.testRetest.allAgree.value).toBeLessThan(1);
    expect(rel.positionBias.firstShownWins.value).toBeGreaterThan(0.5);
    expect(rel.labelled).toMatchObject({ items: 12, scored: 12 });
    expect(rel.labelled?.perRepeatAccuracy.ci).not.toBeNull();
    const batch = await (await api(`/v1/batches/${accepted.id}`)).json<{ counts: { total: number } }>();
    expect(batch.counts.total).toBe(36);
  });

  it('refuses repeats for pointwise items and outside 1-10, naming the field', async () => {
    const bad = await postJson('/v1/meta-evaluations', {
      preset: 'fastchat-pair',
      items: [{ id: 'a', task: pair(1), human: 'A' }],
      repeats: 11,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorJson>()).error.issues?.map((i) => i.path)).toContain('repeats');
  });
});

describe('Trust or Escalate: POST /v1/meta-evaluations/{id}/calibrate', () => {
  it("calibrates a labelled cascade run's thresholds, shows them on the meta-evaluation, and gives the config that abstains", async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, task: pair(i), human: i % 3 === 0 ? 'B' : 'A' }));
    const r = await postJson('/v1/meta-evaluations', {
      preset: 'cascade-fastchat-chateval',
      config: { runAllStages: true, defaults: { model: mockModel({ seed: 'toe-1' }) } },
      items,
    });
    const { id } = await r.json<{ id: string }>();
    expect(r.status).toBe(202);
    await pollUntil(
      () => view(id),
      (m) => m.report !== null,
      WAIT_MS,
      50,
    );
    const c = await postJson(`/v1/meta-evaluations/${id}/calibrate`, { alpha: 0.5, delta: 0.2, minTrusted: 2 });
    const body = await c.json<{
      calibration: { thresholds: (number | null)[]; n: number; guarantee: string; coverage: number | null };
      config: { method: string; runAllStages: boolean; calibrated: { thresholds: (number | null)[] } };
    }>();
    expect(c.status, JSON.stringify(body)).toBe(200);
    expect(body.calibration.thresholds).toHaveLength(2);
    expect(body.calibration.n).toBe(6);
    expect(body.calibration.guarantee.length).toBeGreaterThan(20);
    expect(body.config).toMatchObject({ method: 'cascade', runAllStages: false });
    expect(body.config.calibrated.thresholds).toEqual(body.calibration.thresholds);
    expect((await view(id)).calibration?.thresholds).toEqual(body.calibration.thresholds);

    // The calibrated config judges; an item below every threshold has no winner and says which stage abstained.
    const e = await postJson(
      '/v1/evaluations',
      { config: { ...body.config, calibrated: { thresholds: [null, null] } }, task: pair(99) },
      { Prefer: 'wait=20' },
    );
    const ev = await e.json<{
      status: string;
      verdict: { winner?: string; details: { cascade: { abstained?: unknown } } };
    }>();
    expect(ev.status, JSON.stringify(ev)).toBe('succeeded');
    expect(ev.verdict.winner).toBeUndefined();
    expect(ev.verdict.details.cascade.abstained).toMatchObject({ stage: 1 });
  });

  it('refuses a run of another method, naming it', async () => {
    const r = await postJson('/v1/meta-evaluations', {
      preset: 'fastchat-pair',
      items: [{ id: 'a', task: pair(1), human: 'A' }],
    });
    const { id } = await r.json<{ id: string }>();
    const c = await postJson(`/v1/meta-evaluations/${id}/calibrate`, {});
    expect(c.status).toBe(400);
    expect((await c.json<ErrorJson>()).error.message).toMatch(/not a cascade/);
  });
});
