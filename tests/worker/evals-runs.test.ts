/**
 * The Evals contract through the real `openai` SDK against the Worker and the mock LLM (every answer checked
 * against the served OpenAPI document): create an eval with every grader type, run it on a `jsonl` source
 * and on a `completions` source, poll until it ends, read the output items. `string_check` and
 * `text_similarity` scores equal values computed here from the texts; model graders answer within their
 * `range` and `labels`. Also: cancel, delete, resuming a run whose worker died, and the 400s of sources
 * Tribunal does not read.
 */
import { APIError } from 'openai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { mockEmbedding } from '../../src/mock-llm/embeddings.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { mockRequests, pollUntil, testEnv } from './helpers.js';
import { EXACT_CHECK, judgeModel, sdk, ITEM_SCHEMA } from './openai-support.js';
import { ADMIN_TOKEN, as, keyed as keyedFetch, tenantWithKey } from './tenants-helpers.js';

const client = sdk();
type Run = OpenAI.Evals.RunRetrieveResponse;

const GRADER_SEED = 'evals-runs-grader';
const GRADER_MODEL = mockModel({ seed: GRADER_SEED });
const judgeInput = [
  { role: 'system' as const, content: 'You grade answers to questions.' },
  {
    role: 'user' as const,
    content: 'Question: {{item.question}}\nReference: {{item.answer}}\nAnswer: {{sample.output_text}}',
  },
];

/** Every grader type, each reading the item and the sample. */
const CRITERIA = [
  EXACT_CHECK,
  {
    type: 'string_check',
    name: 'mentions',
    operation: 'ilike',
    input: '{{sample.output_text}}',
    reference: '{{item.answer}}',
  },
  ...(['rouge_1', 'fuzzy_match', 'cosine'] as const).map((metric) => ({
    type: 'text_similarity',
    name: metric,
    input: '{{sample.output_text}}',
    reference: '{{item.answer}}',
    evaluation_metric: metric,
    pass_threshold: 0.5,
  })),
  {
    type: 'label_model',
    name: 'verdict',
    model: GRADER_MODEL,
    input: judgeInput,
    labels: ['correct', 'incorrect', 'partial'],
    passing_labels: ['correct', 'partial'],
  },
  { type: 'score_model', name: 'quality', model: GRADER_MODEL, input: judgeInput, range: [1, 7], pass_threshold: 4 },
  {
    type: 'multi',
    name: 'blend',
    graders: {
      exact: EXACT_CHECK,
      loose: {
        type: 'string_check',
        name: 'loose',
        operation: 'ilike',
        input: '{{sample.output_text}}',
        reference: '{{item.answer}}',
      },
    },
    calculate_output: '0.25 * exact + 0.75 * loose',
    pass_threshold: 0.5,
  },
];

const ITEMS = [
  { question: 'Capital of France?', answer: 'Paris' },
  { question: 'Largest planet?', answer: 'Jupiter' },
  { question: 'Author of Hamlet?', answer: 'William Shakespeare' },
];
const SAMPLES = ['Paris', 'It is jupiter, the gas giant', 'Christopher Marlowe'];

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** ROUGE-1 F1 from the definition. */
function rouge1(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const left = new Map<string, number>();
  for (const w of y) left.set(w, (left.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const w of x) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      overlap += 1;
      left.set(w, n - 1);
    }
  }
  return overlap === 0 ? 0 : (2 * overlap) / (x.length + y.length);
}

/** rapidfuzz's `ratio` (Indel similarity, 2·LCS / total length), as fuzzball rounds it. */
function fuzzRatio(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return Math.round((200 * dp[a.length]![b.length]!) / (a.length + b.length)) / 100;
}

/** The cosine of the mock provider's embeddings of the two texts. */
function cosine(a: string, b: string): number {
  const x = mockEmbedding(a);
  const y = mockEmbedding(b);
  const dot = x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, c) => s + c * c, 0));
  return norm(x) === 0 || norm(y) === 0 ? 0 : Math.min(1, Math.max(0, dot / (norm(x) * norm(y))));
}

async function createEval(): Promise<string> {
  const ev = await client.evals.create({
    name: 'contract',
    data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
    testing_criteria: CRITERIA as never,
  });
  return ev.id;
}

function ended(evalId: string, runId: string): Promise<Run> {
  return pollUntil(
    () => client.evals.runs.retrieve(runId, { eval_id: evalId }),
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
    30_000,
    50,
  );
}

