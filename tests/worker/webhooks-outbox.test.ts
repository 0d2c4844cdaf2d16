/**
 * The outbox: an evaluation's ending writes its webhook event and deliveries in the ending's own D1
 * transaction, exactly once, whoever ends it; the event's data carries the verdict summary and usage,
 * never the transcript; an event without recipients is not written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationEventDataSchema } from '../../src/evaluations/webhook-event.js';
import { webhookEventId, webhookEventStatements } from '../../src/webhooks/outbox.js';
import { sha256HexSync } from '../../src/webhooks/sha256.js';
import { sql } from '../../src/webhooks/sql.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';
import { sinkUrl } from './webhooks-helpers.js';
import { markEnded } from '../../src/ending-plan.js';

afterEach(drainAlarms);

let n = 0;
/**
 * Registers an endpoint row for `tenant` directly (here only the outbox matters; the post-commit kick
 * still sends its deliveries, to the test receiver, which answers 200).
 */
async function endpointRow(tenant: string, events: string[] | null = null, disabled = false): Promise<string> {
  n += 1;
  const id = `we_outbox_${n}`;
  await testEnv.DB.prepare(
    `INSERT INTO webhook_endpoints (id, tenant, url, events, secret, disabled_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'whsec_dGVzdA==', ?, 0, 0)`,
  )
    .bind(id, tenant, sinkUrl('outbox'), events ? JSON.stringify(events) : null, disabled ? 1 : null)
    .run();
  return id;
}

interface EventRow {
  id: string;
  type: string;
  tenant: string;
  payload: string;
}

async function eventsOf(subject: string): Promise<EventRow[]> {
  return (
    await testEnv.DB.prepare('SELECT id, type, tenant, payload FROM webhook_events WHERE subject_id = ?')
      .bind(subject)
      .all<EventRow>()
  ).results;
}

async function deliveriesOf(
  eventId: string,
): Promise<{ target: string; status: string; attempts: number; url: string | null }[]> {
  return (
    await testEnv.DB.prepare(
      'SELECT target, status, attempts, url FROM webhook_deliveries WHERE event_id = ? ORDER BY target',
    )
      .bind(eventId)
      .all<{ target: string; status: string; attempts: number; url: string | null }>()
  ).results;
}

describe('event ids', () => {
  it('the synchronous sha-256 agrees with crypto.subtle, on empty, short, multi-block and non-ASCII input', async () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é🙂'.repeat(100)]) {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
      const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
      expect(sha256HexSync(text), JSON.stringify(text.slice(0, 10))).toBe(hex);
    }
  });

  it('is stable per (type, subject) and differs across types and subjects', () => {
    expect(webhookEventId('evaluation.succeeded', 'ev_1')).toBe(webhookEventId('evaluation.succeeded', 'ev_1'));
    expect(webhookEventId('evaluation.succeeded', 'ev_1')).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(webhookEventId('evaluation.failed', 'ev_1')).not.toBe(webhookEventId('evaluation.succeeded', 'ev_1'));
    expect(webhookEventId('evaluation.succeeded', 'ev_2')).not.toBe(webhookEventId('evaluation.succeeded', 'ev_1'));
  });
});

