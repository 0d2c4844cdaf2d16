/**
 * `GET /v1/evaluations`: filters (status, preset, batch, a metadata entry, created range) combined with
 * AND, newest first, keyset pages behind an opaque cursor that inserts never shift, a strict query, and
 * tenant isolation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EvaluationListSchema } from '../../src/evaluations/list-schemas.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import { drainAlarms, waitForEnd } from './helpers.js';
import { createBatchId, pairItem, singleCallJudge, waitForBatch } from './batches-support.js';

afterEach(drainAlarms);

type EvaluationList = z.infer<typeof EvaluationListSchema>;

/** Creates an evaluation with `metadata`; returns its id. */
async function create(
  seed: string,
  metadata: Record<string, string | number | boolean>,
  preset?: string,
): Promise<string> {
  const judge = singleCallJudge(seed);
  const r = await postJson('/v1/evaluations', {
    ...judge,
    ...(preset ? { preset } : {}),
    task: pairItem(Number(metadata.n ?? 0)),
    metadata,
  });
  expect(r.status).toBe(202);
  return (await r.json<{ id: string }>()).id;
}

const list = async (query: string): Promise<EvaluationList> => {
  const r = await api(`/v1/evaluations${query}`);
  const body = await r.json<EvaluationList>();
  expect(r.status, JSON.stringify(body)).toBe(200);
  return body;
};

describe('GET /v1/evaluations', () => {
  it('filters by a metadata entry (strings, numbers, booleans), status, preset and batch; newest first', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push(await create('list-filters', { suite: 'filters', n, odd: n % 2 === 1 }));
    const other = await create('list-filters', { suite: 'other', n: 9 }, 'chateval-single');
    for (const id of [...ids, other]) await waitForEnd(id);

    const all = await list('?metadata=suite:filters');
    expect(all.data.map((e) => e.id)).toEqual([...ids].reverse());
    expect(all.nextCursor).toBeNull();
    expect(all.data[0]).toMatchObject({
      status: 'succeeded',
      method: 'single',
      preset: 'fastchat-pair',
      taskKind: 'pairwise',
      batchId: null,
      error: null,
    });
    expect(all.data[0]?.verdict?.confidence).toBeGreaterThanOrEqual(0);
    expect(all.data[0]?.metadata).toEqual({ suite: 'filters', n: 3, odd: true });
    expect(all.data[0]?.links.self).toBe(`/v1/evaluations/${ids[3] ?? ''}`);
    expect((await list('?metadata=n:2&preset=fastchat-pair')).data.map((e) => e.id)).toEqual([ids[2]]);
    expect((await list('?metadata=odd:true')).data.map((e) => e.id)).toEqual([ids[3], ids[1]]);
    expect((await list('?metadata=suite:filters&status=queued')).data).toEqual([]);
    expect((await list('?metadata=suite:filters&status=succeeded')).data).toHaveLength(4);
    expect((await list('?preset=chateval-single')).data.map((e) => e.id)).toEqual([other]);
    // A value with a colon: the key ends at the first one.
    const colon = await create('list-filters', { url: 'https://x.test/a' });
    expect((await list('?metadata=url:https://x.test/a')).data.map((e) => e.id)).toEqual([colon]);

    const batch = await createBatchId({
      ...singleCallJudge('list-batch'),
      items: [{ task: pairItem(1) }, { task: pairItem(2) }],
    });
    await waitForBatch(batch);
    const items = await list(`?batch=${batch}`);
    expect(items.data).toHaveLength(2);
    expect(items.data.every((e) => e.batchId === batch)).toBe(true);
  });

  it("lists a pointwise score with the scale it is on, as the evaluation's verdict gives it; a pairwise verdict has none", async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'rubric-judge',
      config: { defaults: { model: 'mock-judge?seed=list-scale' } },
      rubric: { kind: 'pointwise', criteria: 'Is the answer right?', scale: { min: 0, max: 10 } },
      task: { kind: 'pointwise', source: '2 + 2?', output: '4' },
      metadata: { suite: 'scale' },
    });
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const pair = await create('list-scale', { suite: 'scale' });
    for (const e of [id, pair]) await waitForEnd(e);
    const one = await (await api(`/v1/evaluations/${id}`)).json<{ verdict: { score: number; scale: unknown } }>();
    expect(one.verdict.scale).toEqual({ min: 0, max: 10 });
    const listed = await list('?metadata=suite:scale');
    expect(listed.data.map((e) => [e.id, e.verdict?.scale])).toEqual([
      [pair, null],
      [id, { min: 0, max: 10 }],
    ]);
    expect(listed.data[1]?.verdict?.score).toBe(one.verdict.score);
  });

  it('filters by creation time: createdAfter inclusive, createdBefore exclusive', async () => {
    const a = await create('list-time', { suite: 'time', n: 0 });
    const b = await create('list-time', { suite: 'time', n: 1 });
    const rows = (await list('?metadata=suite:time')).data;
    const createdB = rows.find((e) => e.id === b)!.createdAt;
    const createdA = rows.find((e) => e.id === a)!.createdAt;
    expect((await list(`?metadata=suite:time&createdAfter=${createdB}`)).data.map((e) => e.id)).toEqual([b]);
    expect((await list(`?metadata=suite:time&createdBefore=${createdB}`)).data.map((e) => e.id)).toEqual(
      createdA < createdB ? [a] : [],
    );
    expect((await list(`?metadata=suite:time&createdAfter=${createdA}&createdBefore=${createdA}`)).data).toEqual([]);
  });

  it('pages with a cursor: no repeats, no gaps, and evaluations created meanwhile do not shift the pages', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await create('list-pages', { suite: 'pages', n }));
    const p1 = await list('?metadata=suite:pages&limit=2');
    expect(p1.data.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    await create('list-pages', { suite: 'pages', n: 99 });
    const p2 = await list(`?metadata=suite:pages&limit=2&cursor=${p1.nextCursor ?? ''}`);
    expect(p2.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const p3 = await list(`?metadata=suite:pages&limit=2&cursor=${p2.nextCursor ?? ''}`);
    expect(p3.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(p3.nextCursor).toBeNull();
  });

  it('refuses unknown and malformed parameters naming them; another tenant sees none of these evaluations', async () => {
    const cases: [string, string][] = [
      ['?dry_run=1', 'dry_run'],
      ['?status=done', 'status'],
      ['?metadata=nocolon', 'metadata'],
      ['?createdAfter=yesterday', 'createdAfter'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?cursor=zzz', 'cursor'],
    ];
    for (const [query, param] of cases) {
      const r = await api(`/v1/evaluations${query}`);
      const body = await r.json<ErrorJson>();
      expect(r.status, query).toBe(400);
      expect(body.error.code).toBe('invalid_request');
      expect(
        body.error.issues?.map((i) => i.path),
        query,
      ).toEqual([param]);
    }
    await create('list-tenant', { suite: 'tenant', n: 0 });
    expect((await list('?metadata=suite:tenant')).data).toHaveLength(1);
    const token = 'list-tenant-b';
    const other = await apiWith({ API_KEYS: await sha256Hex(token) }, '/v1/evaluations?metadata=suite:tenant', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await other.json<EvaluationList>()).data).toEqual([]);
  });
});