/** Checks every output item's results against values computed here from its item and sample text. */
async function checkItems(evalId: string, run: Run, samples: (i: OpenAI.Evals.Runs.OutputItemListResponse) => string) {
  const items: OpenAI.Evals.Runs.OutputItemListResponse[] = [];
  for await (const i of client.evals.runs.outputItems.list(run.id, { eval_id: evalId, limit: 2 })) items.push(i);
  expect(items.map((i) => i.datasource_item_id)).toEqual([0, 1, 2]);
  for (const i of items) {
    const text = samples(i);
    const answer = String(i.datasource_item.answer);
    const score = (name: string) => i.results.find((r) => r.name === name)?.score;
    expect(i.results.map((r) => r.name)).toEqual(CRITERIA.map((c) => c.name));
    expect(score('exact')).toBe(text === answer ? 1 : 0);
    const loose = text.toLowerCase().includes(answer.toLowerCase()) ? 1 : 0;
    expect(score('mentions')).toBe(loose);
    expect(score('rouge_1')).toBeCloseTo(rouge1(text, answer), 12);
    expect(score('fuzzy_match')).toBeCloseTo(fuzzRatio(text, answer), 12);
    expect(score('cosine')).toBeCloseTo(cosine(text, answer), 12);
    expect(score('blend')).toBeCloseTo(0.25 * (text === answer ? 1 : 0) + 0.75 * loose, 12);
    const verdict = i.results.find((r) => r.name === 'verdict');
    expect(['correct', 'incorrect', 'partial']).toContain(verdict?.label);
    expect(verdict?.passed).toBe(verdict?.label !== 'incorrect');
    const quality = score('quality') ?? -1;
    expect(quality).toBeGreaterThanOrEqual(1);
    expect(quality).toBeLessThanOrEqual(7);
    expect(i.status).toBe(i.results.every((r) => r.passed) ? 'pass' : 'fail');
    expect(await client.evals.runs.outputItems.retrieve(i.id, { eval_id: evalId, run_id: run.id })).toEqual(i);
  }
  const passed = items.filter((i) => i.status === 'pass').length;
  expect(run.result_counts).toEqual({ total: 3, passed, failed: 3 - passed, errored: 0 });
  for (const c of run.per_testing_criteria_results) {
    const n = items.filter((i) => i.results.find((r) => r.name === c.testing_criteria)?.passed).length;
    expect(c).toEqual({ testing_criteria: c.testing_criteria, passed: n, failed: 3 - n });
  }
  return items;
}

