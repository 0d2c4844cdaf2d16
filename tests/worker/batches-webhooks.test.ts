/**
 * A batch's completion through the webhooks outbox: `batch.completed` (or `meta_evaluation.completed`)
 * is written in the transaction of the ending that completes the batch, exactly once however the
 * endings repeat and race, and a subscribed endpoint (and the batch's one-off `webhook.url`) receives
 * exactly one signed delivery, verified by the test's receiver with the `standardwebhooks` package.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewBatchItem } from '../../src/batches/rows.js';
import { insertBatch } from '../../src/batches/rows.js';
import type { BatchEventData } from '../../src/batches/completion-event.js';
import { BatchEventDataSchema, completionEventId } from '../../src/batches/completion-event.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import type { ErrorJson } from './api-fetch.js';
import { api } from './api-fetch.js';
import { drainAlarms, newTestId, testEnv } from './helpers.js';
import { createBatchId, items, pairItem, postBatch, singleCallJudge, waitForBatch } from './batches-support.js';
import { configureSink, deliveriesOf, hookEnv, received, sinkUrl } from './webhooks-helpers.js';
import { markEnded } from '../../src/ending-plan.js';

afterEach(drainAlarms);

const db = testEnv.DB;

/** A stored batch of `n` queued items of `tenant` (no queue, no objects: the test ends the rows). */
async function storedBatch(
  tenant: string,
  n: number,
  kind: 'batch' | 'meta_evaluation',
): Promise<{ id: string; items: string[] }> {
  const id = newTestId(kind === 'batch' ? 'ba_hook' : 'me_hook');
  const list: NewBatchItem[] = Array.from({ length: n }, (_, i) => ({
    evaluationId: `${id}_ev${i}`,
    seq: i,
    itemId: null,
    task: pairItem(i),
    metadata: null,
    callsPlanned: 1,
  }));
  const created = await insertBatch(db, {
    id,
    tenant,
    kind,
    method: 'single',
    preset: 'fastchat-pair',
    config: { method: 'single' },
    webhookUrl: null,
    idempotencyKey: null,
    requestHash: null,
    concurrency: 16,
    items: list,
    now: Date.now(),
  });
  expect(created).toBe(true);
  return { id, items: list.map((i) => i.evaluationId) };
}

interface EventRow {
  id: string;
  type: string;
  cause_id: string;
  payload: string;
}

const eventsAbout = async (subject: string) =>
  (
    await db
      .prepare('SELECT id, type, cause_id, payload FROM webhook_events WHERE subject_id = ?')
      .bind(subject)
      .all<EventRow>()
  ).results;

describe('the completion event in the outbox', () => {
  it('is written once, in the completing ending, whatever repeats and races; its type follows the kind', async () => {
    const tenant = newTestId('tenant_hooks');
    await createEndpoint(hookEnv, tenant, {
      url: sinkUrl('batch-outbox'),
      events: ['batch.completed', 'meta_evaluation.completed'],
    });
    for (const kind of ['batch', 'meta_evaluation'] as const) {
      const b = await storedBatch(tenant, 3, kind);
      const [x, y, z] = b.items as [string, string, string];
      await markEnded(db, x, 'failed', { code: 'x', message: 'y' }, Date.now());
      await markEnded(db, x, 'failed', { code: 'x', message: 'y' }, Date.now());
      await markEnded(db, y, 'cancelled', null, Date.now());
      expect(await eventsAbout(b.id)).toEqual([]);
      // The last item's endings race each other and a repeat of an earlier one.
      await Promise.all([
        markEnded(db, z, 'cancelled', null, Date.now()),
        markEnded(db, z, 'failed', { code: 'x', message: 'y' }, Date.now()),
        markEnded(db, x, 'failed', { code: 'x', message: 'y' }, Date.now()),
      ]);
      await markEnded(db, z, 'cancelled', null, Date.now());
      const events = await eventsAbout(b.id);
      expect(events).toHaveLength(1);
      const type = kind === 'batch' ? 'batch.completed' : 'meta_evaluation.completed';
      expect(events[0]).toMatchObject({ id: completionEventId(kind, b.id), type, cause_id: z });
      const payload = JSON.parse(events[0]!.payload) as { type: string; data: BatchEventData };
      expect(payload.type).toBe(type);
      expect(BatchEventDataSchema.parse(payload.data)).toMatchObject({
        id: b.id,
        kind,
        status: 'completed',
        itemsTotal: 3,
        counts: { succeeded: 0, failed: 1, cancelled: 2 },
        links: {
          self: `/v1/batches/${b.id}`,
          metaEvaluation: kind === 'batch' ? null : `/v1/meta-evaluations/${b.id}`,
        },
      });
      expect(await deliveriesOf(b.id)).toHaveLength(1);
    }
  });

  it('a batch without a subscribed endpoint or a webhook.url writes no event', async () => {
    const tenant = newTestId('tenant_nohooks');
    await createEndpoint(hookEnv, tenant, { url: sinkUrl('batch-unsubscribed'), events: ['evaluation.succeeded'] });
    const b = await storedBatch(tenant, 1, 'batch');
    expect(await markEnded(db, b.items[0]!, 'cancelled', null, Date.now())).toBe(true);
    expect(await eventsAbout(b.id)).toEqual([]);
    expect(
      (
        await db
          .prepare('SELECT completed_at FROM batches WHERE id = ?')
          .bind(b.id)
          .first<{ completed_at: number | null }>()
      )?.completed_at,
    ).not.toBeNull();
  });
});

describe('delivery through the real queue', () => {
  it("a subscribed endpoint and the batch's webhook.url each receive exactly one signed batch.completed", async () => {
    const ep = await createEndpoint(hookEnv, 'default', {
      url: sinkUrl('batch-endpoint'),
      events: ['batch.completed'],
    });
    await configureSink('batch-endpoint', [ep.secret]);
    const refused = await postBatch({
      ...singleCallJudge('batch-hook'),
      items: items(1),
      webhook: { url: 'https://10.0.0.1/hook' },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json<ErrorJson>()).error).toMatchObject({
      code: 'url_not_allowed',
      issues: [{ path: 'webhook.url' }],
    });
    const { secret } = await (await api('/v1/webhook-signing-secret', { method: 'POST' })).json<{ secret: string }>();
    await configureSink('batch-once', [secret]);

    const id = await createBatchId({
      ...singleCallJudge('batch-hook'),
      items: items(3),
      webhook: { url: sinkUrl('batch-once') },
    });
    const done = await waitForBatch(id);
    expect(done.counts).toMatchObject({ succeeded: 3 });
    for (const sink of ['batch-endpoint', 'batch-once']) {
      await expect.poll(async () => (await received(sink)).length, { timeout: WAIT_MS, interval: 50 }).toBe(1);
      const [got] = await received(sink);
      expect(got).toMatchObject({ verified: true, answered: 200, webhookId: completionEventId('batch', id) });
      expect(JSON.parse(got!.body)).toMatchObject({
        type: 'batch.completed',
        data: { id, status: 'completed', counts: { succeeded: 3, failed: 0, cancelled: 0 } },
      });
    }
    await expect
      .poll(async () => (await deliveriesOf(id)).map((d) => d.status), { timeout: WAIT_MS })
      .toEqual(['delivered', 'delivered']);
    // Its items' evaluation events went nowhere: the endpoint is subscribed to batch.completed only.
    expect(await received('batch-endpoint')).toHaveLength(1);
    expect(await received('batch-once')).toHaveLength(1);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });
});
