/**
 * Outbound delivery, attempt by attempt: a receiver started by the test verifies every request with the
 * `standardwebhooks` package; each attempt is made by the test (as a lane makes it), so each retry is
 * deterministic.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { drainAlarms } from './helpers.js';
import {
  attempt,
  configureSink,
  deliveriesOf,
  deliveryRow,
  endedEvaluation,
  hookEnv,
  endpointOf,
  makeDue,
  received,
  sinkUrl,
} from './webhooks-helpers.js';
import { api, postJson } from './api-fetch.js';
import { webhookEventId } from '../../src/webhooks/outbox.js';
import { testEnv } from './helpers.js';
import { listDeliveries } from '../../src/webhooks/deliveries.js';

afterEach(drainAlarms);

/** Bindings of the attempts in these tests: a 500 ms timeout instead of 10 s. */
const FAST = { WEBHOOK_TIMEOUT_MS: '500' };

describe('retries until a 2xx, never a second event', () => {
  it('500, then a timeout, then 200: one event id, delivered once, every attempt logged and verified', async () => {
    const tenant = 'dlv-retry';
    const ep = await endpointOf(tenant, sinkUrl('retry'));
    await configureSink('retry', [ep.secret], [500, 'timeout', 200]);
    const id = await endedEvaluation(tenant);
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ endpoint_id: ep.id, status: 'pending', attempts: 0 });
    const dlv = delivery!.id;

    // Attempt 1: 500 → retried with a backoff in [1, 30] s, recorded in D1.
    const first = await attempt(dlv, FAST);
    if (first.kind !== 'retry') throw new Error(`expected a retry, got ${first.kind}`);
    const delay1 = first.delaySeconds;
    expect(delay1).toBeGreaterThanOrEqual(1);
    expect(delay1).toBeLessThanOrEqual(30);
    const after1 = await deliveryRow(dlv);
    expect(after1).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500' });
    expect(after1.next_attempt_at! - Date.now()).toBeGreaterThan(0);

    // A second attempt before the backoff has passed sends nothing, and says when it is due.
    expect(await attempt(dlv, FAST)).toEqual({ kind: 'skipped', why: 'not_due', dueAt: after1.next_attempt_at });
    expect(await received('retry')).toHaveLength(1);

    // Attempt 2: no answer within the timeout → retried with a backoff in [1, 60] s.
    await makeDue(dlv);
    const second = await attempt(dlv, FAST);
    expect(second).toMatchObject({ kind: 'retry' });
    expect(second.kind === 'retry' && second.delaySeconds).toBeLessThanOrEqual(60);
    expect(await deliveryRow(dlv)).toMatchObject({
      status: 'pending',
      attempts: 2,
      last_status_code: null,
      last_error: 'timed out after 500 ms',
    });

    // Attempt 3: 200 → delivered.
    await makeDue(dlv);
    expect(await attempt(dlv, FAST)).toEqual({ kind: 'delivered' });
    expect(await deliveryRow(dlv)).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });

    // The receiver saw three requests of ONE event, each signed and verified, with the same body.
    const seen = await received('retry');
    expect(seen.map((r) => r.answered)).toEqual([500, 'timeout', 200]);
    expect(new Set(seen.map((r) => r.webhookId))).toEqual(new Set([webhookEventId('evaluation.failed', id)]));
    expect(seen.map((r) => r.verifyError)).toEqual([null, null, null]);
    expect(seen.every((r) => r.verified)).toBe(true);
    expect(new Set(seen.map((r) => r.body)).size).toBe(1);
    expect(seen[0]!.userAgent).toMatch(/^Tribunal-Webhooks\//);
    const payload = JSON.parse(seen[0]!.body) as { type: string; data: { id: string; status: string } };
    expect(payload).toMatchObject({ type: 'evaluation.failed', data: { id, status: 'failed' } });

    // The delivery log shows each attempt; the 500's long body was cut to its first KiB.
    const page = await listDeliveries(hookEnv, tenant, { endpoint: ep.id, limit: 10 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      id: dlv,
      status: 'delivered',
      attempts: 3,
      lastStatusCode: 200,
      eventType: 'evaluation.failed',
      subjectId: id,
    });
    const log = page.data[0]!.attemptLog;
    expect(log.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, null, 'timed out after 500 ms'],
      [3, 200, null],
    ]);
    expect(log[0]!.responseExcerpt!.length).toBe(1024);
    expect(log[0]!.responseExcerpt).toMatch(/^failure 500/);
    expect(log[2]!.responseExcerpt).toBe('ok');
    // Tenant scoping: for another tenant (the API's `default`) this endpoint does not exist.
    expect((await api(`/v1/webhook-endpoints/${ep.id}/deliveries`)).status).toBe(404);

    // Attempted afterwards: nothing is sent again, and there is still one event.
    expect(await attempt(dlv, FAST)).toEqual({ kind: 'skipped', why: 'not_pending' });
    expect(await received('retry')).toHaveLength(3);
    const events = await testEnv.DB.prepare('SELECT count(*) AS n FROM webhook_events WHERE subject_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(events?.n).toBe(1);
  });

  it('two attempts of one due delivery at once: one request (the lease), the other told when the lease ends', async () => {
    const tenant = 'dlv-lease';
    const ep = await endpointOf(tenant, sinkUrl('lease'));
    await configureSink('lease', [ep.secret], [200]);
    const id = await endedEvaluation(tenant);
    const dlv = (await deliveriesOf(id))[0]!.id;
    const outcomes = await Promise.all([attempt(dlv, FAST), attempt(dlv, FAST)]);
    expect(outcomes).toContainEqual({ kind: 'delivered' });
    expect(outcomes).toContainEqual({ kind: 'skipped', why: 'leased', dueAt: expect.any(Number) as number });
    expect(await received('lease')).toHaveLength(1);
    expect((await deliveryRow(dlv)).attempts).toBe(1);
  });

  it('past its retry window a failure is final: failed, not retried', async () => {
    const tenant = 'dlv-window';
    const ep = await endpointOf(tenant, sinkUrl('window'));
    await configureSink('window', [ep.secret], [503]);
    const id = await endedEvaluation(tenant);
    const dlv = (await deliveriesOf(id))[0]!.id;
    await testEnv.DB.prepare('UPDATE webhook_deliveries SET window_ends_at = ? WHERE id = ?')
      .bind(Date.now() - 1, dlv)
      .run();
    expect(await attempt(dlv, FAST)).toEqual({ kind: 'failed', reason: 'HTTP 503' });
    expect(await deliveryRow(dlv)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status_code: 503,
      next_attempt_at: null,
    });
  });

  it('a redirect is not followed: the 3xx is a failed attempt, its target never called', async () => {
    const tenant = 'dlv-redirect';
    const ep = await endpointOf(tenant, sinkUrl('redirect'));
    await configureSink('redirect', [ep.secret], [{ status: 307, location: sinkUrl('redirect-target') }]);
    await configureSink('redirect-target', [ep.secret], [200]);
    const id = await endedEvaluation(tenant);
    const dlv = (await deliveriesOf(id))[0]!.id;
    expect(await attempt(dlv, FAST)).toMatchObject({ kind: 'retry' });
    const row = await deliveryRow(dlv);
    expect(row).toMatchObject({ status: 'pending', last_status_code: 307 });
    expect(row.last_error).toBe(`redirect not followed (307 to ${sinkUrl('redirect-target')})`);
    expect(await received('redirect-target')).toEqual([]);
  });
});

