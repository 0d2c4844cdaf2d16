/**
 * Reading batches: results as NDJSON pages in request order with an opaque cursor (header and Link),
 * pending items shown with their status; the tenant's batches listed newest first; strict queries;
 * another tenant's batch reads as absent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchAccepted, BatchSummary } from '../../src/batches/schemas.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import { drainAlarms } from './helpers.js';
import { createBatchId, items, pairItem, resultsPage, singleCallJudge, waitForBatch } from './batches-support.js';

afterEach(drainAlarms);

describe('GET /v1/batches/{id}/results', () => {
  it('pages through every item in request order: id, status, verdict summary, metadata; the cursor comes in X-Next-Cursor and Link', async () => {
    const id = await createBatchId({ ...singleCallJudge('results-pages'), items: items(5) });
    await waitForBatch(id);
    const first = await resultsPage(id, '?limit=2');
    expect(first.type).toMatch(/^application\/x-ndjson/);
    expect(first.lines.map((l) => [l.index, l.itemId])).toEqual([
      [0, 'i0'],
      [1, 'i1'],
    ]);
    expect(first.next).not.toBeNull();
    expect(first.link).toBe(`</v1/batches/${id}/results?cursor=${first.next ?? ''}&limit=2>; rel="next"`);
    const second = await resultsPage(id, `?limit=2&cursor=${first.next ?? ''}`);
    expect(second.lines.map((l) => l.index)).toEqual([2, 3]);
    const last = await resultsPage(id, `?limit=2&cursor=${second.next ?? ''}`);
    expect(last.lines.map((l) => l.index)).toEqual([4]);
    expect(last.next).toBeNull();
    expect(last.link).toBeNull();
    for (const line of [...first.lines, ...second.lines, ...last.lines]) {
      expect(line.status).toBe('succeeded');
      expect(line.evaluationId).toMatch(/^ev_/);
      expect(line.deleted).toBe(false);
      expect(line.metadata).toEqual({ n: line.index });
      expect(line.verdict?.method).toBe('single');
      expect(['A', 'B', 'tie']).toContain(line.verdict?.winner);
      expect(line.error).toBeNull();
    }
    // The default page holds them all, and the lines are the evaluations' own.
    const all = await resultsPage(id);
    expect(all.lines).toHaveLength(5);
    const ev = await (
      await api(`/v1/evaluations/${all.lines[3]!.evaluationId}`)
    ).json<{ verdict: unknown; metadata: unknown }>();
    expect(ev.verdict).toEqual(all.lines[3]!.verdict);
    expect(ev.metadata).toEqual({ n: 3 });
  });

  it('items not handed over yet are listed as queued, without verdict', async () => {
    const r = await apiWith({ BATCH_CONCURRENCY: '1' }, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...singleCallJudge('results-pending', { latency: 300 }), items: items(3) }),
    });
    const { id } = await r.json<BatchAccepted>();
    const page = await resultsPage(id);
    expect(page.lines.map((l) => l.index)).toEqual([0, 1, 2]);
    expect(page.lines[2]).toMatchObject({ status: 'queued', verdict: null, error: null });
    const done = await waitForBatch(id);
    expect(done.counts.succeeded).toBe(3);
  });

  it('refuses a cursor it did not make, one of another batch, and a limit out of range, naming the parameter', async () => {
    const a = await createBatchId({ ...singleCallJudge('results-cursor'), items: items(3) });
    const b = await createBatchId({ ...singleCallJudge('results-cursor'), items: items(3) });
    const { next } = await resultsPage(a, '?limit=1');
    const cases: [string, string][] = [
      [`/v1/batches/${a}/results?cursor=not-a-cursor`, 'cursor'],
      [`/v1/batches/${b}/results?cursor=${next ?? ''}`, 'cursor'],
      [`/v1/batches/${a}/results?limit=0`, 'limit'],
      [`/v1/batches/${a}/results?limit=1001`, 'limit'],
      [`/v1/batches/${a}/results?offset=2`, 'offset'],
    ];
    for (const [url, param] of cases) {
      const r = await api(url);
      const body = await r.json<ErrorJson>();
      expect(r.status, url).toBe(400);
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.issues?.[0]?.path, url).toBe(param);
    }
    expect((await api('/v1/batches/ba_nope/results')).status).toBe(404);
  });
});

describe('GET /v1/batches', () => {
  it("lists the tenant's batches newest first with a stable cursor; kind filters; another tenant sees none of them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await createBatchId({ ...singleCallJudge('list'), items: [{ task: pairItem(i) }] }));
    const meta = await postJson('/v1/meta-evaluations', {
      ...singleCallJudge('list-meta'),
      items: [{ id: 'm1', task: pairItem(9), human: 'A' }],
    });
    const metaId = (await meta.json<{ id: string }>()).id;
    const page1 = await (await api('/v1/batches?limit=2')).json<{ data: BatchSummary[]; nextCursor: string | null }>();
    expect(page1.data.map((b) => b.id)).toEqual([metaId, ids[2]]);
    expect(page1.data[0]?.kind).toBe('meta_evaluation');
    // A batch created meanwhile does not shift the next page.
    await createBatchId({ ...singleCallJudge('list'), items: [{ task: pairItem(7) }] });
    const page2 = await (
      await api(`/v1/batches?limit=2&cursor=${page1.nextCursor ?? ''}`)
    ).json<{ data: BatchSummary[] }>();
    expect(page2.data.map((b) => b.id)).toEqual([ids[1], ids[0]]);
    expect(page2.data[0]).toMatchObject({
      kind: 'batch',
      method: 'single',
      preset: 'fastchat-pair',
      counts: { total: 1 },
    });
    const metas = await (await api('/v1/batches?kind=meta_evaluation')).json<{ data: BatchSummary[] }>();
    expect(metas.data.every((b) => b.kind === 'meta_evaluation')).toBe(true);
    expect(metas.data.map((b) => b.id)).toContain(metaId);
    const bad = await api('/v1/batches?kind=other&limit=500');
    expect(((await bad.json<ErrorJson>()).error.issues ?? []).map((i) => i.path).sort()).toEqual(['kind', 'limit']);

    const token = 'tenant-b-token';
    const headers = { Authorization: `Bearer ${token}` };
    const other = await apiWith({ API_KEYS: await sha256Hex(token) }, '/v1/batches', { headers });
    expect((await other.json<{ data: unknown[] }>()).data).toEqual([]);
    expect(
      (await apiWith({ API_KEYS: await sha256Hex(token) }, `/v1/batches/${ids[0] ?? ''}`, { headers })).status,
    ).toBe(404);
    expect(
      (await apiWith({ API_KEYS: await sha256Hex(token) }, `/v1/batches/${ids[0] ?? ''}/results`, { headers })).status,
    ).toBe(404);
  });
});
