/**
 * `POST /v1/batches`: JSON and NDJSON bodies, every item stored (in request order, with its id and
 * metadata) and queued, progress counted to completion with verdict statistics and usage; a bad item or
 * line is a 4xx naming it with nothing created; `Idempotency-Key` returns the same batch or a 409.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchAccepted } from '../../src/batches/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith } from './api-fetch.js';
import {
  batchBilledCalls,
  drainAlarms,
  mockPrompts,
  mockRequests,
  newTestId,
  pollUntil,
  recordingDb,
  testEnv,
} from './helpers.js';
import {
  countWhere,
  createBatchId,
  items,
  pairItem,
  postBatch,
  postNdjson,
  singleCallJudge,
  waitForBatch,
} from './batches-support.js';
import { deliveriesOf, received, sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

describe('POST /v1/batches', () => {
  it('JSON: 202 with links; every item stored in order and judged; the batch completes with counts, verdict stats and usage', async () => {
    // A one-off webhook.url is signed with the tenant's signing secret, created once. The suite's receiver, not a
    // host that does not resolve: every attempt at one failed and was retried until the next file reset the lane,
    // and workerd logged each failed fetch as an uncaught exception though the delivery caught it.
    expect((await api('/v1/webhook-signing-secret', { method: 'POST' })).status).toBeLessThan(300);
    const sink = newTestId('batch_create_json');
    const hook = sinkUrl(sink);
    const r = await postBatch({
      ...singleCallJudge('batch-json'),
      items: items(5),
      webhook: { url: hook },
    });
    const accepted = await r.json<BatchAccepted>();
    expect(r.status, JSON.stringify(accepted)).toBe(202);
    expect(accepted).toMatchObject({ kind: 'batch', status: 'running', itemsTotal: 5 });
    expect(accepted.id).toMatch(/^ba_[0-9a-f]{32}$/);
    expect(accepted.links).toEqual({
      self: `/v1/batches/${accepted.id}`,
      results: `/v1/batches/${accepted.id}/results`,
      cancel: `/v1/batches/${accepted.id}/cancel`,
    });
    expect(r.headers.get('Location')).toBe(accepted.links.self);

    const rows = await testEnv.DB.prepare(
      'SELECT batch_seq, item_id, metadata, tenant FROM evaluations WHERE batch_id = ? ORDER BY batch_seq',
    )
      .bind(accepted.id)
      .all<{ batch_seq: number; item_id: string; metadata: string; tenant: string }>();
    expect(rows.results.map((x) => [x.batch_seq, x.item_id, JSON.parse(x.metadata) as unknown])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [i, `i${i}`, { n: i }]),
    );
    const row = await testEnv.DB.prepare('SELECT concurrency, sent, webhook_url FROM batches WHERE id = ?')
      .bind(accepted.id)
      .first<{ concurrency: number; sent: number; webhook_url: string }>();
    // The whole first window (BATCH_CONCURRENCY, 64 in the test config) went to the queue with the 202.
    expect(row).toEqual({ concurrency: 64, sent: 5, webhook_url: hook });

    const done = await waitForBatch(accepted.id);
    expect(done.status).toBe('completed');
    expect(done.counts).toEqual({ total: 5, pending: 0, ended: 5, succeeded: 5, failed: 0, cancelled: 0 });
    expect(done.verdicts.verdicts).toBe(5);
    expect(done.verdicts.winsA + done.verdicts.winsB + done.verdicts.ties).toBe(5);
    expect((done.verdicts.winRateA ?? 0) + (done.verdicts.winRateB ?? 0) + (done.verdicts.tieRate ?? 0)).toBeCloseTo(1);
    expect(done.verdicts.meanScore).toBeNull();
    expect(done.usage.calls).toBe(5);
    expect(done.usage.promptTokens).toBeGreaterThan(0);
    expect(done.webhook).toEqual({ url: hook });
    // Delivered, and its attempt stored, before the test ends: no attempt outlives the file.
    await expect.poll(async () => (await deliveriesOf(accepted.id)).map((d) => d.status)).toEqual(['delivered']);
    expect((await received(sink)).map((x) => (JSON.parse(x.body) as { type: string }).type)).toEqual([
      'batch.completed',
    ]);
    expect(await mockRequests('batch-json')).toBe(5);
    // The calls booked on the items are the billing record: one per call.
    expect(await batchBilledCalls(accepted.id)).toBe(5);
  });

  it('NDJSON: the header line, then one item per line (blank lines and \\r\\n allowed), judged like JSON', async () => {
    const lines = items(3).map((i) => ({ id: i.id, task: i.task }));
    const r = await postNdjson({ ...singleCallJudge('batch-ndjson') }, lines);
    const body = await r.json<BatchAccepted>();
    expect(r.status, JSON.stringify(body)).toBe(202);
    expect(body.itemsTotal).toBe(3);
    const done = await waitForBatch(body.id);
    expect(done.counts.succeeded).toBe(3);
    const ids = await testEnv.DB.prepare('SELECT item_id FROM evaluations WHERE batch_id = ? ORDER BY batch_seq')
      .bind(body.id)
      .all<{ item_id: string }>();
    expect(ids.results.map((x) => x.item_id)).toEqual(['i0', 'i1', 'i2']);
  });

  it('items without ids and pointwise items are accepted; mean score is reported for pointwise verdicts', async () => {
    const task = {
      kind: 'pointwise',
      source: 'The council approved a bike lane on Tuesday.',
      output: 'A bike lane was approved.',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
    };
    const id = await createBatchId({
      preset: 'geval-summeval',
      config: { samples: 1, defaults: { model: singleCallJudge('batch-point').config.defaults.model } },
      items: [{ task }, { task }],
    });
    const done = await waitForBatch(id);
    expect(done.counts.succeeded).toBe(2);
    expect(done.verdicts.meanScore).not.toBeNull();
    expect(done.verdicts.winRateA).toBeNull();
  });

  it('a bad item is a 400 naming it, and nothing is created', async () => {
    const before = { batches: await countWhere('batches'), evaluations: await countWhere('evaluations') };
    const cases: [unknown, string, string][] = [
      [
        { ...singleCallJudge('x'), items: [{ task: pairItem(0) }, { task: { ...pairItem(1), answerA: '' } }] },
        'invalid_request',
        'items.1.task.answerA',
      ],
      [
        {
          ...singleCallJudge('x'),
          items: [
            { id: 'a', task: pairItem(0) },
            { id: 'a', task: pairItem(1) },
          ],
        },
        'invalid_request',
        'items.1.id',
      ],
      [{ ...singleCallJudge('x'), items: [] }, 'invalid_request', 'items'],
      [{ ...singleCallJudge('x'), items: [{ task: pairItem(0), extra: 1 }] }, 'invalid_request', 'items.0.extra'],
      [
        { ...singleCallJudge('x'), items: [{ task: pairItem(0) }], webhook: { url: 'http://example.com/x' } },
        'url_not_allowed',
        'webhook.url',
      ],
      [
        {
          preset: 'more-mtbench',
          items: [
            { task: pairItem(0) },
            {
              task: {
                kind: 'pointwise',
                source: 's',
                output: 'o',
                aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
              },
            },
          ],
        },
        'task_kind_unsupported',
        'items.1.task',
      ],
      [{ preset: 'nope', items: [{ task: pairItem(0) }] }, 'unknown_preset', 'nope'],
    ];
    for (const [body, code, mentions] of cases) {
      const r = await postBatch(body);
      const err = await r.json<ErrorJson>();
      expect(r.status, JSON.stringify(err)).toBe(400);
      expect(err.error.code, JSON.stringify(err)).toBe(code);
      expect(err.error.message, JSON.stringify(err)).toContain(mentions);
    }
    // Many bad items: the first 20 listed in full, and how many more (a 10,000-item batch gave 10,000 issues).
    const many = await postBatch({
      ...singleCallJudge('x'),
      items: Array.from({ length: 250 }, (_, i) => ({ task: { ...pairItem(i), answerA: '' } })),
    });
    const capped = (await many.json<ErrorJson>()).error;
    expect(capped.issues?.map((i) => i.path)).toEqual(Array.from({ length: 20 }, (_, i) => `items.${i}.task.answerA`));
    expect(capped.message).toMatch(/items\.19\.task\.answerA: [^;]+; and 230 more issues not listed$/);
    expect(capped.message).not.toContain('items.20.');
    const empty = await postNdjson({ ...singleCallJudge('x') }, []);
    expect((await empty.json<ErrorJson>()).error.issues?.[0]?.path).toBe('items');
    // A prototype key written in the JSON text (in a JS object literal `__proto__` is not a key).
    const proto = await apiWith({}, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"preset":"fastchat-pair","items":[{"task":${JSON.stringify(pairItem(0))},"metadata":{"__proto__":{"x":1}}}]}`,
    });
    expect(proto.status).toBe(400);
    expect((await proto.json<ErrorJson>()).error.issues?.[0]?.path).toBe('items.0.metadata.__proto__');
    expect(await countWhere('batches')).toBe(before.batches);
    expect(await countWhere('evaluations')).toBe(before.evaluations);
  });

  it('NDJSON errors name the line; other media types are 415; a body over MAX_BATCH_BODY_BYTES is 413', async () => {
    const bad = await apiWith({}, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: `{"preset":"fastchat-pair"}\n{"task":${JSON.stringify(pairItem(0))}}\r\n\n{"task": oops}\n`,
    });
    const badBody = await bad.json<ErrorJson>();
    expect(bad.status).toBe(400);
    expect(badBody.error.code).toBe('invalid_json');
    expect(badBody.error.message).toContain('line 4 (items.1)');
    // No header line: the first item is read as the header; the answer says the header is missing, not what
    // an item lacks to be a request.
    const headless = await apiWith({}, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: `{"id":"q1","task":${JSON.stringify(pairItem(0))}}\n{"id":"q2","task":${JSON.stringify(pairItem(1))}}\n`,
    });
    expect(headless.status).toBe(400);
    const headlessError = (await headless.json<ErrorJson>()).error;
    expect(headlessError.code).toBe('invalid_request');
    expect(headlessError.issues?.map((i) => i.path)).toEqual(['(root)']);
    expect(headlessError.issues?.[0]?.message).toContain(
      'line 1 is an item (it has "task"), but an NDJSON body starts with the header line',
    );
    const withItems = await postNdjson({ ...singleCallJudge('x'), items: [] }, [{ task: pairItem(0) }]);
    expect((await withItems.json<ErrorJson>()).error.issues?.[0]?.path).toBe('items');
    const invalidItem = await postNdjson({ ...singleCallJudge('x') }, [
      { task: pairItem(0) },
      { task: { ...pairItem(1), kind: 'other' } },
    ]);
    expect((await invalidItem.json<ErrorJson>()).error.message).toContain('items.1.task');
    const text = await apiWith({}, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
    const big = await apiWith({ MAX_BATCH_BODY_BYTES: '1000' }, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...singleCallJudge('x'), items: items(20) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json<ErrorJson>()).error.code).toBe('payload_too_large');
  });

  it('Idempotency-Key: the same body returns the same batch (Idempotent-Replayed), another body is 409; nothing is stored twice', async () => {
    const body = { ...singleCallJudge('batch-idem'), items: items(3) };
    const headers = { 'Idempotency-Key': 'batch-idem-1' };
    const first = await postBatch(body, headers);
    const a = await first.json<BatchAccepted>();
    expect(first.status).toBe(202);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    // Same content, other key order: still the same request.
    const reordered = { items: body.items, config: body.config, preset: body.preset };
    const again = await postBatch(reordered, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<BatchAccepted>()).id).toBe(a.id);
    const ndjson = await postNdjson({ preset: body.preset, config: body.config }, body.items, headers);
    expect(ndjson.status).toBe(202);
    expect((await ndjson.json<BatchAccepted>()).id).toBe(a.id);
    const other = await postBatch({ ...body, items: items(2) }, headers);
    expect(other.status).toBe(409);
    expect((await other.json<ErrorJson>()).error.code).toBe('idempotency_conflict');
    expect(await countWhere('batches', 'idempotency_key = ?', 'batch-idem-1')).toBe(1);
    expect(await countWhere('evaluations', 'batch_id = ?', a.id)).toBe(3);
    const done = await waitForBatch(a.id);
    expect(done.counts.succeeded).toBe(3);
    expect(await mockRequests('batch-idem')).toBe(3);
  });

  it('stores a batch in one json_each statement, keeps at most BATCH_CONCURRENCY in flight, and a cancel ends the rest (page after page) without starting them', async () => {
    // 250 items: the rest a cancel ends is three of its pages (100 each), each queueing the next; ending the
    // items never handed over is nearly all of this test's work (one D1 ending each), 4 times more with 1,000.
    const n = 250;
    const body = {
      ...singleCallJudge('batch-cancel', { latency: 0 }),
      items: Array.from({ length: n }, (_, i) => ({ task: pairItem(i) })),
    };
    const { db, statements } = recordingDb();
    const r = await apiWith({ BATCH_CONCURRENCY: '8', DB: db }, '/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<BatchAccepted>();
    // Every item's row in one statement (its JSON array expanded by json_each), not a statement per item.
    expect(statements.filter((sql) => /^INSERT INTO evaluations\b/.test(sql))).toEqual([
      expect.stringContaining('json_each'),
    ]);
    expect(await countWhere('evaluations', 'batch_id = ?', id)).toBe(n);
    const seqs = await testEnv.DB.prepare(
      'SELECT min(batch_seq) AS lo, max(batch_seq) AS hi, count(DISTINCT id) AS n FROM evaluations WHERE batch_id = ?',
    )
      .bind(id)
      .first<{ lo: number; hi: number; n: number }>();
    expect(seqs).toEqual({ lo: 0, hi: n - 1, n });
    // Items follow as others end, never more than the window's 8 handed over and not ended.
    const window = () =>
      testEnv.DB.prepare('SELECT sent, succeeded + failed + cancelled AS ended, concurrency FROM batches WHERE id = ?')
        .bind(id)
        .first<{ sent: number; ended: number; concurrency: number }>();
    const seen = await pollUntil(
      async () => {
        const w = (await window())!;
        expect(w.sent - w.ended).toBeLessThanOrEqual(w.concurrency);
        return w;
      },
      (w) => w.ended >= 24,
      WAIT_MS,
    );
    expect(seen.concurrency).toBe(8);
    expect(seen.sent).toBeLessThan(n);
    const cancel = await api(`/v1/batches/${id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    expect((await cancel.json<{ status: string }>()).status).toBe('cancelling');
    const done = await waitForBatch(id, (b) => b.completedAt !== null);
    expect(done.status).toBe('cancelled');
    expect(done.counts.ended).toBe(n);
    expect(done.counts.cancelled).toBeGreaterThan(n - 100);
    // Items never handed over never started: every item the mock was asked about is below `sent` (item i
    // is at position i). Counted by item, not by request: under load a call not yet stored can reach the mock
    // twice (at-least-once), which made a count of requests exceed `sent` (36 for 33 at load 12).
    const final = (await window())!;
    const called = (await mockPrompts('batch-cancel')).map((p) => Number(/\((\d+)\) Which answer/.exec(p)?.[1]));
    expect(called.every(Number.isInteger), 'every prompt names its item').toBe(true);
    expect(new Set(called).size).toBeGreaterThanOrEqual(seen.ended);
    expect(Math.max(...called)).toBeLessThan(final.sent);
    expect(
      await countWhere('evaluations', "batch_id = ? AND batch_seq >= ? AND status != 'cancelled'", id, final.sent),
    ).toBe(0);
  });
});
