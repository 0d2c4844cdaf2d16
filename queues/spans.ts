/**
 * @module
 * Consumers of `tribunal-spans` and its dead-letter queue. Each message holds some spans of one tenant's trace
 * (src/traces/ingest.ts), handed to that trace's Durable Object, which keeps each span once, so a redelivery adds
 * nothing. A thrown error (the object or D1 down) retries the message with backoff; a malformed body is acked and
 * logged. After `max_retries` the platform moves the message to `tribunal-spans-dlq`: its spans exist nowhere
 * else, so the dead-letter consumer keeps trying, slowly, and only after {@link SPANS_DLQ_ATTEMPTS} deliveries
 * gives them up with one error line naming the tenant, the trace and the span count (`traces.spans_lost`).
 */
import { backoffDelay } from '../src/backoff/backoff.js';
import { log } from '../src/log/log.js';
import { deliverSpans, SpansMessageSchema } from '../src/traces/ingest.js';
import { consume } from './consumer.js';

/** The spans' dead-letter queue (wrangler.toml). */
export const SPANS_DLQ = 'tribunal-spans-dlq';

/** Deliveries of a dead-lettered message before its spans are given up: 24 (its `max_retries` + 1). */
export const SPANS_DLQ_ATTEMPTS = 24;

/** Delay between the dead-letter consumer's tries, seconds: 600 (so about 4 h in all). */
const DLQ_RETRY_SECONDS = 600;

/** The spans consumer. */
export const handleSpans = consume({
  name: 'spans.consumer',
  schema: SpansMessageSchema,
  subject: ({ tenant, traceId, spans }) => ({ tenant, traceId, spans: spans.length }),
  retryDelaySeconds: (attempts) => backoffDelay(attempts, { base: 2, max: 300 }),
  retryLevel: 'error',
  async handle(body, _msg, env) {
    await deliverSpans(env, body);
    return 'ack';
  },
});

/** The dead-letter consumer (see the module note). */
export const handleSpansDeadLetters = consume({
  name: 'spans.dead_letter',
  schema: SpansMessageSchema,
  subject: ({ tenant, traceId, spans }) => ({ tenant, traceId, spans: spans.length }),
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
        tenant: body.tenant,
        traceId: body.traceId,
        spans: body.spans.length,
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
