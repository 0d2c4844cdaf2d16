/**
 * @module
 * Consumer of `tribunal-batches`: batch fan-out work, one page of items per message (today a batch's
 * cancel: src/batches/pump.ts). Each message is acked once its page is done and the next page queued;
 * a page whose items could not all be reached is retried with backoff; a malformed body is acked and
 * logged, never retried.
 */
import { BatchMessageSchema, cancelPage } from '../src/batches/pump.js';
import { endInD1 } from '../src/ending-plan.js';
import { log } from '../src/log/log.js';
import { consume } from './consumer.js';
import { retryDelaySeconds } from './jobs.js';

/** Name of the batches queue (wrangler.toml). */
export const BATCHES_QUEUE = 'tribunal-batches';

/** The batches consumer: one page of a batch's cancel per message. */
export const handleBatchMessages = consume({
  name: 'batch.cancel_page',
  schema: BatchMessageSchema,
  subject: ({ batchId, afterSeq }) => ({ batchId, afterSeq }),
  retryDelaySeconds,
  async handle(m, _msg, env) {
    const r = await cancelPage(env, m, endInD1);
    log('info', 'batch.cancel_page', {
      batchId: m.batchId,
      afterSeq: m.afterSeq,
      cancelled: r.cancelled,
      next: r.next,
    });
    return 'ack';
  },
});
