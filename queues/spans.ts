/**
 * @module
 * Consumer of `tribunal-spans`: each message holds some spans of one tenant's trace (src/traces/ingest.ts),
 * handed to that trace's Durable Object, which keeps each span once, so a redelivery adds nothing. A thrown
 * error (the object or D1 down) retries the message with backoff; a malformed body is acked and logged.
 */
import { backoffDelay } from '../src/backoff/backoff.js';
import { deliverSpans, SpansMessageSchema } from '../src/traces/ingest.js';
import { consume } from './consumer.js';

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