describe('the Evals contract through the openai SDK', () => {
  it('jsonl: items with their samples, every grader type, values computed independently', async () => {
    const evalId = await createEval();
    const created = await client.evals.runs.create(evalId, {
      name: 'given samples',
      data_source: {
        type: 'jsonl',
        source: {
          type: 'file_content',
          content: ITEMS.map((item, n) => ({ item, sample: { output_text: SAMPLES[n] } })),
        },
      },
    });
    expect(created).toMatchObject({ object: 'eval.run', eval_id: evalId, status: 'queued' });
    const run = await ended(evalId, created.id);
    expect(run.status).toBe('completed');
    // The viewer's page of the run, on the origin the request came to.
    expect(run.report_url).toBe(`${new URL(run.report_url).origin}/#/evals/${evalId}/runs/${run.id}`);
    const items = await checkItems(evalId, run, (i) => SAMPLES[i.datasource_item_id] ?? '');
    // Two model graders per item: 6 calls of the grader model.
    expect(run.per_model_usage).toEqual([expect.objectContaining({ model_name: GRADER_MODEL, invocation_count: 6 })]);
    // A line's own sample, in the shape OpenAI's SDK types (never null).
    expect(items.map((i) => i.sample.output)).toEqual(SAMPLES.map((content) => [{ role: 'assistant', content }]));
    const passing = await client.evals.runs.outputItems.list(run.id, { eval_id: evalId, status: 'pass' });
    expect(passing.data.map((i) => i.datasource_item_id)).toEqual(
      items.filter((i) => i.status === 'pass').map((i) => i.datasource_item_id),
    );
    const listed = await client.evals.runs.list(evalId);
    expect(listed.data.map((r) => r.id)).toEqual([run.id]);
  });

  it('completions: samples the model from input_messages, then grades the samples', async () => {
    const evalId = await createEval();
    const sampler = mockModel({ seed: 'evals-runs-sampler' });
    const created = await client.evals.runs.create(evalId, {
      data_source: {
        type: 'completions',
        model: sampler,
        input_messages: {
          type: 'template',
          template: [{ role: 'user', content: 'Answer briefly: {{item.question}}' }],
        },
        sampling_params: { temperature: 0, max_completion_tokens: 64 },
        source: { type: 'file_content', content: ITEMS.map((item) => ({ item })) },
      },
    });
    const run = await ended(evalId, created.id);
    expect(run.status).toBe('completed');
    expect(run.model).toBe(sampler);
    const items = await checkItems(evalId, run, (i) => i.sample.output[0]?.content ?? '');
    for (const i of items) {
      expect(i.sample).toMatchObject({
        model: sampler,
        finish_reason: 'stop',
        temperature: 0,
        max_completion_tokens: 64,
      });
      expect(i.sample.input).toEqual([
        { role: 'user', content: `Answer briefly: ${String(i.datasource_item.question)}` },
      ]);
      expect(i.sample.usage.total_tokens).toBeGreaterThan(0);
    }
    const byModel = Object.fromEntries(run.per_model_usage.map((u) => [u.model_name, u.invocation_count]));
    expect(byModel).toEqual({ [sampler]: 3, [GRADER_MODEL]: 6 });
  });

  it('responses: samples the model through the Responses API with its sampling_params; stored responses are a 400 naming the field', async () => {
    const evalId = await createEval();
    const seed = 'evals-runs-responses';
    const sampler = mockModel({ seed });
    const scored = { type: 'object', properties: { score: { type: 'number', minimum: 1, maximum: 5 } } };
    const created = await client.evals.runs.create(evalId, {
      data_source: {
        type: 'responses',
        model: sampler,
        input_messages: {
          type: 'template',
          template: [
            { role: 'system', content: 'You grade briefly.' },
            { role: 'user', content: 'Answer briefly: {{item.question}}' },
          ],
        },
        sampling_params: {
          temperature: 0,
          top_p: 0.5,
          max_completion_tokens: 64,
          reasoning_effort: 'low',
          text: { format: { type: 'json_schema', name: 'scored', schema: scored, strict: true } },
        },
        source: { type: 'file_content', content: ITEMS.map((item) => ({ item })) },
      },
    });
    const run = await ended(evalId, created.id);
    expect(run).toMatchObject({ status: 'completed', model: sampler });
    const items = await checkItems(evalId, run, (i) => i.sample.output[0]?.content ?? '');
    for (const i of items) {
      expect(i.sample).toMatchObject({ model: sampler, finish_reason: 'stop', max_completion_tokens: 64, top_p: 0.5 });
      // text.format reached the mock: it answered in the schema's shape.
      const score = (JSON.parse(i.sample.output[0]?.content ?? 'null') as { score: number }).score;
      expect(score).toBeGreaterThanOrEqual(1);
      expect(score).toBeLessThanOrEqual(5);
      expect(i.sample.usage.total_tokens).toBe(i.sample.usage.prompt_tokens + i.sample.usage.completion_tokens);
      expect(i.sample.usage.total_tokens).toBeGreaterThan(0);
    }
    // Every sample went to the mock's POST /v1/responses, none to its chat completions.
    expect(await mockRequests(seed, 'responses')).toBe(3);
    expect(await mockRequests(seed)).toBe(0);
    const stored = await client.evals.runs
      .create(evalId, { data_source: { type: 'responses', source: { type: 'responses', model: 'gpt-4o' } } })
      .catch((e: unknown) => e);
    expect(stored).toBeInstanceOf(APIError);
    expect(stored).toMatchObject({ status: 400, param: 'data_source.source.type' });
    expect((stored as APIError).message).toMatch(/file_content/);
  });

  it('a run whose worker died is resumed by the next read: stored calls replay, nothing is billed twice', async () => {
    const evalId = await createEval();
    // The verdict cache off: the first test's run made the same grader calls.
    const run = await client.evals.runs.create(evalId, {
      ...{ cache: 'off' },
      data_source: {
        type: 'jsonl',
        source: {
          type: 'file_content',
          content: ITEMS.map((item, n) => ({ item, sample: { output_text: SAMPLES[n] } })),
        },
      },
    });
    const done = await ended(evalId, run.id);
    const before = await testEnv.DB.prepare('SELECT idx, created_at FROM eval_run_items WHERE run_id = ? ORDER BY idx')
      .bind(run.id)
      .all();
    const billed = () =>
      testEnv.DB.prepare(
        `SELECT count(*) AS n, sum(prompt_tokens + completion_tokens) AS tokens FROM usage
         WHERE evaluation_id IN (SELECT id FROM evaluations WHERE json_extract(metadata, '$.run_id') = ?)`,
      )
        .bind(run.id)
        .first<{ n: number; tokens: number }>();
    const bill = await billed();
    // Two model graders per item, each billed once.
    expect(bill?.n).toBe(6);
    // As if the worker had died after item 0, with item 1's model calls stored and item 2's not made yet.
    await testEnv.DB.batch([
      testEnv.DB.prepare('DELETE FROM eval_run_items WHERE run_id = ? AND idx > 0').bind(run.id),
      testEnv.DB.prepare('DELETE FROM eval_run_calls WHERE run_id = ? AND idx = 2').bind(run.id),
      testEnv.DB.prepare("UPDATE eval_runs SET status = 'in_progress', lease_until = 1 WHERE id = ?").bind(run.id),
    ]);
    const graderCalls = await mockRequests(GRADER_SEED);
    const again = await ended(evalId, run.id);
    expect(again.status).toBe('completed');
    // Only item 2's two model graders call the model again; item 1's stored calls are replayed.
    expect(await mockRequests(GRADER_SEED)).toBe(graderCalls + 2);
    expect(again.result_counts).toEqual(done.result_counts);
    // Nothing is billed twice: item 2's repeated calls keep their first usage rows.
    expect(await billed()).toEqual(bill);
    const after = await testEnv.DB.prepare('SELECT idx, created_at FROM eval_run_items WHERE run_id = ? ORDER BY idx')
      .bind(run.id)
      .all();
    expect(after.results[0]).toEqual(before.results[0]);
    expect(after.results).toHaveLength(3);
  });

  it('cancel stops a run, delete removes it, and unsupported sources are 400s saying what to send', async () => {
    const evalId = await createEval();
    const run = await client.evals.runs.create(evalId, {
      data_source: {
        type: 'jsonl',
        source: {
          type: 'file_content',
          content: ITEMS.map((item, n) => ({ item, sample: { output_text: SAMPLES[n] } })),
        },
      },
    });
    const cancelled = await client.evals.runs.cancel(run.id, { eval_id: evalId });
    expect(['canceled', 'completed']).toContain(cancelled.status);
    expect(await client.evals.runs.delete(run.id, { eval_id: evalId })).toEqual({
      object: 'eval.run.deleted',
      deleted: true,
      run_id: run.id,
    });
    const gone = await client.evals.runs.retrieve(run.id, { eval_id: evalId }).catch((e: unknown) => e);
    expect(gone instanceof APIError ? gone.status : gone).toBe(404);

    const refused = async (data_source: unknown) => {
      const e = await client.evals.runs.create(evalId, { data_source: data_source as never }).catch((x: unknown) => x);
      if (!(e instanceof APIError)) throw new Error('expected a 400');
      expect(e.status).toBe(400);
      return e.message;
    };
    expect(await refused({ type: 'responses', source: { type: 'responses' } })).toMatch(/completions/);
    expect(await refused({ type: 'jsonl', source: { type: 'file_id', id: 'file-abc' } })).toMatch(/POST \/v1\/files/);
    expect(await refused({ type: 'jsonl', source: { type: 'file_content', content: [{ item: ITEMS[0] }] } })).toMatch(
      /content\.0\.sample/,
    );
    // An item the eval's item_schema refuses is named by line and field before any call.
    const sample = { output_text: 'x' };
    expect(
      await refused({
        type: 'jsonl',
        source: {
          type: 'file_content',
          content: [
            { item: ITEMS[0], sample },
            { item: { question: 1, answer: 'x' }, sample },
          ],
        },
      }),
    ).toMatch(/content\.1\.item\.question: expected string, got integer/);
    expect(
      await refused({
        type: 'jsonl',
        source: { type: 'file_content', content: [{ item: { question: 'x' }, sample }] },
      }),
    ).toMatch(/content\.0\.item\.answer: required/);
    expect(
      await refused({
        type: 'completions',
        model: 'm',
        input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.nope}}' }] },
        source: { type: 'file_content', content: [{ item: ITEMS[0] }] },
      }),
    ).toMatch(/nope/);
  });
});

