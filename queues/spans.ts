/**
 * @module
 * Consumers of `tribunal-spans` and its dead-letter queue. Each message holds some spans of one tenant's traces
 * (src/traces/ingest.ts); a batch's spans are gathered by trace and each trace's handed to its Durable Object,
 * which keeps each span once, so a redelivery adds nothing. A message whose trace's object or index write failed
 * is retried with backoff; a malformed body is acked and logged. After `max_retries` the platform moves the message to `tribunal-spans-dlq`: its spans exist nowhere
 * else, so the dead-letter consumer keeps trying, slowly, and only after {@link SPANS_DLQ_ATTEMPTS} deliveries
 * gives them up with one error line naming the tenant, the traces and the span count (`traces.spans_lost`).
 */
import { backoffDelay } from '../src/backoff/backoff.js';
import { log } from '../src/log/log.js';
import type { LogFields } from '../src/log/log.js';
import { deliverSpanMessages, deliverSpans, SpansMessageSchema } from '../src/traces/ingest.js';
import type { SpansMessage } from '../src/traces/ingest.js';
import type { BatchHandler } from './consumer.js';
import { consume } from './consumer.js';

/** The spans' dead-letter queue (wrangler.toml). */
export const SPANS_DLQ = 'tribunal-spans-dlq';

/** Deliveries of a dead-lettered message before its spans are given up: 24 (its `max_retries` + 1). */
export const SPANS_DLQ_ATTEMPTS = 24;

/** Delay between the dead-letter consumer's tries, seconds: 600 (so about 4 h in all). */
const DLQ_RETRY_SECONDS = 600;

/** What a message is about, for its log lines: the tenant, its traces (the first few) and the span count. */
function spansSubject({ tenant, spans }: SpansMessage): LogFields {
  const traceIds = [...new Set(spans.map((s) => s.traceId))];
  return { tenant, traceId: traceIds.slice(0, 5).join(','), traces: traceIds.length, spans: spans.length };
}

/** Delay of a retried message, seconds, by its deliveries so far: 2, 4, 8… up to 300. */
function retryDelaySeconds(attempts: number): number {
  return backoffDelay(attempts, { base: 2, max: 300 });
}

/**
 * The spans consumer: the batch's messages delivered together (each trace's spans gathered from all of them, one
 * D1 batch per tenant), each message acked or retried by its own outcome; a malformed one logged and acked.
 */
export const handleSpans: BatchHandler = async (batch, env) => {
  const valid: { msg: Message; body: SpansMessage }[] = [];
  for (const msg of batch.messages) {
    const parsed = SpansMessageSchema.safeParse(msg.body);
    if (parsed.success) valid.push({ msg, body: parsed.data });
    else {
      log('error', 'spans.consumer.invalid_message', {
        messageId: msg.id,
        body: (JSON.stringify(msg.body) as string | undefined)?.slice(0, 200),
      });
      msg.ack();
    }
  }
  const ok = await deliverSpanMessages(
    env,
    valid.map((v) => v.body),
  );
  valid.forEach(({ msg, body }, i) => {
    if (ok[i] === true) msg.ack();
    else {
      const delaySeconds = retryDelaySeconds(msg.attempts);
      log('error', 'spans.consumer.retry', {
        ...spansSubject(body),
        messageId: msg.id,
        attempts: msg.attempts,
        delaySeconds,
      });
      msg.retry({ delaySeconds });
    }
  });
};

/** The dead-letter consumer (see the module note). */
export const handleSpansDeadLetters = consume({
  name: 'spans.dead_letter',
  schema: SpansMessageSchema,
  subject: spansSubject,
  retryDelaySeconds: () => DLQ_RETRY_SECONDS,
  retryLevel: 'error',
  oneAtATime: true,
  async handle(body, msg, env) {
    try {
      await deliverSpans(env, body);
      return 'ack';
    } catch (e) {
      if (msg.attempts < SPANS_DLQ_ATTEMPTS) throw e;
      log('error', 'traces.spans_lost', {
        ...spansSubject(body),
        spanIds: body.spans
          .slice(0, 20)
          .map((s) => s.spanId)
          .join(','),
        messageId: msg.id,
        attempts: msg.attempts,
      });
      return 'ack';
    }
  },
});
