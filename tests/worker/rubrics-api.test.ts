/**
 * `/v1/rubrics` and the `rubric` field of `POST /v1/evaluations`, against the mock LLM: versions that never
 * change, tags that move, archive that keeps versions readable, tenant isolation, every bad input naming
 * its field, the recorded `rubric {id, version, hash}`, and a multi-aspect evaluation end to end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { RubricContentSchema, rubricHash } from '../../src/engine/rubric.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { Rubric, RubricVersion } from '../../src/rubrics/schemas.js';
import { PAIRWISE_RUBRIC_EXAMPLE, POINTWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { abortAllDurableObjects } from 'cloudflare:test';
import { evaluationStub } from '../../src/evaluations/stub.js';
import {
  drainAlarms,
  LONG_DEBATE,
  PAIRWISE,
  POINTWISE,
  runInTestObject,
  storedVerdict,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';
import { as, keyed, sendHook, tenantWithKey } from './tenants-helpers.js';
import { createBatchId, resultsPage, waitForBatch } from './batches-support.js';

afterEach(drainAlarms);

const POINTWISE_TASK = {
  kind: 'pointwise' as const,
  source: POINTWISE.kind === 'pointwise' ? POINTWISE.source : '',
  output: 'The council raised park funding.',
};

async function created(body: unknown = POINTWISE_RUBRIC_EXAMPLE, headers: Record<string, string> = {}) {
  const r = await postJson('/v1/rubrics', body, headers);
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<RubricVersion>();
}

/** The hash a G-Eval style judge records for version `n`: its content with the auto-CoT steps written for it. */
async function judgedHash(id: string, n: number): Promise<string | null | undefined> {
  return (await (await api(`/v1/rubrics/${id}/versions/${n}`)).json<RubricVersion>()).steps?.hash;
}

async function errorOf(r: Response): Promise<ErrorJson['error']> {
  return (await r.json<ErrorJson>()).error;
}

function judge(rubric: unknown, seed: string, task: unknown = POINTWISE_TASK, preset = 'rubric-judge') {
  return postJson('/v1/evaluations', {
    preset,
    config: { defaults: { model: mockModel({ seed }) } },
    task,
    rubric,
  });
}

async function judged(rubric: unknown, seed: string, task?: unknown, preset?: string): Promise<Evaluation> {
  const r = await judge(rubric, seed, task, preset);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<EvaluationAccepted>();
  await waitForEnd(id);
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

describe('POST /v1/rubrics', () => {
  it('creates version 1 with its hash and Location; GET reads the rubric and the version', async () => {
    const r = await postJson('/v1/rubrics', POINTWISE_RUBRIC_EXAMPLE);
    expect(r.status).toBe(201);
    const v = await r.json<RubricVersion>();
    expect(v.id).toMatch(/^rb_[0-9a-f]{32}$/);
    expect(v.version).toBe(1);
    expect(v.ref).toBe(`${v.id}@1`);
    expect(r.headers.get('Location')).toBe(`/v1/rubrics/${v.id}/versions/1`);
    const { name: _n, examples: _e, ...content } = POINTWISE_RUBRIC_EXAMPLE;
    // The hash is of the content with defaults filled (an aspect's weight 1).
    expect(v.hash).toBe(await rubricHash(RubricContentSchema.parse(content)));
    const rubric = await (await api(`/v1/rubrics/${v.id}`)).json<Rubric>();
    expect(rubric).toMatchObject({ id: v.id, name: 'Support reply quality', kind: 'pointwise', latestVersion: 1 });
    const got = await (await api(`/v1/rubrics/${v.id}/versions/1`)).json<RubricVersion>();
    expect(got.aspects?.map((a) => a.name)).toEqual(['policy', 'tone', 'next step']);
    expect(got.examples).toHaveLength(1);
  });

  it('replays a create with the same Idempotency-Key and refuses another body with it', async () => {
    const key = { 'Idempotency-Key': 'rubric-create-1' };
    const first = await created(PAIRWISE_RUBRIC_EXAMPLE, key);
    const again = await postJson('/v1/rubrics', PAIRWISE_RUBRIC_EXAMPLE, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<RubricVersion>()).id).toBe(first.id);
    const other = await postJson('/v1/rubrics', { ...PAIRWISE_RUBRIC_EXAMPLE, name: 'Other' }, key);
    expect(other.status).toBe(409);
    expect((await errorOf(other)).code).toBe('idempotency_conflict');
  });
});

