/**
 * OpenAI's Evals API served by the Worker, driven by the real `openai` SDK (every answer checked against the
 * served OpenAPI document): evals create / retrieve / list / update / delete, the 400s of bad graders and
 * data sources, and `fineTuning.alpha.graders.run` / `validate` with every grader type against the mock LLM.
 */
import type { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { api } from './api-fetch.js';
import { testEnv } from './helpers.js';
import { EXACT_CHECK, judgeModel, failure, sdk, ITEM_SCHEMA } from './openai-support.js';

const client = sdk();

/** The `issues` paths of an error body. */
function pathsOf(e: APIError): string[] {
  const body: unknown = e.error;
  const issues = (body as { issues?: { path: string }[] } | undefined)?.issues ?? [];
  return issues.map((i) => i.path);
}

describe('evals CRUD through the openai SDK', () => {
  it('creates, retrieves, lists by pages, updates and deletes', async () => {
    const created = await client.evals.create({
      name: 'capitals',
      metadata: { team: 'geo' },
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [EXACT_CHECK],
    });
    expect(created).toMatchObject({ object: 'eval', name: 'capitals', metadata: { team: 'geo' } });
    expect(created.id).toMatch(/^eval_/);
    expect(created.data_source_config).toEqual({
      type: 'custom',
      schema: expect.objectContaining({
        properties: expect.objectContaining({ item: ITEM_SCHEMA, sample: expect.any(Object) }) as unknown,
        required: ['item', 'sample'],
      }) as unknown,
    });
    expect(created.testing_criteria).toEqual([EXACT_CHECK]);
    expect(await client.evals.retrieve(created.id)).toEqual(created);

    const more = [];
    for (const name of ['b', 'c']) {
      more.push(
        await client.evals.create({
          name,
          data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
          testing_criteria: [{ ...EXACT_CHECK, input: '{{item.question}}' }],
        }),
      );
    }
    const ids = [created.id, ...more.map((e) => e.id)];
    const first = await client.evals.list({ limit: 2 });
    expect(first.data.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.hasNextPage()).toBe(true);
    const seen: string[] = [];
    for await (const e of client.evals.list({ limit: 2 })) seen.push(e.id);
    expect(seen).toEqual(ids);
    const desc = await client.evals.list({ order: 'desc', limit: 10 });
    expect(desc.data.map((e) => e.id)).toEqual([...ids].reverse());

    const renamed = await client.evals.update(created.id, { name: 'capitals v2', metadata: { team: 'maps' } });
    expect(renamed).toMatchObject({ id: created.id, name: 'capitals v2', metadata: { team: 'maps' } });
    expect(await client.evals.delete(created.id)).toEqual({
      object: 'eval.deleted',
      deleted: true,
      eval_id: created.id,
    });
    expect((await failure(client.evals.retrieve(created.id))).status).toBe(404);
    expect((await failure(client.evals.delete(created.id))).status).toBe(404);
  });

  it("takes a multi grader's sub-graders as the SDK types them: a text_similarity there needs no pass_threshold", async () => {
    const created = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
      testing_criteria: [
        {
          type: 'multi',
          name: 'blend',
          graders: {
            e: { ...EXACT_CHECK, name: 'e', input: '{{item.question}}' },
            f: {
              type: 'text_similarity',
              name: 'f',
              input: '{{item.question}}',
              reference: '{{item.answer}}',
              evaluation_metric: 'fuzzy_match',
            },
          },
          calculate_output: '(e + f) / 2',
        },
      ] as never,
    });
    expect(created.testing_criteria).toHaveLength(1);
    // In the eval's own criteria the threshold is still required: it decides what passes.
    const alone = await failure(
      client.evals.create({
        data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
        testing_criteria: [
          {
            type: 'text_similarity',
            name: 'f',
            input: '{{item.question}}',
            reference: '{{item.answer}}',
            evaluation_metric: 'fuzzy_match',
          },
        ] as never,
      }),
    );
    expect(pathsOf(alone)).toEqual(['testing_criteria.0.pass_threshold']);
  });

  it('refuses logs and stored_completions, saying what to send instead', async () => {
    for (const type of ['logs', 'stored_completions'] as const) {
      const e = await failure(client.evals.create({ data_source_config: { type }, testing_criteria: [EXACT_CHECK] }));
      expect(e.status).toBe(400);
      expect(pathsOf(e)).toEqual(['data_source_config.type']);
      expect(e.message).toMatch(/"custom".*item_schema/);
    }
  });

  it('a bad grader type, a template naming a missing field and an out-of-range threshold are 400s naming the field', async () => {
    const body = (criteria: unknown[]) =>
      client.evals.create({
        data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
        testing_criteria: criteria as never,
      });
    const badType = await failure(body([{ ...EXACT_CHECK, type: 'regex_check' }]));
    expect(badType.status).toBe(400);
    expect(pathsOf(badType)[0]).toMatch(/^testing_criteria\.0/);
    const missing = await failure(body([{ ...EXACT_CHECK, input: '{{item.city}}', reference: '{{item.answer}}' }]));
    expect(pathsOf(missing)).toEqual(['testing_criteria.0.input']);
    expect(missing.message).toMatch(/"city"/);
    const noSample = await failure(body([EXACT_CHECK]));
    expect(pathsOf(noSample)).toEqual(['testing_criteria.0.input']);
    const threshold = await failure(
      body([
        {
          type: 'text_similarity',
          name: 'sim',
          input: '{{item.question}}',
          reference: '{{item.answer}}',
          evaluation_metric: 'bleu',
          pass_threshold: 2,
        },
      ]),
    );
    expect(pathsOf(threshold)).toEqual(['testing_criteria.0.pass_threshold']);
    const python = await failure(body([{ type: 'python', name: 'py', source: 'def grade(s, i):\n  return 1' }]));
    expect(python.status).toBe(400);
    expect(python.code).toBe('unsupported_grader');
    expect(python.message).toMatch(/string_check.*score_model/);
  });

  it('a field the SDK does not type, in a grader or a run, is a 400 naming it, never dropped', async () => {
    const evalBody = (criteria: unknown[]) =>
      client.evals.create({
        data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
        testing_criteria: criteria as never,
      });
    const typo = await failure(evalBody([{ ...EXACT_CHECK, case_sensitive: false }]));
    expect(typo).toMatchObject({ status: 400, param: 'testing_criteria.0.case_sensitive' });
    expect(typo.message).toMatch(/case_sensitive/);
    const scoreParams = await failure(
      evalBody([
        {
          type: 'score_model',
          name: 'score',
          model: mockModel({ seed: 'evals-api-strict' }),
          input: [{ role: 'user', content: 'Rate {{sample.output_text}}' }],
          sampling_params: { temperature: 0, presence_penalty: 1 },
        },
      ]),
    );
    expect(scoreParams.param).toBe('testing_criteria.0.sampling_params.presence_penalty');

    const ev = await evalBody([EXACT_CHECK]);
    const run = (dataSource: object) => failure(client.evals.runs.create(ev.id, { data_source: dataSource as never }));
    const sampled = (type: 'completions' | 'responses', sampling_params: object) => ({
      type,
      model: mockModel({ seed: 'evals-api-strict' }),
      input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.question}}' }] },
      sampling_params,
      source: { type: 'file_content', content: [{ item: { question: 'q', answer: 'a' } }] },
    });
    const unknown = await run(sampled('completions', { temperature: 0, frequency_penalty: 1 }));
    expect(unknown).toMatchObject({ status: 400, param: 'data_source.sampling_params.frequency_penalty' });
    // Each sampler takes its own API's format field: `response_format` is chat completions', `text` the Responses API's.
    const otherApi = await run(sampled('responses', { response_format: { type: 'json_object' } }));
    expect(otherApi.param).toBe('data_source.sampling_params.response_format');
    expect((await run(sampled('completions', { text: { format: { type: 'text' } } }))).param).toBe(
      'data_source.sampling_params.text',
    );
    const tools = await run(sampled('responses', { tools: [{ type: 'web_search' }] }));
    expect(tools.param).toBe('data_source.sampling_params.tools');
    expect(tools.message).toMatch(/tool calls are not sampled/);
    const onSource = await run({
      type: 'jsonl',
      source: { type: 'file_content', content: [{ item: { question: 'q', answer: 'a' }, label: 'x' }] },
    });
    expect(onSource.param).toBe('data_source.source.content.0.label');
  });
});

