/**
 * @module
 * An export's spans handed to the queue: grouped by trace and packed into messages under the queue's message
 * limit, sent in `sendBatch` calls under its batch limits. The queue's consumer (queues/spans.ts) hands each
 * message's traces to their objects and writes their index rows in one D1 batch ({@link deliverSpans}). A span too large for a message alone is
 * rejected (counted in the export's partial success).
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { NormalizedSpanSchema, TraceIdSchema } from './span-schema.js';
import type { NormalizedSpan } from './span-schema.js';
import { tenantDb } from '../config/d1-shards.js';
import { QUEUE_BATCH_MAX } from '../config/platform-limits.js';
import { log, messageOf } from '../log/log.js';
import type { LogFields } from '../log/log.js';
import type { TraceIndexRow } from './index-rows.js';
import { upsertIndexRows } from './index-rows.js';
import { traceStub } from './rpc.js';
import { spanRows } from './store.js';

/** The queue spans travel through. */
export const SPANS_QUEUE = 'tribunal-spans';

/** A message's spans, serialized, at most this many bytes: 100 KB (the platform's limit is 128 KB a message). */
export const MAX_MESSAGE_BYTES = 100_000;

/**
 * Traces are packed into one message until it holds this many bytes: 16 KB. Small traces share a message (fewer
 * queue operations); a consumer batch of 100 messages stays a few MB (the local queue stalled on batches of
 * 100 KB messages).
 */
const PACK_BYTES = 16_000;

/** One `sendBatch` at most this many bytes (the platform's limit: 256 KB), and {@link QUEUE_BATCH_MAX} messages. */
const MAX_SEND_BYTES = 240_000;

const encoder = new TextEncoder();

/**
 * A queue message: some spans of one tenant, of one or several traces (each span names its trace). Several
 * traces share a message, so a consumer batch carries hundreds of traces and each queue operation many spans.
 */
export const SpansMessageSchema = z
  .object({
    tenant: z.string().min(1),
    /**
     * The trace of a message whose spans were all of one, as earlier versions wrote it. Written and read by
     * nothing now (each span names its trace); accepted so that messages queued before a deploy still parse.
     */
    traceId: TraceIdSchema.optional(),
    retentionDays: z.number().int().min(0),
    /** False for a tenant that stores no content (absent: stored, as messages queued before it read). */
    storeContent: z.literal(false).optional(),
    spans: z.array(NormalizedSpanSchema).min(1),
  })
  .strict();
/** A queue message: some spans of one tenant, of one or several traces. */
export type SpansMessage = z.infer<typeof SpansMessageSchema>;

/** What enqueueing an export did. */
export interface Enqueued {
  /** Spans sent. */
  accepted: number;
  /** Spans too large for a message. */
  tooLarge: number;
}

/**
 * The export's spans as queue messages (see the module note): grouped by trace, a trace's spans next to each
 * other, packed into messages of at most {@link MAX_MESSAGE_BYTES} (a large trace split over several).
 */
export function spanMessages(
  tenant: string,
  retentionDays: number,
  spans: readonly NormalizedSpan[],
  storeContent = true,
): { messages: { body: SpansMessage; bytes: number }[]; tooLarge: number } {
  const byTrace = new Map<string, NormalizedSpan[]>();
  for (const s of spans) {
    const list = byTrace.get(s.traceId);
    if (list) list.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const messages: { body: SpansMessage; bytes: number }[] = [];
  let tooLarge = 0;
  let current: NormalizedSpan[] = [];
  let bytes = 0;
  const flush = () => {
    if (current.length > 0)
      messages.push({
        body: { tenant, retentionDays, ...(storeContent ? {} : { storeContent: false }), spans: current },
        bytes: bytes + 200,
      });
    current = [];
    bytes = 0;
  };
  for (const list of byTrace.values()) {
    if (bytes > PACK_BYTES) flush();
    for (const s of list) {
      const size = encoder.encode(JSON.stringify(s)).byteLength + 1;
      if (size > MAX_MESSAGE_BYTES) {
        tooLarge += 1;
        continue;
      }
      if (bytes + size > MAX_MESSAGE_BYTES) flush();
      current.push(s);
      bytes += size;
    }
  }
  flush();
  return { messages, tooLarge };
}

/**
 * Sends the export's spans to the queue (`storeContent` false: the tenant stores no content, default true).
 * @throws when the queue refuses a send (the caller answers 503, retryable: a repeat adds nothing twice).
 */
export async function enqueueSpans(
  env: Bindings,
  tenant: string,
  retentionDays: number,
  spans: readonly NormalizedSpan[],
  storeContent = true,
): Promise<Enqueued> {
  const { messages, tooLarge } = spanMessages(tenant, retentionDays, spans, storeContent);
  const sends: { body: SpansMessage }[][] = [];
  let batch: { body: SpansMessage }[] = [];
  let bytes = 0;
  for (const m of messages) {
    if (batch.length >= QUEUE_BATCH_MAX || (batch.length > 0 && bytes + m.bytes > MAX_SEND_BYTES)) {
      sends.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body: m.body });
    bytes += m.bytes;
  }
  if (batch.length > 0) sends.push(batch);
  const answers = await Promise.all(sends.map((b) => env.SPANS.sendBatch(b)));
  warnIfWaiting(answers.map((a) => (a as Partial<QueueSendBatchResponse> | undefined)?.metadata?.metrics));
  return { accepted: spans.length - tooLarge, tooLarge };
}

/**
 * Spans still unstored this long after they were queued are worth a warning, ms: 60,000 (stored within seconds
 * when the consumer keeps up). The queue's answer to each send carries its backlog, so a consumer that stopped (or
 * a queue that stopped handing batches over) shows on the next export instead of going unseen.
 */
