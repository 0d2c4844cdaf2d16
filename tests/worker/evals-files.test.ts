/**
 * `/v1/files` through the real `openai` SDK (every answer checked against the served OpenAPI document):
 * upload an eval data file (`purpose: evals`), retrieve, list, read its content, delete; a run whose `jsonl`
 * source is the file's `file_id`; and the 400s of a purpose other than `evals`, a line that is not a JSON
 * object, a run naming a file that is not there, and a line whose item the eval's item_schema refuses.
 */
import { describe, expect, it } from 'vitest';
import { pollUntil, testEnv } from './helpers.js';
import { EXACT_CHECK, failure, sdk, ITEM_SCHEMA } from './openai-support.js';
import { WAIT_MS } from '../support/patience.js';
import { bodyText } from '../support/body-text.js';

const client = sdk();

const LINES = [
  { item: { question: 'Capital of France?', answer: 'Paris' }, sample: { output_text: 'Paris' } },
  { item: { question: 'Largest planet?', answer: 'Jupiter' }, sample: { output_text: 'Saturn' } },
];
const JSONL = `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`;

describe('files for eval data through the openai SDK', () => {
  it('uploads, retrieves, lists, reads and deletes a file; the object is kept per tenant in R2', async () => {
    const file = await client.files.create({ file: new File([JSONL], 'items.jsonl'), purpose: 'evals' });
    expect(file).toMatchObject({
      object: 'file',
      filename: 'items.jsonl',
      purpose: 'evals',
      bytes: new TextEncoder().encode(JSONL).length,
      status: 'processed',
    });
    expect(await client.files.retrieve(file.id)).toEqual(file);
    const listed = await client.files.list({ purpose: 'evals' });
    expect(listed.data.map((f) => f.id)).toContain(file.id);
    expect(await bodyText(await client.files.content(file.id))).toBe(JSONL);
    expect(await (await testEnv.FILES.get(`default/${file.id}`))?.text()).toBe(JSONL);
    expect(await client.files.delete(file.id)).toEqual({ id: file.id, object: 'file', deleted: true });
    expect((await failure(client.files.retrieve(file.id))).status).toBe(404);
    expect(await testEnv.FILES.get(`default/${file.id}`)).toBeNull();
  });

  it('a run reads its items from a file_id', async () => {
    const file = await client.files.create({ file: new File([JSONL], 'items.jsonl'), purpose: 'evals' });
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [EXACT_CHECK],
    });
    const created = await client.evals.runs.create(ev.id, {
      data_source: { type: 'jsonl', source: { type: 'file_id', id: file.id } },
    });
    expect(created.result_counts.total).toBe(2);
    const run = await pollUntil(
      () => client.evals.runs.retrieve(created.id, { eval_id: ev.id }),
      (r) => r.status !== 'queued' && r.status !== 'in_progress',
      WAIT_MS,
      50,
    );
    expect(run.status).toBe('completed');
    expect(run.result_counts).toEqual({ total: 2, passed: 1, failed: 1, errored: 0 });
    const items = await client.evals.runs.outputItems.list(run.id, { eval_id: ev.id });
    expect(items.data.map((i) => i.datasource_item)).toEqual(LINES.map((l) => l.item));
  });

  it('a purpose other than evals, a line that is no JSON object, and a missing file are 400s naming the field', async () => {
    const batch = await failure(client.files.create({ file: new File([JSONL], 'a.jsonl'), purpose: 'batch' }));
    expect(batch).toMatchObject({ status: 400, param: 'purpose', code: 'invalid_request' });
    const bad = await failure(
      client.files.create({ file: new File(['{"item":{}}\nnot json\n'], 'b.jsonl'), purpose: 'evals' }),
    );
    expect(bad).toMatchObject({ status: 400, param: 'file' });
    expect(bad.message).toMatch(/line 2/);
    const ev = await client.evals.create({
      data_source_config: { type: 'custom', item_schema: ITEM_SCHEMA },
      testing_criteria: [
        { type: 'string_check', name: 'q', operation: 'eq', input: '{{item.question}}', reference: '{{item.answer}}' },
      ],
    });
    const missing = await failure(
      client.evals.runs.create(ev.id, { data_source: { type: 'jsonl', source: { type: 'file_id', id: 'file-nope' } } }),
    );
    expect(missing).toMatchObject({ status: 400, param: 'data_source.source.id' });
    const notItems = await client.files.create({ file: new File(['{"question":"x"}\n'], 'c.jsonl'), purpose: 'evals' });
    const shape = await failure(
      client.evals.runs.create(ev.id, { data_source: { type: 'jsonl', source: { type: 'file_id', id: notItems.id } } }),
    );
    expect(shape.status).toBe(400);
    expect(shape.param).toMatch(/^data_source\.source\.id/);
    // A line whose item the eval's item_schema refuses: named by line and field, before any call.
    const wrongItem = await client.files.create({
      file: new File([`${JSON.stringify(LINES[0])}\n{"item":{"question":"x","answer":2}}\n`], 'd.jsonl'),
      purpose: 'evals',
    });
    const typed = await failure(
      client.evals.runs.create(ev.id, {
        data_source: { type: 'jsonl', source: { type: 'file_id', id: wrongItem.id } },
      }),
    );
    expect(typed).toMatchObject({ status: 400, param: 'data_source.source.id (line 2).item.answer' });
    expect(typed.message).toMatch(/expected string, got integer/);
  });
});