describe('versions and tags', () => {
  it('adds immutable versions; PUT, PATCH and DELETE on a version are 405', async () => {
    const v1 = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const r = await postJson(`/v1/rubrics/${v1.id}/versions`, { criteria: 'Which reply quotes the refund rule.' });
    expect(r.status, await r.clone().text()).toBe(201);
    const v2 = await r.json<RubricVersion>();
    expect(v2.version).toBe(2);
    expect(v2.kind).toBe('pairwise');
    expect(v2.hash).not.toBe(v1.hash);
    const again = await (await api(`/v1/rubrics/${v1.id}/versions/1`)).json<RubricVersion>();
    expect(again.criteria).toBe(PAIRWISE_RUBRIC_EXAMPLE.criteria);
    expect(again.hash).toBe(v1.hash);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const m = await api(`/v1/rubrics/${v1.id}/versions/1`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: method === 'DELETE' ? null : JSON.stringify({ criteria: 'changed' }),
      });
      expect(m.status, method).toBe(405);
      expect((await errorOf(m)).message).toContain('immutable');
    }
    const list = await (
      await api(`/v1/rubrics/${v1.id}/versions?limit=1`)
    ).json<{
      data: RubricVersion[];
      nextCursor: string | null;
    }>();
    expect(list.data.map((v) => v.version)).toEqual([2]);
    expect(list.nextCursor).not.toBeNull();
    const next = await (
      await api(`/v1/rubrics/${v1.id}/versions?limit=1&cursor=${encodeURIComponent(list.nextCursor!)}`)
    ).json<{ data: RubricVersion[] }>();
    expect(next.data.map((v) => v.version)).toEqual([1]);
  });

  it('a tag moves, and an evaluation naming it records the version it pointed at then', async () => {
    const v1 = await created();
    const v2 = await (
      await postJson(`/v1/rubrics/${v1.id}/versions`, {
        ...POINTWISE_RUBRIC_EXAMPLE,
        name: undefined,
        criteria: 'A support reply, judged strictly.',
      })
    ).json<RubricVersion>();
    const put = (version: number) =>
      api(`/v1/rubrics/${v1.id}/tags/prod`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ version }),
      });
    expect((await put(1)).status).toBe(200);
    const first = await judged(`${v1.id}#prod`, 'tag-1');
    // rubric-judge's form carries evaluation steps: it records the version's content with the steps written for it.
    expect(first.rubric).toEqual({ id: v1.id, version: 1, hash: await judgedHash(v1.id, 1) });
    expect((await put(2)).status).toBe(200);
    const second = await judged(`${v1.id}#prod`, 'tag-2');
    expect(second.rubric).toEqual({ id: v1.id, version: 2, hash: await judgedHash(v1.id, 2) });
    expect(second.rubric?.hash).not.toBe(v2.hash);
    // The one judged earlier keeps what it judged by.
    expect((await (await api(`/v1/evaluations/${first.id}`)).json<Evaluation>()).rubric?.version).toBe(1);
    const rubric = await (await api(`/v1/rubrics/${v1.id}`)).json<Rubric>();
    expect(rubric.tags.map((t) => [t.tag, t.version])).toEqual([['prod', 2]]);
    expect((await put(9)).status).toBe(404);
    // A mistyped tag: 404 naming the field, with the tag it likely meant.
    const typo = await judge(`${v1.id}#prdo`, 'tag-typo');
    expect(typo.status).toBe(404);
    expect((await errorOf(typo)).message).toBe(`rubric: rubric "${v1.id}" has no tag "prdo" (did you mean "prod"?)`);
  });

  it('a tag requiring a minimum agreement refuses a version without a check, 409 naming the figure', async () => {
    const v1 = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const r = await api(`/v1/rubrics/${v1.id}/tags/prod`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: 1, minAgreement: { metric: 'accuracy', min: 0.8 } }),
    });
    expect(r.status).toBe(409);
    const e = await errorOf(r);
    expect(e.code).toBe('agreement_below_minimum');
    expect(e.message).toMatch(/^minAgreement\.accuracy: /);
    const wrongMetric = await api(`/v1/rubrics/${v1.id}/tags/prod`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: 1, minAgreement: { metric: 'pearson', min: 0.5 } }),
    });
    expect(wrongMetric.status).toBe(400);
    expect((await errorOf(wrongMetric)).issues?.[0]?.path).toBe('minAgreement.metric');
  });

  it('archive keeps every version readable and judges only by an explicit version', async () => {
    const v1 = await created();
    const a = await api(`/v1/rubrics/${v1.id}/archive`, { method: 'POST' });
    expect(a.status).toBe(200);
    expect((await a.json<Rubric>()).archivedAt).not.toBeNull();
    expect((await api(`/v1/rubrics/${v1.id}/versions/1`)).status).toBe(200);
    const latest = await judge(v1.id, 'archived-1');
    expect(latest.status).toBe(409);
    const e = await errorOf(latest);
    expect(e.code).toBe('rubric_archived');
    expect(e.message).toMatch(/^rubric: /);
    expect((await judge(`${v1.id}@1`, 'archived-2')).status).toBe(202);
  });

  it('an archived rubric named by a tag suggests the version the tag points at, not the latest', async () => {
    const v1 = await created();
    const v2 = await postJson(`/v1/rubrics/${v1.id}/versions`, { ...POINTWISE_RUBRIC_EXAMPLE, name: undefined });
    expect(v2.status).toBe(201);
    const tag = await api(`/v1/rubrics/${v1.id}/tags/prod`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: 1 }),
    });
    expect(tag.status).toBe(200);
    expect((await api(`/v1/rubrics/${v1.id}/archive`, { method: 'POST' })).status).toBe(200);
    const byTag = await errorOf(await judge(`${v1.id}#prod`, 'archived-tag'));
    expect(byTag.code).toBe('rubric_archived');
    expect(byTag.message).toContain(`(${v1.id}@1, the version tag "prod" points at)`);
    const byId = await errorOf(await judge(v1.id, 'archived-latest'));
    expect(byId.message).toContain(`(${v1.id}@2)`);
  });
});

