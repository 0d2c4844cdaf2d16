/**
 * `npm run evals:import` against a stand-in target (a fake `fetch` answering `/v1/evals` as the served document
 * does, in memory): an export's evals are created with their criteria, item schema and source id, and a second
 * import creates nothing; a source deployment's evals are listed through the same SDK.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { evalsImportMain, exportedEvals } from '../../src/cli/evals-import.js';

const EXPORTED = {
  object: 'eval',
  id: 'eval_openai_1',
  name: 'capitals',
  created_at: 1_700_000_000,
  metadata: { team: 'geo' },
  data_source_config: {
    type: 'custom',
    schema: {
      type: 'object',
      properties: {
        item: { type: 'object', properties: { q: { type: 'string' } } },
        sample: { type: 'object' },
      },
    },
  },
  testing_criteria: [
    { type: 'string_check', name: 'exact', input: '{{sample.output_text}}', reference: '{{item.q}}', operation: 'eq' },
  ],
};

/** An in-memory `/v1/evals` (list and create) behind a fetch; answers its stored evals and create bodies. */
function fakeApi(initial: Record<string, unknown>[] = []) {
  const evals = [...initial];
  const bodies: Record<string, unknown>[] = [];
  const fetchFn = ((input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const json = (b: unknown) =>
      Promise.resolve(new Response(JSON.stringify(b), { headers: { 'content-type': 'application/json' } }));
    if (url.pathname === '/v1/evals' && method === 'GET')
      return json({ object: 'list', data: evals, has_more: false, first_id: null, last_id: null });
    if (url.pathname === '/v1/evals' && method === 'POST') {
      const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>;
      bodies.push(body);
      const made = { object: 'eval', id: `eval_tribunal_${String(evals.length + 1)}`, created_at: 1, ...body };
      evals.push(made);
      return json(made);
    }
    return Promise.resolve(new Response('{}', { status: 404 }));
  }) as typeof fetch;
  return { evals, bodies, fetchFn };
}

const io = () => {
  const out: string[] = [];
  return { out, io: { out: (t: string) => out.push(t), err: (t: string) => out.push(t) } };
};

describe('npm run evals:import', () => {
  it('creates each exported eval once, recording its source id; a re-run creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-evals-import-'));
    const file = join(dir, 'export.json');
    writeFileSync(file, JSON.stringify({ object: 'list', data: [EXPORTED] }));
    const target = fakeApi();
    const first = io();
    const values = { file, to: 'http://tribunal.test/v1' };
    expect(await evalsImportMain(values, first.io, {}, target.fetchFn)).toBe(0);
    expect(target.bodies).toEqual([
      {
        name: 'capitals',
        data_source_config: {
          type: 'custom',
          item_schema: { type: 'object', properties: { q: { type: 'string' } } },
          include_sample_schema: true,
        },
        testing_criteria: EXPORTED.testing_criteria,
        metadata: { team: 'geo', imported_from: 'eval_openai_1' },
      },
    ]);
    expect(first.out.join('')).toMatch(/1 created, 0 skipped/);
    const again = io();
    expect(await evalsImportMain(values, again.io, {}, target.fetchFn)).toBe(0);
    expect(target.bodies).toHaveLength(1);
    expect(again.out.join('')).toMatch(/skipped eval_openai_1 \(imported before\)\n0 created, 1 skipped/);
  });

  it('lists the evals of a source deployment with --from, and reports one it cannot import', async () => {
    // One fake answers both sides by host: the source holds the exported eval, the target starts empty.
    const source = fakeApi([EXPORTED]);
    const target = fakeApi();
    const both = ((input: string | URL | Request, init?: RequestInit) =>
      new URL(input instanceof Request ? input.url : String(input)).host === 'source.test'
        ? source.fetchFn(input, init)
        : target.fetchFn(input, init)) as typeof fetch;
    source.evals.push({ ...EXPORTED, id: 'eval_logs', data_source_config: { type: 'logs', schema: {} } });
    const run = io();
    const values = { from: 'http://source.test/v1', to: 'http://tribunal.test/v1' };
    // The logs eval is reported and left out; the other is imported all the same.
    expect(await evalsImportMain(values, run.io, {}, both)).toBe(1);
    expect(target.evals.map((e) => (e.metadata as Record<string, string>).imported_from)).toEqual(['eval_openai_1']);
    expect(run.out.join('')).toMatch(/not imported: eval eval_logs: data_source_config "logs"/);
  });

  it('refuses an export that holds no eval, and both or neither source', async () => {
    expect(() => exportedEvals({ data: [{ name: 'no id' }] })).toThrow(UsageError);
    await expect(evalsImportMain({}, io().io, {})).rejects.toThrow(/exactly one of --file and --from/);
  });
});
