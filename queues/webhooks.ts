/**
 * @module
 * Consumers of `tribunal-webhooks` and its dead-letter queue. Each message is `{ deliveryId }`; the
 * consumer makes one attempt (src/webhooks/deliver.ts) and then:
 * - acks: delivered, failed for good, or nothing to do (a duplicate message, not yet due, leased);
 * - `retry({ delaySeconds })` with the backoff the attempt recorded in D1, when that is within the
 *   queue's 12 h limit (else acks: the cron sweeper re-enqueues the delivery when it is due);
 * - on a D1 error (the attempt could not be claimed or recorded): retries with a short backoff; after
 *   `max_retries` the message goes to the DLQ, whose consumer notes it on the row for the sweeper.
 * A malformed message is acked and logged, never retried.
 */
import { backoffDelay } from '../src/backoff/backoff.js';
import { log } from '../src/log/log.js';
import { consume } from './consumer.js';
import { QUEUE_MAX_DELAY_SECONDS } from '../src/webhooks/retry-policy.js';
import { attemptDelivery } from '../src/webhooks/deliver.js';
import { DeliveryMessageSchema } from '../src/webhooks/dispatch.js';

/** Retry delay after a consumer error (not a receiver's), seconds: 5, 10, 20, … capped at 300. */
export function consumerRetryDelaySeconds(attempts: number): number {
  return backoffDelay(attempts, { base: 5, max: 300 });
}

/** The delivery consumer: one signed attempt per message, retried as the attempt's backoff says. */
export const handleWebhookDeliveries = consume({
  name: 'webhook.consumer',
  schema: DeliveryMessageSchema,
  subject: ({ deliveryId }) => ({ deliveryId }),
  retryDelaySeconds: consumerRetryDelaySeconds,
  retryLevel: 'error',
  async handle({ deliveryId }, _msg, env) {
    const outcome = await attemptDelivery(env, deliveryId);
    return outcome.kind === 'retry' && outcome.delaySeconds <= QUEUE_MAX_DELAY_SECONDS
      ? { retryInSeconds: outcome.delaySeconds }
      : 'ack';
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
    await env.DB.prepare(
      `UPDATE webhook_deliveries SET last_error = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
    )
      .bind('the delivery queue gave up on this message; the sweeper re-enqueues it', Date.now(), deliveryId)
      .run();
    log('warn', 'webhook.dead_letter', { messageId: msg.id, deliveryId });
    return 'ack';
  },
});