describe('the rubric an evaluation judged by', () => {
  it('scores every aspect through the pipeline and records {id, version, hash}', async () => {
    const v1 = await created();
    const ev = await judged(v1.id, 'aspects-1');
    expect(ev.status).toBe('succeeded');
    expect(ev.rubric).toEqual({ id: v1.id, version: 1, hash: await judgedHash(v1.id, 1) });
    // Each aspect got its own auto-CoT steps, stored on the version.
    const steps = (await (await api(`/v1/rubrics/${v1.id}/versions/1`)).json<RubricVersion>()).steps;
    expect(steps?.aspects?.map((a) => [a.name, typeof a.evaluationSteps])).toEqual([
      ['policy', 'string'],
      ['tone', 'string'],
      ['next step', 'string'],
    ]);
    expect(ev.verdict?.aspects?.map((a) => a.name)).toEqual(['policy', 'tone', 'next step']);
    expect(typeof ev.verdict?.overall).toBe('number');
    expect(ev.verdict?.aspects?.map((a) => a.weight)).toEqual([2, 1, 1]);
  });

  it('an inline rubric records its hash only', async () => {
    const inline = { kind: 'pairwise' as const, criteria: 'Which answer names the right city.' };
    const ev = await judged(inline, 'inline-1', PAIRWISE, 'chateval-single');
    expect(ev.status).toBe('succeeded');
    expect(ev.rubric).toEqual({ hash: await rubricHash(RubricContentSchema.parse(inline)) });
  });
});

describe('eviction', () => {
  it("a rubric survives the object's eviction mid-debate: the replay rebuilds the same state and verdict", async () => {
    const ns = `rubric-evict-${Date.now()}`;
    await stubbornCritic(ns);
    const seed = `rubric-evict-seed-${Date.now()}`;
    const rubric = {
      kind: 'pointwise' as const,
      criteria: 'Faithfulness: every claim of the summary is stated in the source.',
      scale: { min: 1, max: 5 },
    };
    const content = RubricContentSchema.parse(rubric);
    const submit = async () => {
      const r = await postJson('/v1/evaluations', {
        ...LONG_DEBATE,
        config: { ...LONG_DEBATE.config, defaults: { model: mockModel({ mode: 'scripted', ns, seed, latency: 60 }) } },
        task: POINTWISE_TASK,
        rubric,
        // The same request twice, each judged (a verdict cache hit would run no debate to evict).
        cache: 'off',
      });
      expect(r.status, await r.clone().text()).toBe(202);
      return (await r.json<EvaluationAccepted>()).id;
    };
    const ref = await submit();
    expect((await waitForEnd(ref)).status).toBe('succeeded');
    const expected = (await storedVerdict(ref))!;

    const id = await submit();
    await waitForSnapshot(id, (s) => (s?.callsDone ?? 0) >= 3);
    await abortAllDurableObjects(); // evicts every object, this one included
    // The fresh instance rebuilds the engine from its storage: config, task and the rubric.
    expect(await runInTestObject(id, (o) => o.engineRubric())).toEqual(content);
    await evaluationStub(testEnv, id).start(id);
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const got = (await storedVerdict(id))!;
    expect(got.score).toBe(expected.score);
    expect(got.calls).toBe(expected.calls);
    expect((await (await api(`/v1/evaluations/${id}`)).json<Evaluation>()).rubric).toEqual({
      hash: await rubricHash(content),
    });
  });
});