describe('a run is billed and capped as a batch of evaluations', () => {
  it("each model call is one usage row of the key's tenant, and each item counts against the monthly cap", async () => {
    const { tenant, key, keyId } = await tenantWithKey({ monthlyEvaluationCap: 4 });
    const keyed = sdk({ overrides: { ADMIN_TOKEN }, apiKey: key });
    const ev = await keyed.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: CRITERIA as never,
    });
    const source = {
      type: 'file_content' as const,
      content: ITEMS.map((item, n) => ({ item, sample: { output_text: SAMPLES[n] } })),
    };
    const created = await keyed.evals.runs.create(ev.id, { data_source: { type: 'jsonl', source } });
    const run = await pollUntil(
      () => keyed.evals.runs.retrieve(created.id, { eval_id: ev.id }),
      (r) => r.status !== 'queued' && r.status !== 'in_progress',
      30_000,
      50,
    );
    expect(run.status).toBe('completed');
    const usage = await testEnv.DB.prepare(
      `SELECT u.model, u.tenant, e.key_id FROM usage u JOIN evaluations e ON e.id = u.evaluation_id WHERE u.tenant = ?`,
    )
      .bind(tenant)
      .all<{ model: string; key_id: string }>();
    expect(usage.results).toHaveLength(6);
    expect(new Set(usage.results.map((u) => u.key_id))).toEqual(new Set([keyId]));
    const report = await (await keyedFetch('/v1/usage', as(key))).json<{ totals: { calls: number } }>();
    expect(report.totals.calls).toBe(6);
    // 3 items counted, 3 more would pass the cap of 4: refused in OpenAI's shape, nothing stored.
    const refused = await keyed.evals.runs
      .create(ev.id, { data_source: { type: 'jsonl', source } })
      .catch((e: unknown) => e);
    if (!(refused instanceof APIError)) throw new Error('expected a 429');
    expect(refused).toMatchObject({ status: 429, code: 'quota_exceeded', type: 'rate_limit_error' });
    expect((await keyed.evals.runs.list(ev.id)).data).toHaveLength(1);
  });
});

