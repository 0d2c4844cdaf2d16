/**
 * Spans that stop moving are logged, not left unseen: the export's send warns when the queue answers with a
 * backlog whose oldest message waited past {@link SPANS_WAITING_WARN_MS} (a consumer that stopped, or a queue that
 * stopped handing batches over), and the consumer warns, every {@link APPEND_SLOW_MS}, while a trace object's
 * append stays unanswered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { APPEND_SLOW_MS, deliverSpanMessages, enqueueSpans, SPANS_WAITING_WARN_MS } from '../../src/traces/ingest.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { NormalizedSpan } from '../../src/traces/span-schema.js';

const TRACE = 'a'.repeat(32);

function oneSpan(): NormalizedSpan[] {
  const r = normalizeRequest({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              { traceId: TRACE, spanId: '1'.repeat(16), name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' },
            ],
          },
        ],
      },
    ],
  });
  return r.spans;
}

/** The warn lines written, parsed. */
function warnings(spy: { mock: { calls: unknown[][] } }): { event: string; [k: string]: unknown }[] {
  return spy.mock.calls.map((c) => JSON.parse(String(c[0])) as { event: string });
}

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  vi.useRealTimers();
});

/** An env whose spans queue answers with a backlog whose oldest message was queued at `oldest` (epoch ms). */
function queueEnv(oldest: number | Date, backlogCount = 1234): Bindings {
  const sendBatch = () =>
    Promise.resolve({
      metadata: { metrics: { backlogCount, backlogBytes: 5_000_000, oldestMessageTimestamp: oldest } },
    });
  return { SPANS: { sendBatch } } as unknown as Bindings;
}

describe('the export', () => {
  it('warns once when the queue holds spans queued longer ago than the threshold, naming the backlog', async () => {
    const now = Date.now();
    await enqueueSpans(queueEnv(now - SPANS_WAITING_WARN_MS - 5_000), 'default', 30, oneSpan());
    const [line, ...rest] = warnings(warn).filter((w) => w.event === 'traces.spans_waiting');
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ queue: 'tribunal-spans', backlogMessages: 1234, backlogBytes: 5_000_000 });
    expect(line?.oldestSeconds).toBeGreaterThanOrEqual(65);
    // Right after: not again (one line per isolate per few seconds, not one per export).
    await enqueueSpans(queueEnv(new Date(now - SPANS_WAITING_WARN_MS - 5_000)), 'default', 30, oneSpan());
    expect(warnings(warn).filter((w) => w.event === 'traces.spans_waiting')).toHaveLength(1);
  });

  it('stays quiet while the backlog is younger than the threshold', async () => {
    vi.useFakeTimers({ now: Date.now() + 3_600_000 });
    await enqueueSpans(queueEnv(Date.now() - 2_000), 'default', 30, oneSpan());
    await enqueueSpans(queueEnv(0, 0), 'default', 30, oneSpan());
    expect(warnings(warn).filter((w) => w.event === 'traces.spans_waiting')).toEqual([]);
  });
});

describe('the consumer', () => {
  it("warns while a trace object's append stays unanswered, and stops once it answers", async () => {
    vi.useFakeTimers();
    let answer: (v: unknown) => void = () => undefined;
    const append = () => new Promise((resolve) => (answer = resolve));
    const index = {
      tenant: 'default',
      traceId: TRACE,
      rootSpanId: null,
      rootName: null,
      service: null,
      startedAt: 1,
      rootEndedAt: null,
      createdAt: 1,
    };
    const db = { prepare: () => ({ bind: () => ({}) }), batch: () => Promise.resolve([]) };
    const env = {
      TRACE: { idFromName: (n: string) => n, get: () => ({ append }) },
      DB: db,
      D1_SHARDS: '0',
    } as unknown as Bindings;
    const delivered = deliverSpanMessages(env, [{ tenant: 'default', retentionDays: 30, spans: oneSpan() }]);
    await vi.advanceTimersByTimeAsync(APPEND_SLOW_MS * 2 + 1);
    const slow = warnings(warn).filter((w) => w.event === 'traces.append_slow');
    expect(slow).toHaveLength(2);
    expect(slow[1]).toMatchObject({ pending: 1, tenant: 'default', traceId: TRACE, waitedSeconds: 60 });
    answer({ added: 1, index });
    expect(await delivered).toEqual([true]);
    await vi.advanceTimersByTimeAsync(APPEND_SLOW_MS * 2);
    expect(warnings(warn).filter((w) => w.event === 'traces.append_slow')).toHaveLength(2);
  });
});