export const SPANS_WAITING_WARN_MS = 60_000;

/** At most one such warning per isolate this often, ms: 10,000 (every export would otherwise log one). */
const WAITING_WARN_EVERY_MS = 10_000;

let lastWaitingWarning = 0;

/** Logs `traces.spans_waiting` when the queue's oldest message is older than {@link SPANS_WAITING_WARN_MS}. */
function warnIfWaiting(metrics: readonly (QueueSendBatchMetrics | undefined)[], now = Date.now()): void {
  let oldest = now;
  let backlog: QueueSendBatchMetrics | null = null;
  for (const m of metrics) {
    // Runtimes differ: a Date, or epoch ms (0 when the backlog is empty); older ones send no metrics at all.
    const at = m?.oldestMessageTimestamp === undefined ? 0 : new Date(m.oldestMessageTimestamp).getTime();
    if (m && at > 0 && at < oldest) {
      oldest = at;
      backlog = m;
    }
  }
  if (backlog === null || now - oldest < SPANS_WAITING_WARN_MS || now - lastWaitingWarning < WAITING_WARN_EVERY_MS)
    return;
  lastWaitingWarning = now;
  log('warn', 'traces.spans_waiting', {
    queue: SPANS_QUEUE,
    oldestSeconds: Math.round((now - oldest) / 1000),
    backlogMessages: backlog.backlogCount,
    backlogBytes: backlog.backlogBytes,
  });
}

/**
 * The consumer's work for a batch of messages: the spans of each (tenant, trace) gathered from all of them and
 * handed to the trace's object once (idempotent), all traces at once, then each tenant's index rows, as the
 * objects answered them, in one D1 batch (a row unchanged writes nothing). Answers, per message, whether all its
 * spans were stored: a message whose trace's object or index write failed is to be retried (a repeat adds
 * nothing twice).
 */
export async function deliverSpanMessages(env: Bindings, messages: readonly SpansMessage[]): Promise<boolean[]> {
  const traces = new Map<
    string,
    {
      tenant: string;
      traceId: string;
      retentionDays: number;
      storeContent: boolean;
      spans: NormalizedSpan[];
      from: Set<number>;
    }
  >();
  messages.forEach((m, i) => {
    for (const s of m.spans) {
      const key = `${m.tenant}\n${s.traceId}`;
      const t = traces.get(key) ?? {
        tenant: m.tenant,
        traceId: s.traceId,
        retentionDays: 0,
        storeContent: true,
        spans: [],
        from: new Set<number>(),
      };
      traces.set(key, t);
      t.spans.push(s);
      t.from.add(i);
      t.retentionDays = Math.max(t.retentionDays, m.retentionDays);
      if (m.storeContent === false) t.storeContent = false;
    }
  });
  const ok = messages.map(() => true);
  const list = [...traces.values()];
  const waiting = new Set(list);
  const outcomes = await whileWarning(
    () => stillAppending(waiting),
    Promise.allSettled(
      list.map(async (t) => {
        try {
          return await traceStub(env, t.tenant, t.traceId).append(
            t.tenant,
            t.traceId,
            spanRows(t.spans),
            t.retentionDays,
            t.storeContent,
          );
        } finally {
          waiting.delete(t);
        }
      }),
    ),
  );
  const rows = new Map<string, { index: TraceIndexRow; from: Set<number> }[]>();
  outcomes.forEach((o, i) => {
    const t = list[i];
    if (!t) return;
    if (o.status === 'rejected') {
      log('warn', 'traces.append_failed', { tenant: t.tenant, traceId: t.traceId, error: messageOf(o.reason) });
      for (const m of t.from) ok[m] = false;
      return;
    }
    // A deleted trace keeps no row.
    if (o.value.index === null) return;
    const tenantRows = rows.get(t.tenant);
    if (tenantRows) tenantRows.push({ index: o.value.index, from: t.from });
    else rows.set(t.tenant, [{ index: o.value.index, from: t.from }]);
  });
  await Promise.all(
    [...rows].map(async ([tenant, list]) => {
      try {
        await upsertIndexRows(
          tenantDb(env, tenant),
          list.map((r) => r.index),
        );
      } catch (e) {
        log('warn', 'traces.index_failed', { tenant, traces: list.length, error: messageOf(e) });
        for (const r of list) for (const m of r.from) ok[m] = false;
      }
    }),
  );
  return ok;
}

/**
 * A trace object's append still unanswered after this long is logged, ms: 30,000 (an append takes milliseconds;
 * one that judges a match, a D1 round trip and an object start more), and again every as long while it lasts, so
 * a consumer that stopped moving shows in the logs instead of holding its queue unseen.
 */
export const APPEND_SLOW_MS = 30_000;

/** Awaits `work`, logging `traces.append_slow` with {@link stillAppending}'s fields every {@link APPEND_SLOW_MS}. */
async function whileWarning<T>(fields: () => LogFields, work: Promise<T>): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => {
    log('warn', 'traces.append_slow', { ...fields(), waitedSeconds: Math.round((Date.now() - started) / 1000) });
  }, APPEND_SLOW_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** The appends not answered yet: how many, and the first traces'. */
function stillAppending(waiting: ReadonlySet<{ tenant: string; traceId: string }>): LogFields {
  const first = [...waiting].slice(0, 5);
  return {
    pending: waiting.size,
    tenant: first[0]?.tenant,
    traceId: first.map((t) => t.traceId).join(','),
  };
}

/**
 * One message's delivery ({@link deliverSpanMessages}).
 * @throws when a span of it could not be stored (retry it).
 */
export async function deliverSpans(env: Bindings, m: SpansMessage): Promise<void> {
  const [ok] = await deliverSpanMessages(env, [m]);
  if (ok !== true) throw new Error('spans not stored (their trace object or its index write failed)');
}
