/**
 * `POST /v1/rubrics/{id}/versions/{n}/check` against the mock LLM: the version's golden examples (or the ones
 * sent) judged by that version as a meta-evaluation, the agreement stored on the version, and a tag's
 * `minAgreement` moving only to a version whose stored figure meets it (409 naming the figure otherwise).
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MetaEvaluation } from '../../src/meta-evaluations/schemas.js';
import { pointwiseReport } from '../../src/metrics/agreement.js';
import type { RubricCheck, RubricVersion } from '../../src/rubrics/schemas.js';
import { PAIRWISE_RUBRIC_EXAMPLE, POINTWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE } from './helpers.js';
import { as, keyed, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

const pair = (i: number) =>
  PAIRWISE.kind === 'pairwise' ? { ...PAIRWISE, question: `${PAIRWISE.question} (${i})` } : PAIRWISE;
const judge = (seed: string) => ({ preset: 'chateval-single', config: { defaults: { model: mockModel({ seed }) } } });

async function created(body: unknown): Promise<RubricVersion> {
  const r = await postJson('/v1/rubrics', body);
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<RubricVersion>();
}

/** Polls the version (every 50 ms) until its check has its report. */
async function checked(id: string, version: number, timeoutMs = WAIT_MS): Promise<RubricVersion> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await (await api(`/v1/rubrics/${id}/versions/${version}`)).json<RubricVersion>();
    if (v.check?.report) return v;
    if (Date.now() > deadline) throw new Error(`no check report: ${JSON.stringify(v.check)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function putTag(id: string, body: unknown): Promise<Response> {
  return api(`/v1/rubrics/${id}/tags/prod`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('rubric golden check', () => {
  it("runs a pairwise version's examples through the pipeline, stores accuracy and κ, and gates the tag", async () => {
    const examples = [1, 2, 3, 4].map((i) => ({ task: pair(i), expected: (['A', 'B', 'A', 'tie'] as const)[i - 1] }));
    const v1 = await created({ ...PAIRWISE_RUBRIC_EXAMPLE, examples });
    const r = await postJson(`/v1/rubrics/${v1.id}/versions/1/check`, judge('check-1'));
    expect(r.status, await r.clone().text()).toBe(202);
    expect(r.headers.get('Location')).toBe(`/v1/rubrics/${v1.id}/versions/1`);
    const started = await r.json<RubricCheck>();
    expect(started).toMatchObject({ status: 'running', preset: 'chateval-single', report: null });

    const done = await checked(v1.id, 1);
    const report = done.check?.report;
    expect(done.check?.status).toBe('completed');
    expect(report?.kind).toBe('pairwise');
    expect(report?.n).toBe(4);
    // The figures are the meta-evaluation's: each example judged by rb_…@1 with the judge sent.
    const meta = await (await api(`/v1/meta-evaluations/${started.metaEvaluationId}`)).json<MetaEvaluation>();
    expect(meta.report).toEqual(report);
    expect(meta.items.map((it) => it.human)).toEqual(['A', 'B', 'A', 'tie']);
    const first = await (
      await api(`/v1/evaluations/${meta.items[0]?.evaluationId ?? ''}`)
    ).json<{
      rubric: unknown;
    }>();
    expect(first.rubric).toEqual({ id: v1.id, version: 1, hash: v1.hash });

    // The mock with this seed picks B three times in four: half the examples agree.
    expect(report?.kind === 'pairwise' ? [report.accuracy.value, report.kappa.value] : null).toEqual([
      0.5,
      expect.closeTo(0.2727, 3),
    ]);
    const above = await putTag(v1.id, { version: 1, minAgreement: { metric: 'accuracy', min: 0.6 } });
    expect(above.status).toBe(409);
    const e = (await above.json<ErrorJson>()).error;
    expect(e.code).toBe('agreement_below_minimum');
    expect(e.message).toBe(
      'minAgreement.accuracy: tag "prod" requires accuracy ≥ 0.6 in the golden check; version 1\'s check has accuracy 0.500',
    );
    const meets = await putTag(v1.id, { version: 1, minAgreement: { metric: 'accuracy', min: 0.5 } });
    expect(meets.status, await meets.clone().text()).toBe(200);

    // Version 2 has no check: the guarded tag stays on version 1.
    await postJson(`/v1/rubrics/${v1.id}/versions`, { criteria: 'Which reply is kinder?' });
    const unchecked = await putTag(v1.id, { version: 2 });
    expect(unchecked.status).toBe(409);
    expect((await unchecked.json<ErrorJson>()).error.message).toMatch(/version 2 has none/);
  });

  it('runs examples sent with the request on a pointwise version and stores the correlations', async () => {
    const v1 = await created({ ...POINTWISE_RUBRIC_EXAMPLE, examples: undefined });
    const none = await postJson(`/v1/rubrics/${v1.id}/versions/1/check`, { preset: 'rubric-judge' });
    expect(none.status).toBe(400);
    expect((await none.json<ErrorJson>()).error.issues?.[0]?.path).toBe('examples');
    const wrongKind = await postJson(`/v1/rubrics/${v1.id}/versions/1/check`, {
      preset: 'rubric-judge',
      examples: [{ task: pair(1), expected: 'A' }],
    });
    expect(wrongKind.status).toBe(400);
    expect((await wrongKind.json<ErrorJson>()).error.issues?.[0]?.path).toBe('examples.0.task.kind');

    const examples = [1, 3, 5].map((score, i) => ({
      task: { kind: 'pointwise', source: `Customer message ${i}`, output: `Reply ${i}` },
      expected: score,
    }));
    const r = await postJson(
      `/v1/rubrics/${v1.id}/versions/1/check`,
      { preset: 'rubric-judge', config: { defaults: { model: mockModel({ seed: 'check-2' }) } }, examples },
      { 'Idempotency-Key': 'check-pointwise-1' },
    );
    expect(r.status, await r.clone().text()).toBe(202);
    const started = await r.json<RubricCheck>();
    const done = await checked(v1.id, 1);
    expect(done.check?.metaEvaluationId).toBe(started.metaEvaluationId);
    expect(done.check?.report?.kind).toBe('pointwise');
    expect(done.check?.report?.n).toBe(3);
    expect(done.check?.completedAt).not.toBeNull();
    // The pointwise figures are correlations: a pairwise metric on the tag is refused.
    const wrongMetric = await putTag(v1.id, { version: 1, minAgreement: { metric: 'kappa', min: 0 } });
    expect(wrongMetric.status).toBe(400);
    expect(done.check?.report?.kind === 'pointwise' ? done.check.report.item.spearman.value : null).toBeCloseTo(
      -0.866,
      3,
    );
    const below = await putTag(v1.id, { version: 1, minAgreement: { metric: 'spearman', min: 0 } });
    expect(below.status).toBe(409);
    expect((await below.json<ErrorJson>()).error.message).toContain('has spearman -0.866');
    const meets = await putTag(v1.id, { version: 1, minAgreement: { metric: 'spearman', min: -0.9 } });
    expect(meets.status, await meets.clone().text()).toBe(200);
  });

  it("a pass/fail (0-1) rubric's check has accuracy, the judge's answer against the expected one per example, which a tag may require; on a 1-5 scale accuracy is refused naming the field", async () => {
    const examples = [0, 1, 1, 0, 1, 0].map((expected, i) => ({
      task: { kind: 'pointwise', source: `Question ${i}: is 2 + 2 four?`, output: i % 2 === 0 ? 'Yes.' : 'No.' },
      expected,
    }));
    const v1 = await created({
      name: 'Correct or not',
      kind: 'pointwise',
      criteria: 'Pass (1) when the answer is correct, fail (0) otherwise.',
      scale: { min: 0, max: 1 },
      examples,
    });
    const r = await postJson(`/v1/rubrics/${v1.id}/versions/1/check`, {
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: 'check-pass-fail' }) } },
    });
    expect(r.status, await r.clone().text()).toBe(202);
    const { metaEvaluationId } = await r.json<RubricCheck>();
    const report = (await checked(v1.id, 1)).check?.report;
    if (report?.kind !== 'pointwise') throw new Error(`a pointwise report expected: ${JSON.stringify(report)}`);
    // The figure is the share of examples where the judge's score, read as 0 or 1, is the expected answer.
    const meta = await (await api(`/v1/meta-evaluations/${metaEvaluationId}`)).json<MetaEvaluation>();
    const scored = meta.items.filter((it) => it.score !== null);
    expect(scored.length).toBeGreaterThan(0);
    const agree = scored.filter((it) => ((it.score ?? 0) >= 0.5 ? 1 : 0) === it.human).length;
    expect(report.accuracy?.value).toBe(agree / scored.length);
    expect(report.accuracy?.ci).not.toBeNull();
    const value = report.accuracy?.value ?? 0;
    const meets = await putTag(v1.id, { version: 1, minAgreement: { metric: 'accuracy', min: value } });
    expect(meets.status, await meets.clone().text()).toBe(200);
    // The seeded mock judge misses some examples (1 of 6 agree), so a minimum of 1 is above the figure.
    expect(value).toBeLessThan(1);
    const above = await putTag(v1.id, { version: 1, minAgreement: { metric: 'accuracy', min: 1 } });
    expect(above.status).toBe(409);
    expect((await above.json<ErrorJson>()).error.message).toContain(`has accuracy ${value.toFixed(3)}`);
    // κ stays a pairwise figure; on a 1-5 rubric accuracy is not a figure of its check.
    const kappa = await putTag(v1.id, { version: 1, minAgreement: { metric: 'kappa', min: 0 } });
    expect(kappa.status).toBe(400);
    const five = await created({ ...POINTWISE_RUBRIC_EXAMPLE, examples: undefined });
    const refused = await putTag(five.id, { version: 1, minAgreement: { metric: 'accuracy', min: 0.5 } });
    expect(refused.status).toBe(400);
    const issue = (await refused.json<ErrorJson>()).error.issues?.[0];
    expect(issue?.path).toBe('minAgreement.metric');
    expect(issue?.message).toMatch(/accuracy only on a pass\/fail scale .*scale is 1-5/);
  });

  it("another tenant's rubric or an unknown version is a 404", async () => {
    const { key } = await tenantWithKey();
    const mine = await (await keyed('/v1/rubrics', as(key, { body: PAIRWISE_RUBRIC_EXAMPLE }))).json<RubricVersion>();
    expect((await postJson(`/v1/rubrics/${mine.id}/versions/1/check`, judge('check-3'))).status).toBe(404);
    const own = await keyed(`/v1/rubrics/${mine.id}/versions/7/check`, as(key, { body: judge('check-3') }));
    expect(own.status).toBe(404);
  });
});

describe('agreement per aspect', () => {
  it('a SummEval-style meta-evaluation: four aspects labelled per item, a report per aspect and for the overall', async () => {
    const ASPECTS = ['coherence', 'consistency', 'fluency', 'relevance'];
    // Inline: judged as sent (no auto-CoT run), every aspect scored in one rubric-judge call.
    const rubric = {
      kind: 'pointwise' as const,
      criteria: 'A summary of a news article.',
      scale: { min: 1, max: 5 },
      aspects: ASPECTS.map((name) => ({ name, criteria: `The summary's ${name}.` })),
    };
    const items = [0, 1, 2, 3, 4, 5].map((i) => ({
      id: `doc-${i}`,
      group: `article-${i % 2}`,
      task: {
        kind: 'pointwise' as const,
        source: `Article ${i}: the council met on Tuesday and voted on the park budget.`,
        output: `Summary ${i}: the council ${i % 2 === 0 ? 'raised' : 'cut'} the park budget.`,
      },
      human: 1 + (i % 5),
      humanAspects: Object.fromEntries(ASPECTS.map((a, k) => [a, 1 + ((i + k) % 5)])),
    }));
    const r = await postJson('/v1/meta-evaluations', {
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: 'aspects-meta' }) } },
      rubric,
      items,
    });
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<{ id: string }>();
    let meta: MetaEvaluation;
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      meta = await (await api(`/v1/meta-evaluations/${id}`)).json<MetaEvaluation>();
      if (meta.report || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const report = meta.report;
    if (report?.kind !== 'pointwise') throw new Error(`no pointwise report: ${JSON.stringify(meta)}`);
    expect(report.nScored).toBe(6);
    expect(report.aspects?.map((a) => [a.aspect, a.nScored])).toEqual(ASPECTS.map((a) => [a, 6]));
    // Each aspect's figures are those of the judge's scores for it against the humans' (as listed per item).
    for (const a of report.aspects ?? []) {
      const expected = pointwiseReport(
        meta.items.map((it) => ({
          group: items.find((x) => x.id === it.itemId)?.group ?? '',
          human: it.humanAspects?.[a.aspect] ?? NaN,
          judge: it.aspects?.[a.aspect] ?? null,
        })),
        { bootstrap: report.bootstrap ?? false },
      );
      expect(a.item).toEqual(expected.item);
      expect(a.item.spearman.ci).not.toBeNull();
    }
    expect(meta.items.every((it) => Object.keys(it.aspects ?? {}).length === 4)).toBe(true);
    for (const a of ASPECTS) expect(meta.reportMarkdown).toContain(`| ${a} | 6 |`);
    // Labels per aspect need a pointwise task.
    const bad = await postJson('/v1/meta-evaluations', {
      preset: 'chateval-single',
      items: [{ id: 'p', task: pair(1), human: 'A', humanAspects: { x: 1 } }],
    });
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorJson>()).error.issues?.map((i) => i.path)).toEqual(['items.0.humanAspects']);
  });
});
