/**
 * Meta-evaluations are labelled batches on the batch machinery: they honour `Idempotency-Key` (the same
 * key used to create a second one), are readable and listed as batches, and keep their documented
 * report and `metaId` links.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../src/batches/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, pollUntil, testEnv } from './helpers.js';
import { countWhere, pairItem, resultsPage, singleCallJudge, waitForBatch } from './batches-support.js';
import type { MetaEvaluation } from '../../src/meta-evaluations/schemas.js';

afterEach(drainAlarms);

const labelled = (seed: string) => ({
  ...singleCallJudge(seed),
  items: [
    { id: 'q1', task: pairItem(1), human: 'A' },
    { id: 'q2', task: pairItem(2), human: 'B' },
  ],
});

describe('meta-evaluations on batches', () => {
  it('the same Idempotency-Key and body return the same meta-evaluation; another body is 409; nothing is created twice', async () => {
    const headers = { 'Idempotency-Key': 'meta-idem-1' };
    const first = await postJson('/v1/meta-evaluations', labelled('meta-idem'), headers);
    expect(first.status).toBe(202);
    const { id } = await first.json<{ id: string }>();
    expect(id).toMatch(/^me_/);
    const again = await postJson('/v1/meta-evaluations', labelled('meta-idem'), headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<{ id: string }>()).id).toBe(id);
    const other = await postJson(
      '/v1/meta-evaluations',
      { ...labelled('meta-idem'), items: labelled('meta-idem').items.slice(0, 1) },
      headers,
    );
    expect(other.status).toBe(409);
    expect((await other.json<ErrorJson>()).error.code).toBe('idempotency_conflict');
    // The key belongs to this endpoint: a batch may use it for itself.
    const batch = await postJson(
      '/v1/batches',
      { ...singleCallJudge('meta-idem'), items: [{ task: pairItem(1) }] },
      headers,
    );
    expect(batch.status).toBe(202);
    expect(await countWhere('meta_evaluations', 'id = ?', id)).toBe(1);
    expect(await countWhere('batches', "idempotency_key = 'meta-idem-1'")).toBe(2);
    expect(await countWhere('evaluations', 'meta_id = ?', id)).toBe(2);

    // The report is served as documented once every item ended; the batch view counts the same items.
    const report = await pollUntil(
      async () => (await api(`/v1/meta-evaluations/${id}`)).json<MetaEvaluation>(),
      (m) => m.report !== null,
      WAIT_MS,
    );
    expect(report).toMatchObject({ status: 'succeeded', progress: { total: 2, ended: 2, succeeded: 2 } });
    expect(report.items.map((i) => i.itemId)).toEqual(['q1', 'q2']);
    const view = await waitForBatch(id);
    expect(view).toMatchObject({ kind: 'meta_evaluation', status: 'completed', counts: { total: 2, succeeded: 2 } });
    const replay = await postJson('/v1/meta-evaluations', labelled('meta-idem'), headers);
    expect(await replay.json<{ status: string }>()).toMatchObject({ id, status: 'succeeded' });

    // Each item keeps its meta links: metaId on the evaluation, the item id on the result line.
    const { lines } = await resultsPage(id);
    expect(lines.map((l) => l.itemId)).toEqual(['q1', 'q2']);
    const ev = await (
      await api(`/v1/evaluations/${lines[0]!.evaluationId}`)
    ).json<{ metaId: string; metadata: unknown }>();
    expect(ev).toMatchObject({ metaId: id, metadata: { metaId: id, itemId: 'q1' } });
    const links = await testEnv.DB.prepare(
      'SELECT item_id, human FROM meta_evaluation_items WHERE meta_id = ? ORDER BY item_id',
    )
      .bind(id)
      .all();
    expect(links.results).toEqual([
      { item_id: 'q1', human: '"A"' },
      { item_id: 'q2', human: '"B"' },
    ]);
    const b = await (await api(`/v1/batches/${id}`)).json<Batch>();
    expect(b.verdicts.verdicts).toBe(2);
  });
});
