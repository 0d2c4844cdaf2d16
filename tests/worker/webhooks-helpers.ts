/**
 * Workerd-side helpers of the webhook suites: the receiver started by tests/vitest.worker.config.ts
 * (tests/support/webhook-receiver.ts: named sinks that verify with the `standardwebhooks` package),
 * endpoints created through the API, attempts made one by one ({@link attempt}), so retries are
 * deterministic: a test makes a delivery due ({@link makeDue}) instead of waiting out its backoff, and the
 * delivery consumer driven message by message (`createMessageBatch` + `getQueueResult`).
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import worker from '../../src/index.js';
import type { Bindings } from '../../src/config/bindings.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import type { AttemptOutcome } from '../../src/webhooks/deliver.js';
import { attemptDelivery } from '../../src/webhooks/deliver.js';
import { postJson, servedContract } from './api-fetch.js';
import { ContractViolation } from '../support/response-contract.js';
import { insertJob, PAIRWISE, testEnv } from './helpers.js';
import { markEnded } from '../../src/ending-plan.js';
import { d1Override, withD1Override } from './d1-shards-override.js';

/** The test bindings plus the receiver's origin. */
export const hookEnv = testEnv as Bindings & { TEST_MOCK_URL: string; TEST_RECEIVER_URL: string };

/**
 * A scripted receiver answer: a status, `"timeout"` (no answer), `"hold"` (no answer until
 * {@link releaseSink}, then 200), or a status with a `Location`.
 */
export type Answer = number | 'timeout' | 'hold' | { status: number; location?: string };

/** A delivery as the receiver saw it (tests/support/webhook-receiver.ts). */
export interface Received {
  webhookId: string | null;
  webhookTimestamp: string | null;
  webhookSignature: string | null;
  userAgent: string | null;
  body: string;
  verified: boolean;
  verifyError: string | null;
  answered: number | 'timeout' | 'hold';
  at: number;
}

/** The URL deliveries for sink `name` go to. */
export function sinkUrl(name: string): string {
  return `${hookEnv.TEST_RECEIVER_URL}/sinks/${name}`;
}

/** (Re)configures sink `name`: secrets to verify with, answers in order (the last repeats); clears its log. */
export async function configureSink(name: string, secrets: string[], script: Answer[] = [200]): Promise<void> {
  const r = await fetch(`${hookEnv.TEST_RECEIVER_URL}/_control/sinks/${name}`, {
    method: 'PUT',
    body: JSON.stringify({ secrets, script }),
  });
  if (!r.ok) throw new Error(`receiver control: ${r.status}`);
}

/** Answers every request sink `name` holds (`"hold"`) with 200; returns how many. */
export async function releaseSink(name: string): Promise<number> {
  const r = await fetch(`${hookEnv.TEST_RECEIVER_URL}/_control/sinks/${name}/release`, { method: 'POST' });
  return (await r.json<{ released: number }>()).released;
}

/**
 * Every request sink `name` received since it was configured. Each event body must be one the served
 * document's `webhooks` section describes, with its integers written as integers: a drift fails the test
 * that reads it.
 */
export async function received(name: string): Promise<Received[]> {
  const r = await fetch(`${hookEnv.TEST_RECEIVER_URL}/_control/sinks/${name}`);
  const requests = (await r.json<{ requests: Received[] }>()).requests;
  const contract = await servedContract();
  for (const got of requests) {
    // The raw text, not its parse: an integer written `2.0` parses as 2 but breaks a strict receiver.
    let error: string | null;
    try {
      error = contract.webhookBodyError(got.body);
    } catch (e) {
      if (e instanceof SyntaxError) continue; // a test posting garbage to its own sink
      throw e;
    }
    if (error) throw new ContractViolation(`webhook to sink ${name}: ${error}; body: ${got.body.slice(0, 300)}`);
  }
  return requests;
}

/** Creates an endpoint through the API; returns its id and secret. */
export async function createEndpointFor(url: string, events?: string[]): Promise<{ id: string; secret: string }> {
  const r = await postJson('/v1/webhook-endpoints', { url, ...(events ? { events } : {}) });
  if (r.status !== 201) throw new Error(`create endpoint: ${r.status} ${await r.text()}`);
  return r.json<{ id: string; secret: string }>();
}

