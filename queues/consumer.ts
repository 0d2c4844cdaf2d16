/**
 * @module
 * The one queue-consumer skeleton. Each message's body is checked against the consumer's schema: a
 * malformed body is logged and acked, never retried (no retry can fix it). A valid one is handled: the
 * handler acks it, or asks for a retry with a delay of its own; a thrown error retries it with the
 * consumer's backoff (by the message's deliveries so far), logged with the message's subject. Every message
 * is acked or retried explicitly, so one message's failure never redelivers the others of its batch.
 */
import type { z } from 'zod';
import type { Bindings } from '../src/config/bindings.js';
import type { LogFields } from '../src/log/log.js';
import { log, messageOf } from '../src/log/log.js';

/** What a handler decided for one message: acked, or retried after `retryInSeconds`. */
export type Handled = 'ack' | { retryInSeconds: number };

/** One consumer: what its messages look like, and what it does with each. */
export interface QueueConsumer<T> {
  /** Names its log events: `<name>.invalid_message`, `<name>.retry`. */
  readonly name: string;
  /** The message body's schema. */
  readonly schema: z.ZodType<T>;
  /** Handles one valid message; a throw retries it after {@link retryDelaySeconds}. */
  handle(body: T, msg: Message, env: Bindings): Promise<Handled>;
  /** Delay of the retry after a throw, seconds, by the deliveries so far (`msg.attempts`, from 1). */
  retryDelaySeconds(attempts: number): number;
  /** Log fields naming what a message is about (e.g. `{ evaluationId }`). */
  subject(body: T): LogFields;
  /** Level of the retry's log line: `error` where a throw means the platform failed (D1 down). Default `warn`. */
  readonly retryLevel?: 'warn' | 'error';
  /** Handle the batch's messages one after another (default: all at once). */
  readonly oneAtATime?: boolean;
}

/** What the Worker's `queue` handler calls for one batch of one queue. */
export type BatchHandler = (batch: MessageBatch, env: Bindings) => Promise<void>;

/** The batch handler of a consumer (see the module note). */
export function consume<T>(c: QueueConsumer<T>): BatchHandler {
  const one = async (msg: Message, env: Bindings): Promise<void> => {
    const parsed = c.schema.safeParse(msg.body);
    if (!parsed.success) {
      log('error', `${c.name}.invalid_message`, {
        messageId: msg.id,
        body: (JSON.stringify(msg.body) as string | undefined)?.slice(0, 200),
      });
      msg.ack();
      return;
    }
    try {
      const handled = await c.handle(parsed.data, msg, env);
      if (handled === 'ack') msg.ack();
      else msg.retry({ delaySeconds: handled.retryInSeconds });
    } catch (e) {
      const delaySeconds = c.retryDelaySeconds(msg.attempts);
      log(c.retryLevel ?? 'warn', `${c.name}.retry`, {
        ...c.subject(parsed.data),
        messageId: msg.id,
        attempts: msg.attempts,
        delaySeconds,
        error: messageOf(e),
      });
      msg.retry({ delaySeconds });
    }
  };
  return async (batch, env) => {
    if (c.oneAtATime) for (const msg of batch.messages) await one(msg, env);
    else await Promise.all(batch.messages.map((msg) => one(msg, env)));
  };
}