describe('an evaluation ending writes its event in the same transaction', () => {
  it('succeeded: one event with the verdict summary and usage, one delivery per subscribed enabled endpoint, nothing twice', async () => {
    const tenant = 'outbox-a';
    const all = await endpointRow(tenant);
    const only = await endpointRow(tenant, ['evaluation.succeeded']);
    await endpointRow(tenant, ['evaluation.failed']);
    await endpointRow(tenant, null, true);
    await endpointRow('outbox-other');
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');

    const events = await eventsOf(id);
    expect(events.map((e) => [e.id, e.type, e.tenant])).toEqual([
      [webhookEventId('evaluation.succeeded', id), 'evaluation.succeeded', tenant],
    ]);
    const payload = JSON.parse(events[0]!.payload) as { type: string; timestamp: string; data: unknown };
    expect(payload.type).toBe('evaluation.succeeded');
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    const data = EvaluationEventDataSchema.parse(payload.data);
    expect(data).toMatchObject({
      id,
      status: 'succeeded',
      method: 'single',
      preset: 'fastchat-pair',
      taskKind: 'pairwise',
      error: null,
    });
    expect(data.verdict).toMatchObject({ method: 'single' });
    expect(data.verdict).not.toHaveProperty('transcript');
    expect(data.usage.calls).toBeGreaterThan(0);
    expect(data.links.transcript).toBe(`/v1/evaluations/${id}/transcript`);
    expect(payload.data).not.toHaveProperty('transcript');

    const deliveries = await deliveriesOf(events[0]!.id);
    expect(deliveries.map((d) => d.target).sort()).toEqual([all, only].sort());
    // A repeated end (another writer, a retried final write) changes nothing.
    expect(await markEnded(testEnv.DB, id, 'failed', { code: 'x', message: 'late' }, Date.now())).toBe(false);
    expect(await eventsOf(id)).toHaveLength(1);
    expect(await deliveriesOf(events[0]!.id)).toHaveLength(2);
  });

  it('cancelled while queued: evaluation.cancelled with the error, written by the cancel itself', async () => {
    const tenant = 'outbox-b';
    const ep = await endpointRow(tenant, ['evaluation.cancelled']);
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant });
    expect(await markEnded(testEnv.DB, id, 'cancelled', { code: 'cancelled', message: 'by test' }, Date.now())).toBe(
      true,
    );
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['evaluation.cancelled']);
    const data = EvaluationEventDataSchema.parse((JSON.parse(events[0]!.payload) as { data: unknown }).data);
    expect(data).toMatchObject({
      status: 'cancelled',
      verdict: null,
      error: { code: 'cancelled', message: 'by test' },
    });
    expect((await deliveriesOf(events[0]!.id)).map((d) => d.target)).toEqual([ep]);
  });

  it('no recipient: no event at all', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'outbox-nobody' });
    expect(await markEnded(testEnv.DB, id, 'failed', { code: 'x', message: 'y' }, Date.now())).toBe(true);
    expect(await eventsOf(id)).toEqual([]);
  });

  it('a one-off URL on the row is a recipient of its own, even with no endpoint', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'outbox-once' });
    await testEnv.DB.prepare('UPDATE evaluations SET webhook_url = ? WHERE id = ?')
      .bind('https://once.example/cb', id)
      .run();
    expect(await markEnded(testEnv.DB, id, 'failed', { code: 'x', message: 'y' }, Date.now())).toBe(true);
    const events = await eventsOf(id);
    expect(events).toHaveLength(1);
    expect(await deliveriesOf(events[0]!.id)).toEqual([
      { target: 'once', status: 'pending', attempts: 0, url: 'https://once.example/cb' },
    ]);
  });
});

describe('webhookEventStatements for other producers', () => {
  it('writes plain data under a guard, once; a false guard writes nothing', async () => {
    const tenant = 'outbox-batch';
    await endpointRow(tenant, ['batch.completed']);
    const write = (guard: boolean) =>
      testEnv.DB.batch(
        webhookEventStatements(testEnv.DB, {
          tenant,
          type: 'batch.completed',
          subjectId: guard ? 'bt_1' : 'bt_2',
          data: { id: 'bt_1', counts: { succeeded: 3 } },
          guard: sql`${guard ? 1 : 0} = 1`,
          now: 1_700_000_000_000,
        }),
      );
    await write(true);
    await write(true);
    await write(false);
    const events = await eventsOf('bt_1');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toEqual({
      type: 'batch.completed',
      timestamp: '2023-11-14T22:13:20.000Z',
      data: { id: 'bt_1', counts: { succeeded: 3 } },
    });
    expect(await deliveriesOf(events[0]!.id)).toHaveLength(1);
    expect(await eventsOf('bt_2')).toEqual([]);
  });

  it('every kind of recipient at once: two statements, one delivery each, and a repeat adds none', async () => {
    const tenant = 'outbox-every';
    const ep = await endpointRow(tenant, ['batch.completed']);
    const statements = () =>
      webhookEventStatements(testEnv.DB, {
        tenant,
        type: 'batch.completed',
        subjectId: 'bt_every',
        data: { id: 'bt_every' },
        oneOffUrl: 'https://once.example/every',
        extraRecipients: [
          { target: 'extra-yes', when: sql`1 = 1` },
          { target: 'extra-no', when: sql`1 = 0` },
        ],
        now: 1_700_000_000_000,
      });
    // The event, then all its deliveries in one statement: an ending's transaction carries no more.
    expect(statements()).toHaveLength(2);
    await testEnv.DB.batch(statements());
    await testEnv.DB.batch(statements());
    const events = await eventsOf('bt_every');
    expect(events).toHaveLength(1);
    expect((await deliveriesOf(events[0]!.id)).map((d) => d.target).sort()).toEqual([ep, 'extra-yes', 'once'].sort());
  });
});