describe('a Tribunal judge as a grader model in a run', () => {
  it('each item is judged by one evaluation, and a repeated item finds it again instead of judging twice', async () => {
    const model = judgeModel('debate-summeval', { seed: 'evals-runs-judge' });
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [
        {
          type: 'score_model',
          name: 'judge',
          model,
          input: [
            {
              role: 'user',
              content: '[SOURCE]\n{{item.question}}\n[OUTPUT]\n{{sample.output_text}}\n[ASPECT]\ncorrectness (1-5)',
            },
          ],
          range: [1, 5],
          pass_threshold: 3,
        },
      ],
    });
    const source = {
      type: 'file_content' as const,
      content: ITEMS.map((item, n) => ({ item, sample: { output_text: SAMPLES[n] } })),
    };
    const run = await ended(
      ev.id,
      (await client.evals.runs.create(ev.id, { data_source: { type: 'jsonl', source } })).id,
    );
    expect(run.status).toBe('completed');
    const judged = async () =>
      (
        await testEnv.DB.prepare(
          `SELECT e.id, e.score FROM evaluations e
           WHERE e.idempotency_key LIKE ? AND e.confidence IS NOT NULL ORDER BY e.idempotency_key`,
        )
          .bind(`${run.id}:%`)
          .all<{ id: string; score: number }>()
      ).results;
    const first = await judged();
    expect(first).toHaveLength(3);
    const items: OpenAI.Evals.Runs.OutputItemListResponse[] = [];
    for await (const i of client.evals.runs.outputItems.list(run.id, { eval_id: ev.id })) items.push(i);
    // Each item's score is its evaluation's verdict (the scales match), and passes at 3.
    expect(items.map((i) => i.results[0]?.score)).toEqual(first.map((j) => j.score));
    for (const i of items) expect(i.results[0]?.passed).toBe((i.results[0]?.score ?? 0) >= 3);
    // As if the worker had died before storing item 1 and its call: the item's evaluation is found again.
    await testEnv.DB.batch([
      testEnv.DB.prepare('DELETE FROM eval_run_items WHERE run_id = ? AND idx = 1').bind(run.id),
      testEnv.DB.prepare('DELETE FROM eval_run_calls WHERE run_id = ? AND idx = 1').bind(run.id),
      testEnv.DB.prepare("UPDATE eval_runs SET status = 'in_progress', lease_until = 1 WHERE id = ?").bind(run.id),
    ]);
    const again = await ended(ev.id, run.id);
    expect(again.result_counts).toEqual(run.result_counts);
    expect(await judged()).toEqual(first);
  });
});