describe('410 Gone disables the endpoint', () => {
  it('the endpoint is disabled, its other pending deliveries fail, new events skip it; re-enabled, a retry delivers', async () => {
    const tenant = 'default';
    const ep = await endpointOf(tenant, sinkUrl('gone'));
    await configureSink('gone', [ep.secret], [410]);
    const a = await endedEvaluation(tenant);
    const b = await endedEvaluation(tenant);
    const da = (await deliveriesOf(a)).find((d) => d.endpoint_id === ep.id)!.id;
    const db = (await deliveriesOf(b)).find((d) => d.endpoint_id === ep.id)!.id;

    expect(await attempt(da, FAST)).toEqual({ kind: 'failed', reason: 'HTTP 410' });
    expect(await deliveryRow(da)).toMatchObject({ status: 'failed', last_status_code: 410 });
    const shown = await (
      await api(`/v1/webhook-endpoints/${ep.id}`)
    ).json<{ enabled: boolean; disabledReason: string | null }>();
    expect(shown).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone' });
    // The other delivery failed with it, unattempted; an attempt of it sends nothing.
    expect(await deliveryRow(db)).toMatchObject({
      status: 'failed',
      attempts: 0,
      last_error: 'endpoint disabled: the receiver answered 410 Gone',
    });
    expect(await attempt(db, FAST)).toEqual({ kind: 'skipped', why: 'not_pending' });
    expect(await received('gone')).toHaveLength(1);
    // A new event does not fan out to it.
    const c = await endedEvaluation(tenant);
    expect((await deliveriesOf(c)).filter((d) => d.endpoint_id === ep.id)).toEqual([]);

    // Retrying while disabled is refused; after re-enabling, the retry is queued and delivered.
    const refused = await api(`/v1/webhook-endpoints/${ep.id}/deliveries/${db}/retry`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect((await refused.json<{ error: { code: string } }>()).error.code).toBe('endpoint_disabled');
    const enabled = await api(`/v1/webhook-endpoints/${ep.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    });
    expect((await enabled.json<{ enabled: boolean }>()).enabled).toBe(true);
    await configureSink('gone', [ep.secret], [200]);
    const retried = await postJson(`/v1/webhook-endpoints/${ep.id}/deliveries/${db}/retry`, {});
    expect(retried.status).toBe(202);
    expect(await retried.json()).toMatchObject({
      id: db,
      status: 'pending',
      eventId: webhookEventId('evaluation.failed', b),
    });
    // The retry went to the real queue and the endpoint's lane; the lease keeps this test's own attempt
    // and the lane's from sending twice at once.
    await attempt(db, FAST);
    await expect.poll(async () => (await deliveryRow(db)).status).toBe('delivered');
    const seen = await received('gone');
    expect(seen.filter((r) => r.answered === 200)).toHaveLength(1);
    expect(seen[0]!.webhookId).toBe(webhookEventId('evaluation.failed', b));
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });
});