/** Creates an endpoint of `tenant` through the service (each test its own tenant, so fan-outs never cross tests). */
export async function endpointOf(
  tenant: string,
  url: string,
  events?: ('evaluation.succeeded' | 'evaluation.failed' | 'evaluation.cancelled')[],
): Promise<{ id: string; secret: string }> {
  return createEndpoint(withD1Override(hookEnv), tenant, { url, ...(events ? { events } : {}) });
}

/**
 * An evaluation of `tenant` that ended `failed` through the ending's own transaction (so its event and
 * deliveries exist) without the post-commit queue kick: the test drives every attempt itself.
 */
export async function endedEvaluation(tenant: string): Promise<string> {
  const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant });
  if (!(await markEnded(testEnv.DB, id, 'failed', { code: 'test', message: 'ended by the test' }, Date.now())))
    throw new Error('not ended');
  return id;
}

/** The delivery rows of `subject`'s events, as stored. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string | null;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

export async function deliveriesOf(subject: string): Promise<DeliveryRow[]> {
  const { results } = await testEnv.DB.prepare(
    `SELECT d.id, d.event_id, d.endpoint_id, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error
     FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.subject_id = ? ORDER BY d.target`,
  )
    .bind(subject)
    .all<DeliveryRow>();
  return results;
}

export async function deliveryRow(id: string): Promise<DeliveryRow> {
  const row = await testEnv.DB.prepare(
    'SELECT id, event_id, endpoint_id, status, attempts, next_attempt_at, last_status_code, last_error FROM webhook_deliveries WHERE id = ?',
  )
    .bind(id)
    .first<DeliveryRow>();
  if (!row) throw new Error(`no delivery ${id}`);
  return row;
}

/** "The backoff has passed": makes a pending delivery due now. */
export async function makeDue(id: string): Promise<void> {
  await testEnv.DB.prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?')
    .bind(Date.now() - 1, id)
    .run();
}

/**
 * Makes one attempt of delivery `id` as its lane would, with `overrides` on the bindings (e.g. a short
 * `WEBHOOK_TIMEOUT_MS`), and returns its outcome.
 */
export function attempt(id: string, overrides: Partial<Bindings> = {}): Promise<AttemptOutcome> {
  return attemptDelivery({ ...hookEnv, ...d1Override(), ...overrides }, id);
}

let msgCounter = 0;

/**
 * Runs the Worker's queue handler on one batch of `tribunal-webhooks` messages for `deliveryIds` (each is
 * handed to its receiver's lane), with `overrides` on the consumer's bindings; returns the queue's verdict
 * per message.
 * `getQueueResult` does not report a retry's `delaySeconds`, so each message is wrapped to record it.
 */
export async function runConsumer(
  deliveryIds: string[],
  overrides: Partial<Bindings> = {},
): Promise<{ acked: string[]; retried: { msgId: string; delaySeconds: number | undefined }[]; msgIds: string[] }> {
  const msgIds = deliveryIds.map(() => `wh-${++msgCounter}`);
  const batch = createMessageBatch(
    'tribunal-webhooks',
    deliveryIds.map((deliveryId, i) => ({ id: msgIds[i]!, timestamp: Date.now(), attempts: 1, body: { deliveryId } })),
  );
  const delays = new Map<string, number | undefined>();
  const recording: MessageBatch = {
    queue: batch.queue,
    metadata: batch.metadata,
    messages: batch.messages.map((m) => ({
      id: m.id,
      timestamp: m.timestamp,
      body: m.body,
      attempts: m.attempts,
      ack: () => {
        m.ack();
      },
      retry: (options?: QueueRetryOptions) => {
        delays.set(m.id, options?.delaySeconds);
        m.retry(options);
      },
    })),
    ackAll: () => {
      batch.ackAll();
    },
    retryAll: (options?: QueueRetryOptions) => {
      batch.retryAll(options);
    },
  };
  const ctx = createExecutionContext();
  await worker.queue(recording, { ...hookEnv, ...d1Override(), ...overrides }, ctx);
  const result = await getQueueResult(batch, ctx);
  return {
    acked: result.explicitAcks,
    retried: result.retryMessages.map((r) => ({ msgId: r.msgId, delaySeconds: delays.get(r.msgId) })),
    msgIds,
  };
}
