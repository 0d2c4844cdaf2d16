/**
 * Webhooks end to end through the real queue: an evaluation's verdict pushed to an endpoint and to a
 * one-off URL, a trigger's event judged and called back, the sweeper finding a delivery whose queue
 * message was lost and handing it straight to its lane, a failed queue send losing nothing, and
 * signatures across a secret rotation.
 */
import { WAIT_MS } from '../support/patience.js';
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import { afterEnding } from '../../src/ending-plan.js';
import { SWEEP_GRACE_MS, sweepDeliveries } from '../../src/webhooks/dispatch.js';
import { deliveryLeaseMs } from '../../src/webhooks/send.js';
import { rotateEndpointSecret } from '../../src/webhooks/endpoints.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE, testEnv } from './helpers.js';
import {
  attempt,
  configureSink,
  deliveriesOf,
  deliveryRow,
  endedEvaluation,
  endpointOf,
  hookEnv,
  received,
  sinkUrl,
} from './webhooks-helpers.js';

afterEach(drainAlarms);

interface Payload {
  type: string;
  timestamp: string;
  data: {
    id: string;
    status: string;
    verdict: { winner?: string } | null;
    metadata: Record<string, unknown> | null;
    links: { transcript: string };
  };
}

/**
 * The hooks' env with a webhooks queue and lanes that only record the delivery ids handed to them (the
 * lanes' `take` fails when `lanesFail`).
 */
function recordingQueue(lanesFail = false): { env: typeof hookEnv; sent: string[]; taken: string[] } {
  const sent: string[] = [];
  const taken: string[] = [];
  const queue = {
    sendBatch: (m: { body: { deliveryId: string } }[]) => {
      sent.push(...m.map((x) => x.body.deliveryId));
      return Promise.resolve();
    },
  };
  const lanes = {
    idFromName: (name: string) => name,
    get: () => ({
      take: (ids: string[]) => {
        if (lanesFail) return Promise.reject(new Error('lane unavailable'));
        taken.push(...ids);
        return Promise.resolve();
      },
    }),
  };
  return {
    env: {
      ...hookEnv,
      WEBHOOKS: queue as unknown as Queue,
      WEBHOOK_LANE: lanes as unknown as typeof hookEnv.WEBHOOK_LANE,
    },
    sent,
    taken,
  };
}

/** Waits until sink `name` has `n` requests and returns them. */
async function receivedN(name: string, n: number) {
  await expect.poll(async () => (await received(name)).length, { timeout: WAIT_MS, interval: 50 }).toBe(n);
  return received(name);
}

