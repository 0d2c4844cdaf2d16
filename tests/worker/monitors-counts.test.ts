/**
 * A monitor's counts exactly once, in workerd: a trace object's decisions are stored before D1 hears of them, so a
 * failure between the two (D1 refusing the count write, or the object losing D1's answer after it committed) is
 * injected into the count write, then the call is repeated as the queue's redelivery or the alarm's retry would:
 * `matched` and `sampled` must equal the decisions and the evaluations made, never fewer, never more.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { MonitorRunner } from '../../src/monitors/runner.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { OtlpRequest } from '../../src/traces/otlp-request.js';
import { traceStub } from '../../src/traces/rpc.js';
import { spanRows, TraceStore } from '../../src/traces/store.js';
import { drainAlarms, newTestId, pollUntil, testEnv, waitForEnd } from './helpers.js';
import { agentRunSpans, countsOf, evaluationsOf, monitor, newTraceId, traceWhen, counts } from './monitors-support.js';
import type { OtlpJsonSpan } from './monitors-support.js';

afterEach(drainAlarms);

const ASPECT = { name: 'helpfulness', description: 'How well the answer helps the user.', scale: { min: 1, max: 5 } };

/** Where the injected failure falls: before D1 commits the counts, or after (the answer lost). */
type Fault = 'before-commit' | 'after-commit';

/**
 * The test env with its D1 database failing the next batch that writes `monitor_days`, once: `before-commit`
 * refuses it, `after-commit` runs it and then throws, as a lost answer or an eviction right after would.
 */
function faultyEnv(fault: Fault): { env: Bindings; injected: () => number } {
  const db = testEnv.DB;
  const counting = new WeakMap<object, D1PreparedStatement>();
  let injected = 0;
  const wrap = (s: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(s, {
      get(target, key) {
        if (key === 'bind') return (...values: unknown[]) => wrap(target.bind(...values));
        const v: unknown = Reflect.get(target, key);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    counting.set(proxy, s);
    return proxy;
  };
  const faulty = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => (sql.includes('monitor_days') ? wrap(target.prepare(sql)) : target.prepare(sql));
      if (key === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const hit = injected === 0 && statements.some((s) => counting.has(s));
          const real = statements.map((s) => counting.get(s) ?? s);
          if (hit && fault === 'before-commit') {
            injected += 1;
            throw new Error('injected: D1 unavailable');
          }
          const r = await target.batch(real);
          if (hit) {
            injected += 1;
            throw new Error('injected: the answer was lost');
          }
          return r;
        };
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { env: { ...testEnv, DB: faulty }, injected: () => injected };
}

/** The spans as the queue consumer hands them to the trace's object. */
function rowsOf(spans: OtlpJsonSpan[], service: string) {
  const request = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ scope: { name: 'agent' }, spans }],
      },
    ],
  } as OtlpRequest;
  return spanRows(normalizeRequest(request).spans);
}

const judgeOf = (seed: string, preset = 'rubric-judge') => ({
  preset,
  config: { defaults: { model: mockModel({ seed: newTestId(seed), latency: 20 }) } },
  ...(preset === 'rubric-judge' ? { aspect: ASPECT } : {}),
});

describe("a span monitor's counts", () => {
  for (const fault of ['before-commit', 'after-commit'] as const) {
    it(`equal the evaluations made when the count write fails ${fault} and the message is redelivered`, async () => {
      const service = `counts-${fault}-${newTestId('svc')}`;
      const id = await monitor({ filter: { service, model: 'gpt-4o' }, scope: 'span', judge: judgeOf(fault) });
      const traceId = newTraceId();
      const rows = rowsOf(agentRunSpans(traceId), service);
      const stub = traceStub(testEnv, 'default', traceId);
      const faulty = faultyEnv(fault);
      // The first delivery: the object stores the spans and decides both chat spans, then the count write fails.
      await runInDurableObject(stub, async (_o, state) => {
        const store = new TraceStore({ sql: state.storage.sql, storage: state.storage, d1: () => testEnv.DB });
        const { fresh } = await store.append('default', traceId, rows, 30);
        const runner = new MonitorRunner({ sql: state.storage.sql, env: faulty.env, store });
        await expect(runner.onSpans('default', traceId, fresh)).rejects.toThrow(/injected/);
      });
      expect(faulty.injected()).toBe(1);
      // The redelivery: the same spans through the object's own RPC, as the consumer sends them.
      await stub.append('default', traceId, rows, 30);
      const made = await pollUntil(
        () => evaluationsOf(id),
        (d) => d.length === 2,
      );
      for (const e of made) expect((await waitForEnd(e.id)).status).toBe('succeeded');
      expect(await countsOf(id)).toEqual(counts({ matched: 2, sampled: 2, succeeded: 2 }));
      // Once more (a later message of the trace): still nothing added twice.
      await stub.append('default', traceId, rows, 30);
      expect(await countsOf(id)).toEqual(counts({ matched: 2, sampled: 2, succeeded: 2 }));
    });
  }
});

describe("a trace monitor's counts", () => {
  it('equal the evaluations made when the quiet alarm fails at the count write and is retried', async () => {
    const service = `counts-trace-${newTestId('svc')}`;
    const id = await monitor({ filter: { service }, scope: 'trace', judge: judgeOf('trace', 'trajectory-judge') });
    const traceId = newTraceId();
    const stub = traceStub(testEnv, 'default', traceId);
    await stub.append('default', traceId, rowsOf(agentRunSpans(traceId), service), 30);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    const faulty = faultyEnv('before-commit');
    // The quiet period over; the alarm's first run decides the trace, then its count write fails.
    await runInDurableObject(stub, async (_o, state) => {
      state.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'");
      const store = new TraceStore({ sql: state.storage.sql, storage: state.storage, d1: () => testEnv.DB });
      const runner = new MonitorRunner({ sql: state.storage.sql, env: faulty.env, store });
      await expect(runner.onQuiet('default', traceId)).rejects.toThrow(/injected/);
    });
    expect(faulty.injected()).toBe(1);
    // The alarm's retry.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [made] = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === 1,
    );
    expect((await waitForEnd(made?.id ?? '')).status).toBe('succeeded');
    expect(await countsOf(id)).toEqual(counts({ matched: 1, sampled: 1, succeeded: 1 }));
  });
});
