/**
 * @module
 * Consumer of `tribunal-jobs-dlq`: a job no consumer could start. The evaluation is failed with code
 * `queue_delivery_failed` unless it has already ended: through its Durable Object when reachable (so
 * the object stops too), else directly in D1. Both paths only change a `queued`/`running` row.
 */
import type { Bindings } from '../src/config/bindings.js';
import type { EvaluationError } from '../src/evaluations/live-events.js';
import { log, messageOf } from '../src/log/log.js';
import { evaluationStub } from '../src/evaluations/stub.js';
import { endInD1 } from '../src/ending.js';
import { JobMessageSchema, retryDelaySeconds } from './jobs.js';

/** Name of the dead-letter queue (wrangler.toml). */
export const JOBS_DLQ = 'tribunal-jobs-dlq';

/** Handles one batch of dead-lettered job messages. */
export async function handleDeadLetters(batch: MessageBatch, env: Bindings): Promise<void> {
  await Promise.all(batch.messages.map((msg) => handleDeadLetter(msg, env)));
}

async function handleDeadLetter(msg: Message, env: Bindings): Promise<void> {
  const parsed = JobMessageSchema.safeParse(msg.body);
  if (!parsed.success) {
    log('error', 'dlq.invalid_message', { messageId: msg.id });
    msg.ack();
    return;
  }
  const { id } = parsed.data;
  const error: EvaluationError = {
    code: 'queue_delivery_failed',
    message: 'the job could not be started after repeated queue deliveries',
  };
  try {
    let status: string;
    try {
      status = (await evaluationStub(env, id).fail(id, error)).status;
    } catch (e) {
      // The object itself may be what keeps failing: end the row in D1 directly.
      log('warn', 'dlq.object_unreachable', { evaluationId: id, error: messageOf(e) });
      status = (await endInD1(env, id, 'failed', error)) ? 'failed' : 'unchanged';
    }
    log('warn', 'dlq.failed', { evaluationId: id, status });
    msg.ack();
  } catch (e) {
    log('error', 'dlq.retry', { evaluationId: id, error: messageOf(e) });
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  }
}