describe('a batch judged by one rubric', () => {
  it('records the rubric on every item and summarises every aspect', async () => {
    const v1 = await created();
    const id = await createBatchId({
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: 'batch-aspects' }) } },
      rubric: `${v1.id}@1`,
      items: [0, 1, 2].map((i) => ({ task: { ...POINTWISE_TASK, output: `Reply ${i}.` } })),
    });
    const done = await waitForBatch(id);
    expect(done.counts.succeeded).toBe(3);
    expect(done.verdicts.aspects.map((a) => [a.name, a.verdicts])).toEqual([
      ['policy', 3],
      ['tone', 3],
      ['next step', 3],
    ]);
    for (const a of done.verdicts.aspects) expect(a.meanScore).toBeGreaterThanOrEqual(1);
    const { lines } = await resultsPage(id);
    const hash = await judgedHash(v1.id, 1);
    expect(lines.map((l) => l.rubric)).toEqual(Array(3).fill({ id: v1.id, version: 1, hash }));
    expect(lines[0]?.verdict?.aspects).toHaveLength(3);
  });

  it("an item's own rubric overrides the batch's; a wrong one is refused naming items.N.rubric", async () => {
    const { name: _n, examples: _e, ...content } = POINTWISE_RUBRIC_EXAMPLE;
    const other = { ...content, criteria: 'A reply judged for brevity alone.' };
    const stored = await created({ ...POINTWISE_RUBRIC_EXAMPLE, autoSteps: false });
    const body = (items: unknown[]) => ({
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: 'batch-item-rubric' }) } },
      rubric: content,
      items,
    });
    const id = await createBatchId(
      body([
        { task: POINTWISE_TASK },
        { task: { ...POINTWISE_TASK, output: 'Short.' }, rubric: other },
        { task: { ...POINTWISE_TASK, output: 'Stored.' }, rubric: `${stored.id}@1` },
      ]),
    );
    expect((await waitForBatch(id)).counts.succeeded).toBe(3);
    const { lines } = await resultsPage(id);
    const hash = async (c: unknown) => rubricHash(RubricContentSchema.parse(c));
    expect(lines.map((l) => l.rubric)).toEqual([
      { hash: await hash(content) },
      { hash: await hash(other) },
      { id: stored.id, version: 1, hash: stored.hash },
    ]);
    const pairwise = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const wrongKind = await postJson(
      '/v1/batches',
      body([{ task: POINTWISE_TASK }, { task: POINTWISE_TASK, rubric: pairwise.id }]),
    );
    expect(wrongKind.status).toBe(400);
    const e = await errorOf(wrongKind);
    expect([e.code, e.issues?.map((i) => i.path)]).toEqual(['rubric_task_mismatch', ['items.1.rubric']]);
    const unknown = await postJson('/v1/batches', body([{ task: POINTWISE_TASK, rubric: `${stored.id}@7` }]));
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/^items\.0\.rubric: /);
  });

  it('refuses a rubric of the other kind naming rubric and the item', async () => {
    const pairwise = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const r = await postJson('/v1/batches', {
      preset: 'rubric-judge',
      config: { defaults: { model: 'mock-judge' } },
      rubric: pairwise.id,
      items: [{ task: POINTWISE_TASK }],
    });
    expect(r.status).toBe(400);
    expect((await errorOf(r)).message).toMatch(/^rubric.*items\.0/);
  });
});

