/**
 * @module
 * Consumer of `tribunal-batches`: batch fan-out work, one message per unit. A batch's cancel comes one page
 * of items per message (src/batches/pump.ts), acked once its page is done and the next page queued; a paced
 * chunk of a batch's hand-over is sent on to the jobs queue when due (src/batches/start-pace.ts); a page
 * whose items could not all be reached is retried with backoff. An eval run's work is one message per run
 * (src/evals/run-queue.ts), acked when the run ended or its next slice is queued, back later while another
 * worker holds the run. An alignment's steps are one message per job (src/align/queue.ts), queued again while it
 * waits on a run. A malformed body is acked and logged, never retried.
 */
import { z } from 'zod';
import { BatchMessageSchema, cancelPage, sendStarts, StartMessageSchema } from '../src/batches/pump.js';
import { endInD1 } from '../src/ending-plan.js';
import { AlignMessageSchema, handleAlignMessage } from '../src/align/queue.js';
import { EvalRunMessageSchema, handleRunMessage } from '../src/evals/run-queue.js';
import { log } from '../src/log/log.js';
import { consume } from './consumer.js';
import { retryDelaySeconds } from './jobs.js';

/** Name of the batches queue (wrangler.toml). */
export const BATCHES_QUEUE = 'tribunal-batches';

/** The batches consumer: one page of a batch's cancel, or one eval run's work, per message. */
export const handleBatchMessages = consume({
  name: 'batch.fanout',
  schema: z.union([BatchMessageSchema, StartMessageSchema, EvalRunMessageSchema, AlignMessageSchema]),
  subject: (m) =>
    m.op === 'cancel'
      ? { batchId: m.batchId, afterSeq: m.afterSeq }
      : m.op === 'start'
        ? { batchId: m.batchId, ids: m.ids.length }
        : m.op === 'align'
          ? { alignmentId: m.alignmentId }
          : { runId: m.runId },
  retryDelaySeconds,
  async handle(m, _msg, env) {
    if (m.op === 'eval_run') return handleRunMessage(env, m);
    if (m.op === 'align') return handleAlignMessage(env, m);
    // A paced chunk of a batch's hand-over, now due (src/batches/start-pace.ts); a failed send is retried.
    if (m.op === 'start') {
      await sendStarts(env, m.ids);
      return 'ack';
    }
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