describe('through the real queue', () => {
  it("an evaluation's verdict reaches a subscribed endpoint once, signed, without the transcript", async () => {
    const ep = await endpointOf('default', sinkUrl('e2e'), ['evaluation.succeeded']);
    await configureSink('e2e', [ep.secret]);
    const r = await postJson('/v1/evaluations', { preset: 'fastchat-pair', task: PAIRWISE });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const [got] = await receivedN('e2e', 1);
    expect(got).toMatchObject({ verified: true, answered: 200 });
    const payload = JSON.parse(got!.body) as Payload;
    expect(payload).toMatchObject({
      type: 'evaluation.succeeded',
      data: { id, status: 'succeeded', links: { transcript: `/v1/evaluations/${id}/transcript` } },
    });
    expect(payload.data.verdict?.winner).toMatch(/^(A|B|tie)$/);
    expect(got!.body).not.toContain('"transcript":[');
    await expect.poll(async () => (await deliveriesOf(id)).map((d) => d.status)).toEqual(['delivered']);
    expect(await received('e2e')).toHaveLength(1);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });

  it("a one-off webhook.url needs the tenant's signing secret, passes the URL guard, and is signed with that secret", async () => {
    const refused = await postJson('/v1/evaluations', {
      preset: 'fastchat-pair',
      task: PAIRWISE,
      webhook: { url: sinkUrl('once') },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json<ErrorJson>()).error).toMatchObject({
      code: 'signing_secret_missing',
      issues: [{ path: 'webhook.url' }],
    });
    expect(await (await api('/v1/webhook-signing-secret')).json()).toEqual({
      exists: false,
      createdAt: null,
      previousSecretExpiresAt: null,
    });

    const created = await api('/v1/webhook-signing-secret', { method: 'POST' });
    const { secret } = await created.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_/);
    const status = await (await api('/v1/webhook-signing-secret')).json<Record<string, unknown>>();
    expect(status).toMatchObject({ exists: true });
    expect(status).not.toHaveProperty('secret');

    const metadataUrl = await postJson('/v1/evaluations', {
      preset: 'fastchat-pair',
      task: PAIRWISE,
      webhook: { url: 'https://169.254.169.254/latest' },
    });
    expect(metadataUrl.status).toBe(400);
    expect((await metadataUrl.json<ErrorJson>()).error.message).toBe(
      'webhook.url: refused by rule "metadata": host 169.254.169.254 (169.254.169.254) is a cloud metadata address',
    );

    await configureSink('once', [secret]);
    const r = await postJson('/v1/evaluations', {
      preset: 'fastchat-pair',
      task: PAIRWISE,
      webhook: { url: sinkUrl('once') },
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    const [got] = await receivedN('once', 1);
    expect(got!.verified).toBe(true);
    expect((JSON.parse(got!.body) as Payload).data.id).toBe(id);
    const log = await (
      await api(`/v1/webhook-deliveries?subject=${id}`)
    ).json<{ data: { endpointId: string | null; url: string; status: string }[] }>();
    expect(log.data).toEqual([expect.objectContaining({ endpointId: null, url: sinkUrl('once') })]);
  });

  it("a trigger's signed event is judged and its verdict called back (the README walkthrough)", async () => {
    // Created once per tenant (a test before may have): a second create is 409, so rotate then.
    let made = await api('/v1/webhook-signing-secret', { method: 'POST' });
    if (made.status === 409) made = await api('/v1/webhook-signing-secret/rotate', { method: 'POST' });
    const signing = await made.json<{ secret: string }>();
    await configureSink('trigger-cb', [signing.secret]);
    const t = await (
      await postJson('/v1/triggers', {
        preset: 'fastchat-pair',
        mapping: {
          task: { kind: 'pairwise', question: '/prompt', answerA: '/candidates/0', answerB: '/candidates/1' },
        },
        webhook: { url: sinkUrl('trigger-cb') },
      })
    ).json<{ url: string; secret: string }>();
    const body = JSON.stringify({ prompt: 'What is the capital of Australia?', candidates: ['Canberra.', 'Sydney.'] });
    const now = new Date();
    const r = await api(t.url, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_walkthrough_1',
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(t.secret).sign('msg_walkthrough_1', now, body),
      },
      body,
    });
    expect(r.status).toBe(202);
    const { evaluationId } = await r.json<{ evaluationId: string }>();
    const [got] = await receivedN('trigger-cb', 1);
    expect(got!.verified).toBe(true);
    const payload = JSON.parse(got!.body) as Payload;
    expect(payload.data).toMatchObject({
      id: evaluationId,
      status: 'succeeded',
      metadata: { triggerDeliveryId: 'msg_walkthrough_1' },
    });
  });
});

