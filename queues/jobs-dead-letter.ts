/**
 * @module
 * Consumer of `tribunal-jobs-dlq`: a job no consumer could start. The evaluation is failed with code
 * `queue_delivery_failed` unless it has already ended: through its Durable Object when reachable (so
 * the object stops too), else directly in D1. Both paths only change a `queued`/`running` row.
 */
import type { EvaluationError } from '../src/evaluations/live-events.js';
import { log, messageOf } from '../src/log/log.js';
import { evaluationStub } from '../src/evaluations/stub.js';
import { endInD1 } from '../src/ending-plan.js';
import { consume } from './consumer.js';
import { JobMessageSchema, retryDelaySeconds } from './jobs.js';

/** Name of the dead-letter queue (wrangler.toml). */
export const JOBS_DLQ = 'tribunal-jobs-dlq';

/** The error of an evaluation whose job message was dead-lettered. */
const DEAD_LETTERED: EvaluationError = {
  code: 'queue_delivery_failed',
  message: 'the job could not be started after repeated queue deliveries',
};

/** The dead-letter consumer: fail the evaluation through its object, or in D1 when the object is unreachable. */
export const handleDeadLetters = consume({
  name: 'dlq',
  schema: JobMessageSchema,
  subject: ({ id }) => ({ evaluationId: id }),
  retryDelaySeconds,
  retryLevel: 'error',
  async handle({ id }, _msg, env) {
    let status: string;
    try {
      status = (await evaluationStub(env, id).fail(id, DEAD_LETTERED)).status;
    } catch (e) {
      // The object itself may be what keeps failing: end the row in D1 directly.
      log('warn', 'dlq.object_unreachable', { evaluationId: id, error: messageOf(e) });
      status = (await endInD1(env, id, 'failed', DEAD_LETTERED)) ? 'failed' : 'unchanged';
    }
    log('warn', 'dlq.failed', { evaluationId: id, status });
    return 'ack';
  },
});
