/**
 * @module
 * An export's spans handed to the queue: grouped by trace, each group split into messages under the queue's
 * message limit, sent in `sendBatch` calls under its batch limits. The queue's consumer (queues/spans.ts)
 * hands each message to its trace's object ({@link deliverSpans}). A span too large for a message alone is
 * rejected (counted in the export's partial success).
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { NormalizedSpanSchema, TraceIdSchema } from './span-schema.js';
import type { NormalizedSpan } from './span-schema.js';
import { traceStub } from './rpc.js';

/** The queue spans travel through. */
export const SPANS_QUEUE = 'tribunal-spans';

/** A message's spans, serialized, at most this many bytes: 100 KB (the platform's limit is 128 KB a message). */
export const MAX_MESSAGE_BYTES = 100_000;

/** One `sendBatch` at most this many bytes (the platform's limit: 256 KB) and 100 messages. */
const MAX_SEND_BYTES = 240_000;
const MAX_SEND_MESSAGES = 100;

const encoder = new TextEncoder();

/** A queue message: some spans of one tenant's trace. */
export const SpansMessageSchema = z
  .object({
    tenant: z.string().min(1),
    traceId: TraceIdSchema,
    retentionDays: z.number().int().min(0),
    spans: z.array(NormalizedSpanSchema).min(1),
  })
  .strict();
/** A queue message: some spans of one tenant's trace. */
export type SpansMessage = z.infer<typeof SpansMessageSchema>;

/** What enqueueing an export did. */
export interface Enqueued {
  /** Spans sent. */
  accepted: number;
  /** Spans too large for a message. */
  tooLarge: number;
}

/** The export's spans as queue messages (see the module note). */
export function spanMessages(
  tenant: string,
  retentionDays: number,
  spans: readonly NormalizedSpan[],
): { messages: { body: SpansMessage; bytes: number }[]; tooLarge: number } {
  const byTrace = new Map<string, NormalizedSpan[]>();
  for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
  const messages: { body: SpansMessage; bytes: number }[] = [];
  let tooLarge = 0;
  for (const [traceId, list] of byTrace) {
    let current: NormalizedSpan[] = [];
    let bytes = 0;
    const flush = () => {
      if (current.length > 0)
        messages.push({ body: { tenant, traceId, retentionDays, spans: current }, bytes: bytes + 200 });
      current = [];
      bytes = 0;
    };
    for (const s of list) {
      const size = encoder.encode(JSON.stringify(s)).byteLength;
      if (size > MAX_MESSAGE_BYTES) {
        tooLarge += 1;
        continue;
      }
      if (bytes + size > MAX_MESSAGE_BYTES) flush();
      current.push(s);
      bytes += size;
    }
    flush();
  }
  return { messages, tooLarge };
}

/**
 * Sends the export's spans to the queue.
 * @throws when the queue refuses a send (the caller answers 503, retryable: a repeat adds nothing twice).
 */
export async function enqueueSpans(
  env: Bindings,
  tenant: string,
  retentionDays: number,
  spans: readonly NormalizedSpan[],
): Promise<Enqueued> {
  const { messages, tooLarge } = spanMessages(tenant, retentionDays, spans);
  const sends: { body: SpansMessage }[][] = [];
  let batch: { body: SpansMessage }[] = [];
  let bytes = 0;
  for (const m of messages) {
    if (batch.length >= MAX_SEND_MESSAGES || (batch.length > 0 && bytes + m.bytes > MAX_SEND_BYTES)) {
      sends.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body: m.body });
    bytes += m.bytes;
  }
  if (batch.length > 0) sends.push(batch);
  await Promise.all(sends.map((b) => env.SPANS.sendBatch(b)));
  return { accepted: spans.length - tooLarge, tooLarge };
}

/** The consumer's work for one message: its spans to their trace's object (idempotent). */
export async function deliverSpans(env: Bindings, m: SpansMessage): Promise<void> {
  await traceStub(env, m.tenant, m.traceId).append(m.tenant, m.traceId, m.spans, m.retentionDays);
}
