/**
 * @module
 * Consumer of `tribunal-batches`: batch fan-out work, one page of items per message (today a batch's
 * cancel: src/batches/pump.ts). Each message is acked once its page is done and the next page queued;
 * a page whose items could not all be reached is retried with backoff; a malformed body is acked and
 * logged, never retried.
 */
import { BatchMessageSchema, cancelPage } from '../src/batches/pump.js';
import type { Bindings } from '../src/config/bindings.js';
import { endInD1 } from '../src/ending.js';
import { log, messageOf } from '../src/log/log.js';
import { retryDelaySeconds } from './jobs.js';

/** Name of the batches queue (wrangler.toml). */
export const BATCHES_QUEUE = 'tribunal-batches';

/** Handles one batch of batches-queue messages; every message is acked or retried explicitly. */
export async function handleBatchMessages(batch: MessageBatch, env: Bindings): Promise<void> {
  await Promise.all(batch.messages.map((msg) => handleBatchMessage(msg, env)));
}

async function handleBatchMessage(msg: Message, env: Bindings): Promise<void> {
  const parsed = BatchMessageSchema.safeParse(msg.body);
  if (!parsed.success) {
    log('error', 'batches_queue.invalid_message', { messageId: msg.id });
    msg.ack();
    return;
  }
  const m = parsed.data;
  try {
    const r = await cancelPage(env, m, endInD1);
    log('info', 'batch.cancel_page', {
      batchId: m.batchId,
      afterSeq: m.afterSeq,
      cancelled: r.cancelled,
      next: r.next,
    });
    msg.ack();
  } catch (e) {
    const delaySeconds = retryDelaySeconds(msg.attempts);
    log('warn', 'batch.cancel_page_retry', {
      batchId: m.batchId,
      afterSeq: m.afterSeq,
      attempts: msg.attempts,
      delaySeconds,
      error: messageOf(e),
    });
    msg.retry({ delaySeconds });
  }
}