describe("errors in OpenAI's shape on the Evals routes", () => {
  it("the SDK reads param (the field), type and code; other routes keep Tribunal's shape", async () => {
    const missing = await failure(
      client.evals.create({
        data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
        testing_criteria: [{ ...EXACT_CHECK, input: '{{item.city}}' }],
      }),
    );
    expect(missing).toMatchObject({
      status: 400,
      param: 'testing_criteria.0.input',
      type: 'invalid_request_error',
      code: 'invalid_request',
    });
    const python = await failure(
      client.evals.create({
        data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
        testing_criteria: [{ type: 'python', name: 'py', source: 'x' }],
      }),
    );
    expect(python).toMatchObject({ param: 'testing_criteria.0.type', code: 'unsupported_grader' });
    const gone = await failure(client.evals.retrieve('eval_nope'));
    expect(gone).toMatchObject({ status: 404, param: null, type: 'invalid_request_error', code: 'not_found' });
    const badRun = await failure(client.evals.runs.retrieve('evalrun_nope', { eval_id: 'eval_nope' }));
    expect(badRun).toMatchObject({ status: 404, code: 'not_found', type: 'invalid_request_error' });
    const grader = await failure(
      client.fineTuning.alpha.graders.validate({ grader: { ...EXACT_CHECK, operation: 'regex' as never } }),
    );
    expect(grader).toMatchObject({ status: 400, param: 'grader.operation', code: 'invalid_request' });
    const query = await failure(client.evals.list({ limit: 2, dry_run: true } as never));
    expect(query).toMatchObject({ status: 400, param: 'dry_run', code: 'invalid_request' });
    // A retry of a refused body is useless: the SDK is told so.
    expect(missing.headers?.get('x-should-retry')).toBe('false');
    // Tribunal's own routes answer in Tribunal's shape as before.
    const own = await api('/v1/evaluations/ev_nope');
    expect(await own.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) as unknown } });
  });

  it("a 401 on the Evals routes is in OpenAI's shape too", async () => {
    const keyed = sdk({ overrides: { API_KEYS: 'trb-evals-secret' }, apiKey: 'wrong' });
    const e = await failure(keyed.evals.list());
    expect(e).toMatchObject({ status: 401, type: 'authentication_error', code: 'unauthorized', param: null });
  });
});

