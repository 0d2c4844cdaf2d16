/**
 * @module
 * Which consumer handles which queue: one table, by queue name (wrangler.toml's `[[queues.consumers]]`).
 * A batch from a queue the table does not know is refused, never handed to another consumer: it is logged
 * as an error (`queue.unknown`) and retried later, so a deployment bound to a queue this code does not
 * serve loses nothing while it is fixed (after the queue's own retries, its dead-letter queue has them).
 */
import type { Bindings } from '../src/config/bindings.js';
import { log } from '../src/log/log.js';
import { WEBHOOKS_DLQ, WEBHOOKS_QUEUE } from '../src/webhooks/dispatch.js';
import { BATCHES_QUEUE, handleBatchMessages } from './batch-fanout.js';
import type { BatchHandler } from './consumer.js';
import { handleDeadLetters, JOBS_DLQ } from './jobs-dead-letter.js';
import { handleJobs, JOBS_QUEUE } from './jobs.js';
import { handleWebhookDeadLetters, handleWebhookDeliveries } from './webhooks.js';
import { SPANS_QUEUE } from '../src/traces/ingest.js';
import { handleSpans, handleSpansDeadLetters, SPANS_DLQ } from './spans.js';
import { handleMaintenance, MAINTENANCE_QUEUE } from './maintenance.js';

/** Each queue this Worker consumes, and its consumer. */
export const QUEUE_CONSUMERS: Readonly<Record<string, BatchHandler>> = {
  [JOBS_QUEUE]: handleJobs,
  [JOBS_DLQ]: handleDeadLetters,
  [BATCHES_QUEUE]: handleBatchMessages,
  [WEBHOOKS_QUEUE]: handleWebhookDeliveries,
  [WEBHOOKS_DLQ]: handleWebhookDeadLetters,
  [SPANS_QUEUE]: handleSpans,
  [SPANS_DLQ]: handleSpansDeadLetters,
  [MAINTENANCE_QUEUE]: handleMaintenance,
};

/** Delay of the retry of a batch from an unknown queue, seconds: 60. */
export const UNKNOWN_QUEUE_RETRY_SECONDS = 60;

/** Hands a batch to its queue's consumer, or refuses it (see the module note). */
export async function routeQueue(batch: MessageBatch, env: Bindings): Promise<void> {
  const handle = QUEUE_CONSUMERS[batch.queue];
  if (!handle) {
    log('error', 'queue.unknown', { queue: batch.queue, messages: batch.messages.length });
    batch.retryAll({ delaySeconds: UNKNOWN_QUEUE_RETRY_SECONDS });
    return;
  }
  await handle(batch, env);
}
