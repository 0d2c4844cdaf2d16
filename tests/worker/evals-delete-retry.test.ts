/**
 * What a team moving off OpenAI's hosted Evals meets through the real `openai` SDK (every answer checked against
 * the served OpenAPI document): deleting an eval deletes its runs (404 under it, their items and stored model
 * replies erased from D1); `Idempotency-Key` on `evals.create`, `runs.create` and `files.create` (a retry answers
 * the first, another body is a 409, a deleted one a 404); an `item_reference` sampler input checked at create
 * against the item schema and each line (text content parts flattened, a part with no text refused by name); a
 * `jsonl` item's `sample` never null.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { mockPrompts, pollUntil, testEnv } from './helpers.js';
import { EXACT_CHECK, failure, sdk, ITEM_SCHEMA } from './openai-support.js';

const client = sdk();
type Run = OpenAI.Evals.RunRetrieveResponse;

const GRADER_MODEL = mockModel({ seed: 'evals-delete-retry' });
const CRITERIA = [
  EXACT_CHECK,
  {
    type: 'score_model',
    name: 'quality',
    model: GRADER_MODEL,
    input: [{ role: 'user', content: 'Q: {{item.question}} A: {{sample.output_text}}' }],
    range: [1, 7],
    pass_threshold: 4,
  },
];
const LINES = [
  { item: { question: 'Capital of France?', answer: 'Paris' }, sample: { output_text: 'Paris', model: 'gpt-4o' } },
  { item: { question: 'Largest planet?', answer: 'Jupiter' }, sample: { output_text: 'Saturn' } },
];

function evalParams(name = 'delete-retry', itemSchema: object = ITEM_SCHEMA): OpenAI.Evals.EvalCreateParams {
  return {
    name,
    data_source_config: {
      type: 'custom',
      item_schema: itemSchema as Record<string, unknown>,
      include_sample_schema: true,
    },
    testing_criteria: CRITERIA as never,
  };
}

const JSONL_RUN: OpenAI.Evals.RunCreateParams = {
  data_source: { type: 'jsonl', source: { type: 'file_content', content: LINES } },
};

function ended(evalId: string, runId: string): Promise<Run> {
  return pollUntil(
    () => client.evals.runs.retrieve(runId, { eval_id: evalId }),
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
  );
}

async function rowsOf(table: string, runId: string): Promise<number> {
  const r = await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`)
    .bind(runId)
    .first<{ n: number }>();
  return r?.n ?? -1;
}

describe('deleting an eval', () => {
  it('deletes its runs: 404 under it, their output items and stored model replies erased', async () => {
    const ev = await client.evals.create(evalParams());
    const run = await ended(ev.id, (await client.evals.runs.create(ev.id, JSONL_RUN)).id);
    expect(run.status).toBe('completed');
    expect(await rowsOf('eval_run_items', run.id)).toBe(2);
    expect(await rowsOf('eval_run_calls', run.id)).toBe(2);

    expect(await client.evals.delete(ev.id)).toEqual({ object: 'eval.deleted', deleted: true, eval_id: ev.id });
    expect((await failure(client.evals.runs.retrieve(run.id, { eval_id: ev.id }))).status).toBe(404);
    expect((await failure(client.evals.runs.outputItems.list(run.id, { eval_id: ev.id }))).status).toBe(404);
    const itemId = `outputitem_${run.id.slice('evalrun_'.length)}_0`;
    expect(
      (await failure(client.evals.runs.outputItems.retrieve(itemId, { eval_id: ev.id, run_id: run.id }))).status,
    ).toBe(404);
    expect((await failure(client.evals.runs.list(ev.id))).status).toBe(404);
    expect(await rowsOf('eval_run_items', run.id)).toBe(0);
    expect(await rowsOf('eval_run_calls', run.id)).toBe(0);
    // The run's row stays as a tombstone without its inline items.
    const tomb = await testEnv.DB.prepare(`SELECT data_source, deleted_at FROM eval_runs WHERE id = ?`)
      .bind(run.id)
      .first<{ data_source: string; deleted_at: number | null }>();
    expect(tomb?.data_source).toBe('{}');
    expect(tomb?.deleted_at).toBeGreaterThan(0);
    // The usage rows billing needs stay.
    const usage = await testEnv.DB.prepare(`SELECT count(*) AS n FROM usage WHERE evaluation_id LIKE ?`)
      .bind(`%${run.id.slice('evalrun_'.length)}%`)
      .first<{ n: number }>();
    expect(usage?.n).toBe(2);
    expect((await failure(client.evals.delete(ev.id))).status).toBe(404);
  });
});

describe('Idempotency-Key on the Evals creates', () => {
  it('evals.create: the same key and body answer the first eval; another body is a 409', async () => {
    const key = { headers: { 'Idempotency-Key': 'evals-create-1' } };
    const first = await client.evals.create(evalParams(), key).withResponse();
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    const again = await client.evals.create(evalParams(), key).withResponse();
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    const other = await failure(client.evals.create(evalParams('another name'), key));
    expect([other.status, other.code]).toEqual([409, 'idempotency_conflict']);
    await client.evals.delete(first.data.id);
    expect((await failure(client.evals.create(evalParams(), key))).status).toBe(404);
  });

  it('runs.create: a retry answers the first run (one run, billed once); another body or eval is a 409', async () => {
    const ev = await client.evals.create(evalParams());
    const key = { headers: { 'Idempotency-Key': 'evals-run-1' } };
    const first = await client.evals.runs.create(ev.id, JSONL_RUN, key);
    const again = await client.evals.runs.create(ev.id, JSONL_RUN, key).withResponse();
    expect(again.data.id).toBe(first.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect((await client.evals.runs.list(ev.id)).data.map((r) => r.id)).toEqual([first.id]);
    await ended(ev.id, first.id);
    expect((await client.evals.runs.create(ev.id, JSONL_RUN, key)).status).toBe('completed');
    const otherBody = await failure(client.evals.runs.create(ev.id, { ...JSONL_RUN, name: 'other' }, key));
    expect([otherBody.status, otherBody.code]).toEqual([409, 'idempotency_conflict']);
    const otherEval = await client.evals.create(evalParams());
    expect((await failure(client.evals.runs.create(otherEval.id, JSONL_RUN, key))).status).toBe(409);
    await client.evals.runs.delete(first.id, { eval_id: ev.id });
    expect((await failure(client.evals.runs.create(ev.id, JSONL_RUN, key))).status).toBe(404);
  });

  it('files.create: the same key and upload answer the first file; another content is a 409', async () => {
    const text = `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const key = { headers: { 'Idempotency-Key': 'evals-file-1' } };
    const first = await client.files.create({ file: new File([text], 'items.jsonl'), purpose: 'evals' }, key);
    const again = await client.files
      .create({ file: new File([text], 'items.jsonl'), purpose: 'evals' }, key)
      .withResponse();
    expect(again.data).toEqual(first);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    const other = await failure(
      client.files.create({ file: new File([`${text}${text}`], 'items.jsonl'), purpose: 'evals' }, key),
    );
    expect([other.status, other.code]).toEqual([409, 'idempotency_conflict']);
    const stored = await testEnv.FILES.list({ prefix: 'default/' });
    expect(stored.objects.filter((o) => o.key.endsWith(first.id))).toHaveLength(1);
  });
});

describe('a completions run whose input_messages is an item_reference', () => {
  const run = (evalId: string, reference: string, content: object[]) =>
    client.evals.runs.create(evalId, {
      data_source: {
        type: 'completions',
        model: mockModel({ seed: 'evals-item-reference' }),
        input_messages: { type: 'item_reference', item_reference: reference },
        source: { type: 'file_content', content: content as never },
      },
    });

  it('is refused at create, naming the field, when the schema or a line has no messages there', async () => {
    const ev = await client.evals.create(evalParams());
    const missing = await failure(run(ev.id, 'item.messages', [{ item: LINES[0]?.item }]));
    expect([missing.status, missing.param]).toEqual([400, 'data_source.input_messages.item_reference']);
    expect(missing.message).toMatch(/"messages", which the item schema does not have/);
    const notArray = await failure(run(ev.id, 'item.question', [{ item: LINES[0]?.item }]));
    expect(notArray.param).toBe('data_source.input_messages.item_reference');
    expect((await failure(run(ev.id, 'messages', [{ item: LINES[0]?.item }]))).status).toBe(400);

    const open = await client.evals.create(
      evalParams('open schema', {
        type: 'object',
        properties: { question: {}, answer: { type: 'string' }, messages: {} },
      }),
    );
    const empty = await failure(
      run(open.id, 'item.messages', [
        { item: { answer: 'Paris', messages: [{ role: 'user', content: 'Capital?' }] } },
        { item: { answer: 'x', messages: [] } },
      ]),
    );
    expect([empty.status, empty.param]).toEqual([400, 'data_source.source.content.1.item.messages']);
  });

  it("samples each item's own messages when they are there", async () => {
    const ev = await client.evals.create(
      evalParams('messages', {
        type: 'object',
        properties: { question: { type: 'string' }, answer: { type: 'string' }, messages: { type: 'array' } },
      }),
    );
    const messages = [{ role: 'user', content: 'Capital of France?' }];
    const created = await run(ev.id, 'item.messages', [{ item: { ...LINES[0]?.item, messages } }]);
    const done = await ended(ev.id, created.id);
    expect(done.result_counts.errored).toBe(0);
    const [item] = (await client.evals.runs.outputItems.list(done.id, { eval_id: ev.id })).data;
    expect(item?.sample.input).toEqual(messages);
    expect(item?.sample.output[0]?.content).toMatch(/\S/);
  });

  it('flattens text content parts in order, sending their text to the model', async () => {
    const ev = await client.evals.create(
      evalParams('content parts', {
        type: 'object',
        properties: { question: { type: 'string' }, answer: { type: 'string' }, messages: { type: 'array' } },
      }),
    );
    const seed = `evals-content-parts-${crypto.randomUUID()}`;
    const messages = [
      { role: 'system', content: [{ type: 'input_text', text: 'Answer briefly.' }] },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Capital of' },
          { type: 'text', text: 'France?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Which country again?' }] },
      { role: 'user', content: 'France.' },
    ];
    const created = await client.evals.runs.create(ev.id, {
      data_source: {
        type: 'completions',
        model: mockModel({ seed }),
        input_messages: { type: 'item_reference', item_reference: 'item.messages' },
        source: { type: 'file_content', content: [{ item: { ...LINES[0]?.item, messages } }] as never },
      },
    });
    const done = await ended(ev.id, created.id);
    expect(done.result_counts.errored).toBe(0);
    const [item] = (await client.evals.runs.outputItems.list(done.id, { eval_id: ev.id })).data;
    expect(item?.sample.input).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Capital of\nFrance?' },
      { role: 'assistant', content: 'Which country again?' },
      { role: 'user', content: 'France.' },
    ]);
    expect(await mockPrompts(seed)).toEqual([
      'Answer briefly.\n\nCapital of\nFrance?\n\nWhich country again?\n\nFrance.',
    ]);
  });

  it('refuses a content part with no text, naming the line and part', async () => {
    const ev = await client.evals.create(
      evalParams('image part', {
        type: 'object',
        properties: { question: { type: 'string' }, answer: { type: 'string' }, messages: { type: 'array' } },
      }),
    );
    const image = [
      { type: 'input_text', text: 'What is this?' },
      { type: 'input_image', image_url: 'https://example.com/a.png' },
    ];
    const refused = await failure(
      run(ev.id, 'item.messages', [
        { item: { ...LINES[0]?.item, messages: [{ role: 'user', content: 'Capital?' }] } },
        { item: { ...LINES[1]?.item, messages: [{ role: 'user', content: image }] } },
      ]),
    );
    expect([refused.status, refused.param]).toEqual([400, 'data_source.source.content.1.item.messages.0.content.1']);
    expect(refused.message).toMatch(/content part 1 \("input_image"\) has no text/);
  });
});

describe("a jsonl run's output items", () => {
  it("show the line's own sample in OpenAI's sample shape, never null", async () => {
    const ev = await client.evals.create(evalParams());
    const run = await ended(ev.id, (await client.evals.runs.create(ev.id, JSONL_RUN)).id);
    const items = (await client.evals.runs.outputItems.list(run.id, { eval_id: ev.id })).data;
    expect(items.map((i) => i.sample.output[0]?.content)).toEqual(['Paris', 'Saturn']);
    expect(items[0]?.sample).toEqual({
      input: [],
      output: [{ role: 'assistant', content: 'Paris' }],
      model: 'gpt-4o',
      finish_reason: '',
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
      error: null,
      temperature: 1,
      max_completion_tokens: 2048,
      top_p: 1,
      seed: 42,
    });
    expect(items[1]?.sample.model).toBe('');
  });
});
