/**
 * @module
 * Consumers of `tribunal-webhooks` and its dead-letter queue. Each message is `{ deliveryId }`; the
 * consumer hands the delivery to its receiver's lane (src/webhooks/lane.ts: a D1 read and one RPC), which
 * sends it and holds its retries, and acks. So a message takes milliseconds whatever its receiver does: a
 * receiver that hangs never holds the other deliveries of a batch, or the batches after it.
 * - a delivery that is gone or no longer pending: acked, nothing to do;
 * - on a D1 or lane error (nothing handed over): retried with a short backoff; after `max_retries` the
 *   message goes to the DLQ, whose consumer notes it on the row for the sweeper.
 * A malformed message is acked and logged, never retried.
 */
import { backoffDelay } from '../src/backoff/backoff.js';
import { log } from '../src/log/log.js';
import { consume } from './consumer.js';
import { DeliveryMessageSchema } from '../src/webhooks/dispatch.js';
import { handOver } from '../src/webhooks/lane.js';
import { recordDb } from '../src/config/d1-shards.js';

/** Retry delay after a consumer error (not a receiver's), seconds: 5, 10, 20, … capped at 300. */
export function consumerRetryDelaySeconds(attempts: number): number {
  return backoffDelay(attempts, { base: 5, max: 300 });
}

/** The delivery consumer: each delivery handed to its receiver's lane. */
export const handleWebhookDeliveries = consume({
  name: 'webhook.consumer',
  schema: DeliveryMessageSchema,
  subject: ({ deliveryId }) => ({ deliveryId }),
  retryDelaySeconds: consumerRetryDelaySeconds,
  retryLevel: 'error',
  async handle({ deliveryId }, _msg, env) {
    await handOver(env, deliveryId);
    return 'ack';
  },
});

/**
 * The delivery dead-letter consumer: notes the cause on the delivery (still pending, so the sweeper
 * re-enqueues it when due; its retry window bounds how long) and acks.
 */
export const handleWebhookDeadLetters = consume({
  name: 'webhook.dead_letter',
  schema: DeliveryMessageSchema,
  subject: ({ deliveryId }) => ({ deliveryId }),
  retryDelaySeconds: () => 30,
  retryLevel: 'error',
  oneAtATime: true,
  async handle({ deliveryId }, msg, env) {
    await (
      await recordDb(env, deliveryId)
    )
      .prepare(`UPDATE webhook_deliveries SET last_error = ?, updated_at = ? WHERE id = ? AND status = 'pending'`)
      .bind('the delivery queue gave up on this message; the sweeper re-enqueues it', Date.now(), deliveryId)
      .run();
    log('warn', 'webhook.dead_letter', { messageId: msg.id, deliveryId });
    return 'ack';
  },
});
