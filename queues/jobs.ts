/**
 * @module
 * Consumer of `tribunal-jobs`: each message is `{ id }` (ids only, never payloads). Per message it calls
 * the evaluation's Durable Object `start(id)` (idempotent, so at-least-once delivery is harmless) and
 * acks; a thrown error retries the message with exponential backoff by `msg.attempts`; a malformed body
 * is acked and logged, never retried.
 */
import { z } from 'zod';
import type { Bindings } from '../src/env.js';
import { log, messageOf } from '../src/pipeline/log.js';
import { evaluationStub } from '../src/pipeline/stub.js';

/** Body of a job message. */
export const JobMessageSchema = z.object({ id: z.string().min(1).max(200) }).strict();
/** A parsed job message: the evaluation id only (payloads stay in D1; messages are capped at 128 KB). */
export type JobMessage = z.infer<typeof JobMessageSchema>;

/** Longest retry delay, seconds. */
export const MAX_RETRY_DELAY_SECONDS = 300;

/**
 * Retry delay for a message after `attempts` deliveries: 2, 4, 8, … seconds, capped at
 * {@link MAX_RETRY_DELAY_SECONDS}.
 */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, 2 ** Math.max(1, attempts));
}

/** Handles one batch of job messages; every message is acked or retried explicitly. */
export async function handleJobs(batch: MessageBatch, env: Bindings): Promise<void> {
  await Promise.all(batch.messages.map((msg) => handleJob(msg, env)));
}

async function handleJob(msg: Message, env: Bindings): Promise<void> {
  const parsed = JobMessageSchema.safeParse(msg.body);
  if (!parsed.success) {
    log('error', 'queue.invalid_message', { messageId: msg.id, body: (JSON.stringify(msg.body) as string | undefined)?.slice(0, 200) });
    msg.ack();
    return;
  }
  const { id } = parsed.data;
  try {
    const r = await evaluationStub(env, id).start(id);
    log('info', 'queue.started', { evaluationId: id, messageId: msg.id, attempts: msg.attempts, status: r.status });
    msg.ack();
  } catch (e) {
    const delaySeconds = retryDelaySeconds(msg.attempts);
    log('warn', 'queue.retry', { evaluationId: id, messageId: msg.id, attempts: msg.attempts, delaySeconds, error: messageOf(e) });
    msg.retry({ delaySeconds });
  }
}
