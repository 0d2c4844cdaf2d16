/**
 * When a trace-scope monitor decides a trace, in workerd (spans through `POST /v1/traces` and the spans queue): a
 * monitor whose sample leaves the trace out decides it as its spans arrive (no quiet period and no alarm to wait
 * for), and the quiet period of one that samples it runs from the spans' arrival in the trace's object, not from
 * after the monitors' D1 writes.
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { configOf } from '../../src/config/vars.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { traceStub } from '../../src/traces/rpc.js';
import { drainAlarms, newTestId, pollUntil, testEnv } from './helpers.js';
import { agentRunSpans, countsOf, exportSpans, monitor, newTraceId, traceWhen, counts } from './monitors-support.js';

afterEach(drainAlarms);

const DAY_MS = 86_400_000;

async function traceMonitor(service: string, sampleRate: number): Promise<string> {
  const judge = { preset: 'trajectory-judge', config: { defaults: { model: mockModel({ seed: newTestId('t') }) } } };
  // The model filter leaves the root span out: only the chat spans match.
  return monitor({ filter: { service, model: 'gpt-4o' }, scope: 'trace', sampleRate, judge });
}

/** The trace object's `meta` value at `key`, or null. */
function metaOf(traceId: string, key: string): Promise<string | null> {
  return runInDurableObject(
    traceStub(testEnv, 'default', traceId),
    (_o, s) =>
      s.storage.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value ?? null,
  );
}

describe('a trace-scope monitor', () => {
  it('that does not sample a trace decides it once its root span arrived, without a quiet period', async () => {
    const service = `unsampled-${newTestId('svc')}`;
    const id = await traceMonitor(service, 0);
    const traceId = newTraceId();
    // The matching spans first: without the root the trace is not complete, so nothing is decided.
    expect(await exportSpans(agentRunSpans(traceId, { root: false }), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 3);
    expect(await countsOf(id)).toMatchObject({ matched: 0, sampled: 0 });
    // The root arrives alone (it does not match itself): the spans kept before it decide the match, at once.
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    const seen = await pollUntil(
      () => countsOf(id),
      (c) => c.matched === 1,
    );
    expect(seen).toEqual(counts({ matched: 1 }));
    // No quiet period armed: the only alarm is the retention's, days away.
    expect(await metaOf(traceId, 'quietUntil')).toBeNull();
    const alarm = await runInDurableObject(traceStub(testEnv, 'default', traceId), (_o, s) => s.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + DAY_MS);
  });

  it("that samples a trace times its quiet period from the spans' arrival in the trace's object", async () => {
    const service = `sampled-${newTestId('svc')}`;
    await traceMonitor(service, 1);
    const traceId = newTraceId();
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    const arrived = Number(await metaOf(traceId, 'lastSpanAt'));
    expect(arrived).toBeGreaterThan(0);
    expect(Number(await metaOf(traceId, 'quietUntil'))).toBe(arrived + configOf(testEnv).TRACE_QUIET_MS);
  });
});