describe('nothing is lost', () => {
  it('a delivery whose queue message was lost is handed to its lane by the cron sweeper, once per grace period', async () => {
    const ep = await endpointOf('sweep', sinkUrl('swept'));
    await configureSink('swept', [ep.secret]);
    const id = await endedEvaluation('sweep');
    const dlv = (await deliveriesOf(id))[0]!.id;
    // No kick was sent (as if the send had failed), and the delivery is overdue by more than the grace.
    await testEnv.DB.prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?')
      .bind(Date.now() - SWEEP_GRACE_MS - 1000, dlv)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), hookEnv, ctx);
    await waitOnExecutionContext(ctx);
    await receivedN('swept', 1);
    await expect.poll(async () => (await deliveryRow(dlv)).status).toBe('delivered');
    expect((await sweepDeliveries(hookEnv)).enqueued).toBe(0);
  });

  it('a queue send that fails after the commit loses nothing: the delivery stays due and the sweeper sends it', async () => {
    const ep = await endpointOf('send-fails', sinkUrl('send-fails'));
    const id = await endedEvaluation('send-fails');
    const failing = {
      ...hookEnv,
      WEBHOOKS: {
        send: () => Promise.reject(new Error('queue down')),
        sendBatch: () => Promise.reject(new Error('queue down')),
      } as unknown as Queue,
    };
    await expect(afterEnding(failing, id)).resolves.toBeUndefined();
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ endpoint_id: ep.id, status: 'pending', attempts: 0 });
    const { env: recording, sent, taken } = recordingQueue();
    expect((await sweepDeliveries(recording, Date.now() + SWEEP_GRACE_MS + 1000)).enqueued).toBeGreaterThanOrEqual(1);
    // Straight to its receiver's lane: a stuck queue cannot hold it past this sweep.
    expect(taken).toContain(row!.id);
    expect(sent).toEqual([]);
  });

  it('a sweep whose lane fails sends the delivery to the queue instead, with an error line naming the lane', async () => {
    await endpointOf('lane-down', sinkUrl('lane-down'));
    const id = await endedEvaluation('lane-down');
    const [row] = await deliveriesOf(id);
    const { env: recording, sent, taken } = recordingQueue(true);
    const errors = vi.spyOn(console, 'error');
    try {
      await sweepDeliveries(recording, Date.now() + SWEEP_GRACE_MS + 1000);
      expect(taken).toEqual([]);
      expect(sent).toContain(row!.id);
      const lines = errors.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('webhooks.sweep_lane_failed'));
      expect(lines.some((l) => l.includes(`ep:${row!.endpoint_id!}`))).toBe(true);
    } finally {
      errors.mockRestore();
    }
  });

  it("after a restart, a due delivery and one held by the gone runtime's attempt are handed on at once; one claimed since, not", async () => {
    await endpointOf('restart', sinkUrl('restart'), ['evaluation.failed']);
    const [gone, since] = await Promise.all([endedEvaluation('restart'), endedEvaluation('restart')]);
    const [goneRow] = await deliveriesOf(gone);
    const [sinceRow] = await deliveriesOf(since);
    const restartedAt = Date.now() - 5_000;
    const leaseMs = deliveryLeaseMs(hookEnv);
    // Both due a second ago (well within the grace period). The first was claimed before the restart (its
    // lease, still running, was taken 30 s ago), the second after it.
    const hold = testEnv.DB.prepare(
      'UPDATE webhook_deliveries SET next_attempt_at = ?, lease_until = ?, attempts = 1 WHERE id = ?',
    );
    await testEnv.DB.batch([
      hold.bind(Date.now() - 1_000, Date.now() - 30_000 + leaseMs, goneRow!.id),
      hold.bind(Date.now() - 1_000, restartedAt + 1_000 + leaseMs, sinceRow!.id),
    ]);
    const { env: recording, taken } = recordingQueue();
    // The cron's own sweep waits for the grace period and the leases.
    await sweepDeliveries(recording);
    expect(taken.filter((d) => d === goneRow!.id || d === sinceRow!.id)).toEqual([]);
    await sweepDeliveries(recording, Date.now(), restartedAt);
    expect(taken).toContain(goneRow!.id);
    expect(taken).not.toContain(sinceRow!.id);
    // Its lease released, the re-enqueued delivery can be claimed now; the other stays held.
    expect((await deliveryRow(goneRow!.id)).status).toBe('pending');
    const leases = await testEnv.DB.prepare('SELECT id, lease_until FROM webhook_deliveries WHERE id IN (?, ?)')
      .bind(goneRow!.id, sinceRow!.id)
      .all<{ id: string; lease_until: number | null }>();
    expect(Object.fromEntries(leases.results.map((r) => [r.id, r.lease_until !== null]))).toEqual({
      [goneRow!.id]: false,
      [sinceRow!.id]: true,
    });
  });

  it('a dead-lettered message notes it on the delivery, which stays pending for the sweeper', async () => {
    await endpointOf('dlq', sinkUrl('dlq'));
    const id = await endedEvaluation('dlq');
    const dlv = (await deliveriesOf(id))[0]!.id;
    const batch = createMessageBatch('tribunal-webhooks-dlq', [
      { id: 'dead-1', timestamp: Date.now(), attempts: 1, body: { deliveryId: dlv } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, hookEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['dead-1']);
    expect(await deliveryRow(dlv)).toMatchObject({
      status: 'pending',
      last_error: 'the delivery queue gave up on this message; the sweeper re-enqueues it',
    });
  });
});

describe('secret rotation', () => {
  it('for 24 h deliveries carry a signature by the new and by the previous secret: receivers on either verify', async () => {
    const ep = await endpointOf('rotation', sinkUrl('rot-old'));
    const rotated = await rotateEndpointSecret(hookEnv, 'rotation', ep.id);
    expect(rotated.secret).not.toBe(ep.secret);
    for (const [sink, secrets] of [
      ['rot-old', [ep.secret]],
      ['rot-new', [rotated.secret]],
    ] as const) {
      await configureSink(sink, [...secrets]);
      await testEnv.DB.prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?').bind(sinkUrl(sink), ep.id).run();
      const id = await endedEvaluation('rotation');
      await attempt((await deliveriesOf(id))[0]!.id);
      const [got] = await received(sink);
      expect(got?.verified, sink).toBe(true);
      expect(got!.webhookSignature!.split(' ')).toHaveLength(2);
    }
  });
});
