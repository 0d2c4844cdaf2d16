/**
 * @module
 * Consumer of `tribunal-jobs`: each message is `{ id }` (ids only, never payloads). Per message it takes
 * one of the tenant's running slots (src/evaluations/admission.ts), calls the evaluation's Durable Object
 * `start(id)` (idempotent, so at-least-once delivery is harmless) and acks; a thrown error retries the
 * message with exponential backoff by `msg.attempts`; a malformed body is acked and logged, never retried.
 *
 * At the tenant's cap the evaluation waits in the queue: the message is sent again with a delay
 * ({@link capWaitSeconds}) and this delivery acked. Not `msg.retry()`: retries count against the queue's
 * `max_retries`, and a tenant that stays at its cap for a while would see its work dead-lettered and
 * failed — waiting is not failing. (A lost re-send is covered by the sweeper, which re-kicks queued rows.)
 */
import { z } from 'zod';
import { backoffDelay } from '../src/backoff/backoff.js';
import { log } from '../src/log/log.js';
import { evaluationStub } from '../src/evaluations/stub.js';
import { admit } from '../src/evaluations/admission.js';
import { deploymentDefaults } from '../src/tenants/limits.js';
import { consume } from './consumer.js';
import { recordDb } from '../src/config/d1-shards.js';

/** Body of a job message. */
export const JobMessageSchema = z
  .object({
    id: z.string().min(1).max(200),
    /** Times this evaluation has been put back because its tenant was at its running cap (absent: 0). */
    waits: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();
/** A parsed job message: the evaluation id only (payloads stay in D1; messages are capped at 128 KB). */
export type JobMessage = z.infer<typeof JobMessageSchema>;

/** Longest retry delay, seconds. */
export const MAX_RETRY_DELAY_SECONDS = 300;

/**
 * Retry delay for a message after `attempts` deliveries: 2, 4, 8, … seconds, capped at
 * {@link MAX_RETRY_DELAY_SECONDS}.
 */
export function retryDelaySeconds(attempts: number): number {
  return backoffDelay(Math.max(1, attempts), { base: 2, max: MAX_RETRY_DELAY_SECONDS });
}

/** Base wait of an evaluation whose tenant is at its running cap before its message comes back, seconds. */
export const CAP_WAIT_SECONDS = 2;
/** Longest such wait, seconds. */
export const MAX_CAP_WAIT_SECONDS = 30;

/**
 * Delay of the re-sent message of an evaluation at its tenant's cap, after `waits` earlier waits: 2, 4, 8,
 * 16, then 30 s, with ±25 % jitter so evaluations that waited together do not all come back together.
 */
export function capWaitSeconds(waits: number, random: () => number = Math.random): number {
  const backoff = { base: CAP_WAIT_SECONDS, max: MAX_CAP_WAIT_SECONDS, jitter: { spread: 0.25 } } as const;
  return Math.max(1, Math.round(backoffDelay(waits + 1, backoff, random)));
}

/** Name of the jobs queue (wrangler.toml). */
export const JOBS_QUEUE = 'tribunal-jobs';

/** The jobs consumer: admit to a running slot (or wait at the cap), then start the evaluation's object. */
export const handleJobs = consume({
  name: 'queue',
  schema: JobMessageSchema,
  subject: ({ id }) => ({ evaluationId: id }),
  retryDelaySeconds,
  async handle({ id, waits }, msg, env) {
    // Ended or missing rows go on to start(), which settles them (idempotent) as before.
    // Admitted here, marked running in the same write: the object started next finds it so and writes no mark.
    const admission = await admit(await recordDb(env, id), id, deploymentDefaults(env).maxRunning, Date.now(), true);
    if (admission === 'waiting') {
      const next = (waits ?? 0) + 1;
      const delaySeconds = capWaitSeconds(next - 1);
      await env.JOBS.send({ id, waits: next }, { delaySeconds });
      log('info', 'queue.at_cap', { evaluationId: id, messageId: msg.id, waits: next, delaySeconds });
      return 'ack';
    }
    const r = await evaluationStub(env, id).start(id);
    log('info', 'queue.started', { evaluationId: id, messageId: msg.id, attempts: msg.attempts, status: r.status });
    return 'ack';
  },
});