describe('POST /v1/estimates with a rubric', () => {
  it("counts each aspect's run where the judge scores one aspect at a time", async () => {
    const v1 = await created();
    const est = async (preset: string, rubric?: string) => {
      const r = await postJson('/v1/estimates', {
        preset,
        task: POINTWISE_TASK,
        ...(rubric ? { rubric } : {}),
      });
      expect(r.status, await r.clone().text()).toBe(200);
      return (await r.json<{ calls: { min: number; max: number } }>()).calls;
    };
    // rubric-judge scores every aspect in one call; G-Eval one run per aspect. Both carry evaluation steps, which
    // this version does not have yet: the auto-CoT run that writes them (one call per aspect) counts once.
    expect((await est('rubric-judge', v1.id)).max).toBe(1 + 3);
    const off = await created({ ...POINTWISE_RUBRIC_EXAMPLE, autoSteps: false });
    expect((await est('rubric-judge', off.id)).max).toBe(1);
    const one = await est('geval-summeval', `${v1.id}@1`);
    expect(one.max).toBe(
      3 *
        (
          await est(
            'geval-summeval',
            (await created({ ...POINTWISE_RUBRIC_EXAMPLE, aspects: undefined, examples: undefined })).id,
          )
        ).max,
    );
    const unknown = await postJson('/v1/estimates', {
      preset: 'rubric-judge',
      task: POINTWISE_TASK,
      rubric: `${v1.id}#none`,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('the OpenAI-compatible endpoint', () => {
  it('takes {"rubric": …, "task": …} in the user message and records the rubric', async () => {
    const v1 = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const r = await postJson('/v1/chat/completions', {
      model: 'tribunal/chateval-single@mock-judge',
      messages: [{ role: 'user', content: JSON.stringify({ rubric: `${v1.id}@1`, task: PAIRWISE }) }],
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const id = r.headers.get('Tribunal-Evaluation-Id');
    expect(id).toMatch(/^ev_/);
    const ev = await (await api(`/v1/evaluations/${id ?? ''}`)).json<Evaluation>();
    expect(ev.rubric).toEqual({ id: v1.id, version: 1, hash: v1.hash });
    const bad = await postJson('/v1/chat/completions', {
      model: 'tribunal/chateval-single@mock-judge',
      messages: [{ role: 'user', content: JSON.stringify({ rubric: `${v1.id}@1`, task: PAIRWISE, extra: 1 }) }],
    });
    expect(bad.status).toBe(400);
  });

  it('answers a rubric it cannot judge by with a documented status naming param "rubric", streamed or not', async () => {
    const v1 = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const chat = (rubric: string, task: unknown = PAIRWISE, stream = false) =>
      postJson('/v1/chat/completions', {
        model: 'tribunal/chateval-single@mock-judge',
        messages: [{ role: 'user', content: JSON.stringify({ rubric, task }) }],
        ...(stream ? { stream } : {}),
      });
    const refused = async (r: Response, status: number, code: string) => {
      const body = await r.clone().text();
      expect(r.status, body).toBe(status);
      const error = (JSON.parse(body) as { error: { code: string; param: string | null; message: string } }).error;
      expect(error.code, body).toBe(code);
      expect(error.param, body).toBe('rubric');
      expect(error.message, body).toMatch(/^rubric/);
    };
    for (const stream of [false, true]) {
      await refused(await chat(`${v1.id}#prdo`, PAIRWISE, stream), 404, 'not_found');
      await refused(await chat(`${v1.id}@9`, PAIRWISE, stream), 404, 'not_found');
    }
    await refused(await chat(v1.id, POINTWISE_TASK), 400, 'rubric_task_mismatch');
    expect((await api(`/v1/rubrics/${v1.id}/archive`, { method: 'POST' })).status).toBe(200);
    await refused(await chat(v1.id), 409, 'rubric_archived');
  });
});

describe('a trigger naming a rubric', () => {
  it('resolves the reference at each delivery: when the tag moves, the trigger follows', async () => {
    const { key } = await tenantWithKey();
    const post = (path: string, body: unknown, method = 'POST') => keyed(path, as(key, { body, method }));
    const v1 = await (await post('/v1/rubrics', PAIRWISE_RUBRIC_EXAMPLE)).json<RubricVersion>();
    await post(`/v1/rubrics/${v1.id}/versions`, { criteria: 'Which reply names the right city.' });
    expect((await post(`/v1/rubrics/${v1.id}/tags/prod`, { version: 1 }, 'PUT')).status).toBe(200);
    const mapping = { task: { kind: 'pairwise', question: '/prompt', answerA: '/a', answerB: '/b' } };
    const t = await post('/v1/triggers', {
      preset: 'chateval-single',
      config: { defaults: { model: 'mock-judge' } },
      mapping,
      rubric: `${v1.id}#prod`,
    });
    expect(t.status, await t.clone().text()).toBe(201);
    const trigger = await t.json<{ url: string; secret: string; rubric: unknown }>();
    expect(trigger.rubric).toBe(`${v1.id}#prod`);
    const versionOf = async () => {
      const r = await sendHook(trigger);
      expect(r.status, await r.clone().text()).toBe(202);
      const { evaluationId } = await r.json<{ evaluationId: string }>();
      const ev = await (await keyed(`/v1/evaluations/${evaluationId}`, as(key))).json<Evaluation>();
      return ev.rubric?.version;
    };
    expect(await versionOf()).toBe(1);
    expect((await post(`/v1/rubrics/${v1.id}/tags/prod`, { version: 2 }, 'PUT')).status).toBe(200);
    expect(await versionOf()).toBe(2);
    // A rubric of the other kind is refused when the trigger is created, naming rubric.
    const bad = await post('/v1/triggers', {
      preset: 'rubric-judge',
      mapping: {
        task: {
          kind: 'pointwise',
          source: '/a',
          output: '/b',
          aspect: { value: { name: 'q', scale: { min: 1, max: 5 } } },
        },
      },
      rubric: v1.id,
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^rubric/);
  });
});

describe('bad input, each naming its field', () => {
  const base = { name: 'n', kind: 'pointwise', criteria: 'Is it good.', scale: { min: 1, max: 5 } };
  const aspect = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    criteria: `About ${name}.`,
    ...extra,
  });
  const cases: [string, Record<string, unknown>, string][] = [
    ['empty criteria', { ...base, criteria: '' }, 'criteria'],
    ['oversized criteria', { ...base, criteria: 'x'.repeat(100_000) }, 'criteria'],
    ['max <= min', { ...base, scale: { min: 5, max: 5 } }, 'scale'],
    ['a non-positive weight', { ...base, aspects: [aspect('a', { weight: 0 })] }, 'aspects.0.weight'],
    ['duplicate aspect names', { ...base, aspects: [aspect('a'), aspect('a')] }, 'aspects'],
    ['more than 16 aspects', { ...base, aspects: Array.from({ length: 17 }, (_, i) => aspect(`a${i}`)) }, 'aspects'],
    [
      'an example of the other kind',
      { ...base, examples: [{ task: PAIRWISE, expected: 'A' }] },
      'examples.0.task.kind',
    ],
    [
      'an example off the scale',
      { ...base, scale: { min: 1, max: 5 }, examples: [{ task: POINTWISE_TASK, expected: 9 }] },
      'examples.0.expected',
    ],
  ];
  for (const [what, body, field] of cases) {
    it(`${what} → 400 naming ${field}`, async () => {
      const r = await postJson('/v1/rubrics', body);
      expect(r.status).toBe(r.status === 413 ? 413 : 400);
      if (r.status === 413) return;
      const e = await errorOf(r);
      expect(
        e.issues?.some((i) => i.path.startsWith(field)),
        JSON.stringify(e),
      ).toBe(true);
    });
  }

  it('an unknown rubric, version or tag → 404 naming rubric', async () => {
    const v1 = await created();
    for (const ref of [`rb_${'0'.repeat(32)}`, `${v1.id}@7`, `${v1.id}#nope`]) {
      const r = await judge(ref, `unknown-${ref}`);
      expect(r.status, ref).toBe(404);
      expect((await errorOf(r)).message).toMatch(/^rubric: /);
    }
    expect((await api(`/v1/rubrics/${v1.id}/versions/7`)).status).toBe(404);
  });

  it('a pairwise rubric on a pointwise task (and the reverse) → 400 naming rubric', async () => {
    const pairwise = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const r = await judge(pairwise.id, 'mismatch-1', POINTWISE_TASK, 'rubric-judge');
    expect(r.status).toBe(400);
    expect((await errorOf(r)).message).toMatch(/^rubric/);
    const pointwise = await created();
    const back = await judge(pointwise.id, 'mismatch-2', PAIRWISE, 'chateval-single');
    expect(back.status).toBe(400);
    const e = await errorOf(back);
    expect(e.code).toBe('rubric_task_mismatch');
    expect(e.message).toMatch(/^rubric/);
  });

  it('an inline rubric with a bad field → 400 naming rubric.<field>', async () => {
    const r = await judge({ kind: 'pointwise', criteria: '' }, 'inline-bad');
    expect(r.status).toBe(400);
    const e = await errorOf(r);
    expect(e.issues?.map((i) => i.path)).toContain('rubric.criteria');
  });
});

describe('GET /v1/evaluations?rubric=', () => {
  it('lists what a rubric, or one version of it, judged: newest first, paged, tenant-scoped; a malformed value is a 400 naming rubric', async () => {
    const v1 = await created(PAIRWISE_RUBRIC_EXAMPLE);
    const { name: _n, examples: _e, ...content } = PAIRWISE_RUBRIC_EXAMPLE;
    const v2 = await postJson(`/v1/rubrics/${v1.id}/versions`, { ...content, criteria: 'Names the right city.' });
    expect(v2.status).toBe(201);
    const a = await judged(`${v1.id}@1`, 'list-rubric-1', PAIRWISE, 'chateval-single');
    const b = await judged(`${v1.id}@2`, 'list-rubric-2', PAIRWISE, 'chateval-single');
    const c = await judged(v1.id, 'list-rubric-3', PAIRWISE, 'chateval-single');
    // An inline rubric with the same content as version 1 is not that rubric.
    await judged(content, 'list-rubric-4', PAIRWISE, 'chateval-single');
    type Page = { data: { id: string }[]; nextCursor: string | null };
    const page = async (query: string): Promise<Page> => {
      const r = await api(`/v1/evaluations?${query}`);
      expect(r.status, await r.clone().text()).toBe(200);
      return r.json<Page>();
    };
    const ids = async (query: string) => (await page(query)).data.map((e) => e.id);
    expect(await ids(`rubric=${v1.id}`)).toEqual([c.id, b.id, a.id]);
    expect(await ids(`rubric=${v1.id}@2`)).toEqual([c.id, b.id]);
    expect(await ids(`rubric=${v1.id}@3`)).toEqual([]);
    const first = await page(`rubric=${v1.id}&limit=2`);
    expect(first.data.map((e) => e.id)).toEqual([c.id, b.id]);
    const rest = await page(`rubric=${v1.id}&limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(rest).toEqual({ data: [expect.objectContaining({ id: a.id })], nextCursor: null });
    const other = await tenantWithKey();
    const theirs = await keyed(`/v1/evaluations?rubric=${v1.id}`, as(other.key));
    expect((await theirs.json<Page>()).data).toEqual([]);
    for (const bad of ['rb_nope', `${v1.id}@0`, `${v1.id}#prod`, `${v1.id}@x`]) {
      const r = await api(`/v1/evaluations?rubric=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      const e = await errorOf(r);
      expect(
        e.issues?.map((i) => i.path),
        bad,
      ).toEqual(['rubric']);
    }
  });
});

describe('tenant isolation', () => {
  it("another tenant's rubric is 404 everywhere", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const r = await keyed('/v1/rubrics', as(a.key, { body: POINTWISE_RUBRIC_EXAMPLE }));
    expect(r.status).toBe(201);
    const v = await r.json<RubricVersion>();
    expect((await keyed(`/v1/rubrics/${v.id}`, as(a.key))).status).toBe(200);
    expect((await keyed(`/v1/rubrics/${v.id}`, as(b.key))).status).toBe(404);
    expect((await keyed(`/v1/rubrics/${v.id}/versions/1`, as(b.key))).status).toBe(404);
    expect((await keyed(`/v1/rubrics/${v.id}/versions`, as(b.key, { body: { criteria: 'x' } }))).status).toBe(404);
    const list = await (await keyed('/v1/rubrics', as(b.key))).json<{ data: Rubric[] }>();
    expect(list.data).toEqual([]);
    const ev = await keyed(
      '/v1/evaluations',
      as(b.key, {
        body: {
          preset: 'rubric-judge',
          config: { defaults: { model: 'mock-judge' } },
          task: POINTWISE_TASK,
          rubric: v.id,
        },
      }),
    );
    expect(ev.status).toBe(404);
  });
});
