/**
 * An export's spans as queue messages: a trace's spans next to each other, several traces packed into one
 * message under the message limit, a large trace split over several, a span too large alone rejected, and a
 * 5,000-span export grouped in one pass.
 */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, spanMessages, SpansMessageSchema } from '../../src/traces/ingest.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { OtlpSpan } from '../../src/traces/otlp-request.js';
import type { NormalizedSpan } from '../../src/traces/span-schema.js';

/** `traces` traces of `perTrace` spans each, interleaved as an exporter's batch may hold them. */
function spans(traces: number, perTrace: number, text = 'hello'): NormalizedSpan[] {
  const out: OtlpSpan[] = [];
  for (let i = 0; i < perTrace; i++)
    for (let t = 0; t < traces; t++)
      out.push({
        traceId: (t + 1).toString(16).padStart(32, '0'),
        spanId: (i + 1).toString(16).padStart(16, '0'),
        parentSpanId: i === 0 ? '' : '0000000000000001',
        name: `span ${i}`,
        startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(i)),
        endTimeUnixNano: String(1_700_000_000_000_000_001n + BigInt(i)),
        attributes: [{ key: 'input.value', value: { stringValue: text } }],
      });
  const r = normalizeRequest({ resourceSpans: [{ scopeSpans: [{ spans: out }] }] });
  expect(r.rejected).toBe(0);
  return r.spans;
}

describe('spanMessages', () => {
  it('packs several small traces into one message, each trace contiguous, the tenant and retention on each', () => {
    const { messages, tooLarge } = spanMessages('t1', 30, spans(5, 3));
    expect(tooLarge).toBe(0);
    expect(messages).toHaveLength(1);
    const [m] = messages;
    expect(m?.body).toMatchObject({ tenant: 't1', retentionDays: 30 });
    expect(m?.body.traceId).toBeUndefined();
    const order = m?.body.spans.map((s) => s.traceId) ?? [];
    expect(order).toHaveLength(15);
    // Contiguous: each trace id appears in one run.
    const runs = order.filter((id, i) => i === 0 || order[i - 1] !== id);
    expect(new Set(runs).size).toBe(runs.length);
  });

  it('splits past the message limit, names no trace on the message, and rejects a span too large alone', () => {
    const big = 'x'.repeat(30_000);
    const list = spans(1, 8, big);
    const [first] = list;
    if (!first) throw new Error('no span');
    // Past the message limit alone (normalizing cuts long attributes, so the span is made so here).
    const huge = { ...first, spanId: '00000000000000ff', name: 'y'.repeat(MAX_MESSAGE_BYTES + 1) };
    const { messages, tooLarge } = spanMessages('t1', 0, [...list, huge]);
    expect(tooLarge).toBe(1);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.flatMap((m) => m.body.spans)).toHaveLength(8);
    for (const m of messages) {
      expect(JSON.stringify(m.body).length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES + 500);
      // Each span names its trace; the message's own `traceId` is no longer written.
      expect(m.body.traceId).toBeUndefined();
      expect(new Set(m.body.spans.map((s) => s.traceId))).toEqual(new Set([first.traceId]));
    }
  });

  it('still reads a message queued by a version that named its one trace', () => {
    const [first] = spans(1, 2);
    if (!first) throw new Error('no span');
    const old = { tenant: 't1', traceId: first.traceId, retentionDays: 30, spans: [first] };
    expect(SpansMessageSchema.parse(old)).toEqual(old);
  });

  it('groups a 5,000-span export of 500 traces into messages of several traces, every span once', () => {
    const list = spans(500, 10);
    const { messages } = spanMessages('t1', 30, list);
    const out = messages.flatMap((m) => m.body.spans.map((s) => `${s.traceId}/${s.spanId}`));
    expect(out).toHaveLength(5000);
    expect(new Set(out).size).toBe(5000);
    expect(messages.length).toBeLessThan(250);
  });
});
