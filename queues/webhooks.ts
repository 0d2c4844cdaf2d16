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
import type { Bindings } from '../src/config/bindings.js';
import { log, messageOf } from '../src/log/log.js';
import { QUEUE_MAX_DELAY_SECONDS } from '../src/webhooks/backoff.js';
import { attemptDelivery } from '../src/webhooks/deliver.js';
import { DeliveryMessageSchema } from '../src/webhooks/dispatch.js';

/** Retry delay after a consumer error (not a receiver's), seconds: 5, 10, 20, … capped at 300. */
export function consumerRetryDelaySeconds(attempts: number): number {
  return Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));
}

/** Handles one batch of delivery messages; every message is acked or retried explicitly. */
export async function handleWebhookDeliveries(batch: MessageBatch, env: Bindings): Promise<void> {
  await Promise.all(batch.messages.map((msg) => handleDelivery(msg, env)));
}

async function handleDelivery(msg: Message, env: Bindings): Promise<void> {
  const parsed = DeliveryMessageSchema.safeParse(msg.body);
  if (!parsed.success) {
    log('error', 'webhook.invalid_message', { messageId: msg.id });
    msg.ack();
    return;
  }
  const { deliveryId } = parsed.data;
  try {
    const outcome = await attemptDelivery(env, deliveryId);
    if (outcome.kind === 'retry' && outcome.delaySeconds <= QUEUE_MAX_DELAY_SECONDS)
      msg.retry({ delaySeconds: outcome.delaySeconds });
    else msg.ack();
  } catch (e) {
    const delaySeconds = consumerRetryDelaySeconds(msg.attempts);
    log('error', 'webhook.consumer_error', { deliveryId, attempts: msg.attempts, delaySeconds, error: messageOf(e) });
    msg.retry({ delaySeconds });
  }
}

/**
 * Handles dead-lettered delivery messages: notes the cause on the delivery (still pending, so the sweeper
 * re-enqueues it when due; its retry window bounds how long) and acks.
 */
export async function handleWebhookDeadLetters(batch: MessageBatch, env: Bindings): Promise<void> {
  for (const msg of batch.messages) {
    const parsed = DeliveryMessageSchema.safeParse(msg.body);
    if (parsed.success) {
      try {
        await env.DB.prepare(
          `UPDATE webhook_deliveries SET last_error = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
        )
          .bind(
            'the delivery queue gave up on this message; the sweeper re-enqueues it',
            Date.now(),
            parsed.data.deliveryId,
          )
          .run();
      } catch (e) {
        msg.retry({ delaySeconds: 30 });
        log('error', 'webhook.dlq_error', { deliveryId: parsed.data.deliveryId, error: messageOf(e) });
        continue;
      }
    }
    log('warn', 'webhook.dead_letter', {
      messageId: msg.id,
      deliveryId: parsed.success ? parsed.data.deliveryId : null,
    });
    msg.ack();
  }
}