describe('graders run and validate through the openai SDK', () => {
  const run = (grader: unknown, model_sample: string, item?: Record<string, unknown>) =>
    client.fineTuning.alpha.graders.run({ grader: grader as never, model_sample, ...(item ? { item } : {}) });

  it('string_check, text_similarity and multi give their computed rewards', async () => {
    const item = { answer: 'Paris' };
    expect((await run({ ...EXACT_CHECK }, 'Paris', item)).reward).toBe(1);
    expect((await run({ ...EXACT_CHECK, operation: 'ilike' }, 'it is PARIS', item)).reward).toBe(1);
    const sim = await run(
      {
        type: 'text_similarity',
        name: 'sim',
        input: '{{sample.output_text}}',
        reference: '{{item.answer}}',
        evaluation_metric: 'rouge_1',
      },
      'Paris France',
      item,
    );
    // One shared unigram of 2 and 1: F1 = 2 * (1/2 * 1) / (1/2 + 1) = 2/3.
    expect(sim.reward).toBeCloseTo(2 / 3, 12);
    const multi = await run(
      {
        type: 'multi',
        name: 'combo',
        graders: { a: { ...EXACT_CHECK, name: 'a' }, b: { ...EXACT_CHECK, name: 'b', operation: 'ne' } },
        calculate_output: '0.25 * a + 0.75 * max(a, b)',
      },
      'Paris',
      item,
    );
    expect(multi.reward).toBe(1);
    expect(multi.sub_rewards).toEqual({ a: 1, b: 0 });
  });

  it('score_model and label_model answer within their range and labels through the mock LLM', async () => {
    const model = mockModel({ seed: 'evals-graders-run' });
    const input = [{ role: 'user', content: 'Is "{{sample.output_text}}" the capital of France? ({{item.answer}})' }];
    const score = await run({ type: 'score_model', name: 'sc', model, input, range: [1, 5] }, 'Paris', {
      answer: 'Paris',
    });
    expect(score.reward).toBeGreaterThanOrEqual(1);
    expect(score.reward).toBeLessThanOrEqual(5);
    expect(score.metadata.errors.model_grader_parse_error).toBe(false);
    expect(score.model_grader_token_usage_per_model[model]).toMatchObject({ invocation_count: 1 });
    const label = await run(
      { type: 'label_model', name: 'lb', model, input, labels: ['correct', 'incorrect'], passing_labels: ['correct'] },
      'Paris',
      { answer: 'Paris' },
    );
    expect([0, 1]).toContain(label.reward);
    expect(label.metadata.errors.model_grader_parse_error).toBe(false);
  });

  it('validate answers a good grader back and refuses python with unsupported_grader', async () => {
    expect(await client.fineTuning.alpha.graders.validate({ grader: EXACT_CHECK })).toEqual({ grader: EXACT_CHECK });
    const e = await failure(
      client.fineTuning.alpha.graders.validate({ grader: { type: 'python', name: 'p', source: 'x' } }),
    );
    expect(e.code).toBe('unsupported_grader');
  });
});

