/**
 * A queue's labels as files: the JSONL and CSV exports, the import of labels from JSONL or CSV (provenance
 * `imported`, all or nothing, errors naming `labels.N.…`), and a CSV export that imports back into another queue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportLine, ImportResult, Queue, QueueItem } from '../../src/annotation-queues/schemas.js';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE } from './helpers.js';
import { bodyText } from '../support/body-text.js';

afterEach(drainAlarms);

const Q = '/v1/annotation-queues';
const question = PAIRWISE.kind === 'pairwise' ? PAIRWISE.question : '';
const pair = (i: number) => ({ id: `t-${i}`, task: { ...PAIRWISE, question: `${question} (${i})` } });

async function queue(): Promise<Queue> {
  const v = await (await postJson('/v1/rubrics', PAIRWISE_RUBRIC_EXAMPLE)).json<RubricVersion>();
  const r = await postJson(Q, { name: 'files', rubric: v.id, items: [1, 2, 3].map(pair), labelsPerItem: 2 });
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<Queue>();
}

const upload = (id: string, type: string, body: string, headers: Record<string, string> = {}) =>
  api(`${Q}/${id}/import`, { method: 'POST', headers: { 'Content-Type': type, ...headers }, body });

describe('export and import', () => {
  it('imports JSONL and CSV labels as `imported`, exports both forms, and a CSV export imports back', async () => {
    const q = await queue();
    const jsonl = [
      { itemId: 't-1', label: { winner: 'A' }, annotator: 'ana' },
      { itemId: 't-1', label: { winner: 'A' }, annotator: 'ben', comment: 'clear, "quoted", case' },
      { itemId: 't-2', label: { winner: 'B' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const r = await upload(q.id, 'application/x-ndjson', `${jsonl}\n`, { 'x-annotator': 'cy' });
    expect(r.status, await r.clone().text()).toBe(200);
    const result = await r.json<ImportResult>();
    expect(result.imported).toBe(3);
    expect(result.queue.progress).toMatchObject({ labelled: 1, pending: 2 });
    const csv = 'item_id,annotator,winner,role\r\nt-2,dee,A,\r\nt-3,lead,tie,adjudicator\r\n';
    expect((await upload(q.id, 'text/csv', csv)).status).toBe(200);
    const t2 = await (await api(`${Q}/${q.id}/items/t-2`)).json<QueueItem>();
    expect(t2.labels.map((l) => [l.annotator, l.provenance, l.label.winner])).toEqual([
      ['cy', 'imported', 'B'],
      ['dee', 'imported', 'A'],
    ]);
    expect(t2.status).toBe('needs_adjudication');

    const lines = await api(`${Q}/${q.id}/export`);
    expect(lines.headers.get('Content-Type')).toContain('application/x-ndjson');
    const items = (await bodyText(lines))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportLine);
    expect(items.map((i) => [i.itemId, i.status, i.label])).toEqual([
      ['t-1', 'labelled', { winner: 'A' }],
      ['t-2', 'needs_adjudication', null],
      ['t-3', 'adjudicated', { winner: 'tie' }],
    ]);
    expect(items[0]?.task).toEqual(pair(1).task);

    const exported = await api(`${Q}/${q.id}/export?format=csv`);
    expect(exported.headers.get('Content-Type')).toContain('text/csv');
    const text = await exported.text();
    expect(text.split('\r\n')[0]).toBe(
      'queue_id,item_id,item_status,annotator,role,provenance,winner,score,aspects,comment,updated_at',
    );
    expect(text).toContain('"clear, ""quoted"", case"');
    // The export imports as it is into a queue with the same items.
    const copy = await queue();
    const back = await (await upload(copy.id, 'text/csv', text)).json<ImportResult>();
    expect(back.imported).toBe(5);
    expect(back.queue.progress).toMatchObject({ labelled: 1, needsAdjudication: 1, adjudicated: 1 });
    const ben = (await (await api(`${Q}/${copy.id}/items/t-1`)).json<QueueItem>()).labels.find(
      (l) => l.annotator === 'ben',
    );
    expect(ben?.comment).toBe('clear, "quoted", case');
  });

  it('refuses a bad file whole, naming the line', async () => {
    const q = await queue();
    const error = async (r: Response, status: number) => {
      expect(r.status, await r.clone().text()).toBe(status);
      return (await r.json<ErrorJson>()).error;
    };
    const bad = [
      { itemId: 't-1', label: { winner: 'A' }, annotator: 'ana' },
      { itemId: 't-9', label: { winner: 'A' } },
      { itemId: 't-2', label: { score: 3 } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const e = await error(await upload(q.id, 'application/x-ndjson', bad), 400);
    expect(e.issues?.map((i) => i.path)).toEqual(['labels.1.itemId', 'labels.2.label.winner', 'labels.2.label.score']);
    expect((await (await api(`${Q}/${q.id}`)).json<Queue>()).progress.pending).toBe(3);
    expect((await error(await upload(q.id, 'application/x-ndjson', '{"itemId":'), 400)).code).toBe('invalid_json');
    const shape = await error(
      await upload(q.id, 'application/x-ndjson', '{"itemId":"t-1","label":{"winner":"C"}}'),
      400,
    );
    expect(shape.issues?.[0]?.path).toBe('labels.0.label.winner');
    const column = await error(await upload(q.id, 'text/csv', 'item_id,verdict\r\nt-1,A\r\n'), 400);
    expect(column.message).toContain('verdict');
    expect((await error(await upload(q.id, 'application/json', '{}'), 415)).code).toBe('unsupported_media_type');
    expect((await error(await upload(`aq_${'0'.repeat(32)}`, 'text/csv', 'item_id\r\nt-1\r\n'), 404)).code).toBe(
      'not_found',
    );
    expect((await error(await api(`${Q}/${q.id}/export?format=xml`), 400)).issues?.[0]?.path).toBe('format');
  });
});