describe('a Tribunal judge as a model grader', () => {
  const run = (grader: unknown, model_sample: string, item: Record<string, unknown>) =>
    client.fineTuning.alpha.graders.run({ grader: grader as never, model_sample, item });

  /** The latest evaluation of `preset` with its verdict. */
  const latest = (preset: string) =>
    testEnv.DB.prepare(
      `SELECT e.id, e.score, e.winner FROM evaluations e
       WHERE e.preset = ? AND e.confidence IS NOT NULL ORDER BY e.created_at DESC LIMIT 1`,
    )
      .bind(preset)
      .first<{ id: string; score: number | null; winner: string | null }>();

  it("score_model: a pointwise judge's score mapped from its scale onto the grader's range", async () => {
    const model = judgeModel('debate-summeval', { seed: 'evals-judge-score' });
    const input = [
      {
        role: 'user',
        content: '[SOURCE]\n{{item.question}}\n[OUTPUT]\n{{sample.output_text}}\n[ASPECT]\ncorrectness (1-5)',
      },
    ];
    const r = await run({ type: 'score_model', name: 'judge', model, input, range: [0, 10] }, 'Paris', {
      question: 'Capital of France?',
    });
    expect(r.metadata.errors.model_grader_server_error).toBe(false);
    const verdict = await latest('debate-summeval');
    expect(verdict?.score).not.toBeNull();
    expect(r.reward).toBeCloseTo((((verdict?.score ?? 0) - 1) / 4) * 10, 12);
    expect(r.model_grader_token_usage_per_model[model]).toMatchObject({ invocation_count: 1 });
  });

  it("label_model: a pairwise judge's winner is the label", async () => {
    const model = judgeModel('fastchat-pair', { seed: 'evals-judge-label' });
    const input = [
      {
        role: 'user',
        content: '[QUESTION]\n{{item.question}}\n[ANSWER A]\n{{sample.output_text}}\n[ANSWER B]\n{{item.answer}}',
      },
    ];
    const grader = {
      type: 'label_model',
      name: 'pair',
      model,
      input,
      labels: ['A', 'B', 'tie'],
      passing_labels: ['A', 'tie'],
    };
    const r = await run(grader, 'Paris', { question: 'Capital of France?', answer: 'Lyon' });
    const verdict = await latest('fastchat-pair');
    expect(['A', 'B', 'tie']).toContain(verdict?.winner);
    expect(r.reward).toBe(verdict?.winner === 'B' ? 0 : 1);
  });

  it('an unknown judge, a judge given a system message, and a rubric as a model are 400s naming the field', async () => {
    const input = [{ role: 'user', content: '{{sample.output_text}}' }];
    const base = { type: 'score_model', name: 's', input, range: [0, 1] };
    const unknown = await failure(
      client.fineTuning.alpha.graders.validate({ grader: { ...base, model: 'tribunal/nope' } as never }),
    );
    expect(unknown).toMatchObject({ status: 400, param: 'grader.model' });
    expect(unknown.message).toMatch(/unknown preset "nope"/);
    const system = await failure(
      client.fineTuning.alpha.graders.validate({
        grader: {
          ...base,
          model: 'tribunal/fastchat-pair',
          input: [{ role: 'system', content: 'x' }, ...input],
        } as never,
      }),
    );
    expect(system).toMatchObject({ status: 400, param: 'grader.input' });
    const rubric = await failure(
      client.fineTuning.alpha.graders.validate({ grader: { ...base, model: 'rb_abc#prod' } as never }),
    );
    expect(rubric).toMatchObject({ status: 400, param: 'grader.model' });
  });
});
