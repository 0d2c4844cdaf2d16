/**
 * Monitors judging traces in workerd, spans exported through `POST /v1/traces` and the spans queue: a span-scope
 * monitor judges each matching span once (a re-export adds nothing); a trace-scope monitor judges a trace once after
 * its quiet period (the trace object's alarm, driven with runDurableObjectAlarm), a trajectory verdict naming the
 * first failing step's span; sample rates 0 / 0.5 / 1 decided by the ids; a paused monitor matches nothing.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { sampled } from '../../src/monitors/match.js';
import { traceStub } from '../../src/traces/rpc.js';
import { api } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, testEnv, waitForEnd } from './helpers.js';
import {
  agentRunSpans,
  countsOf,
  evaluationsOf,
  exportSpans,
  monitor,
  newTraceId,
  type OtlpJsonSpan,
  SPANS,
  traceWhen,
  counts,
} from './monitors-support.js';

afterEach(drainAlarms);

const ASPECT = { name: 'helpfulness', description: 'How well the answer helps the user.', scale: { min: 1, max: 5 } };

function spanJudge(seed: string) {
  return {
    preset: 'rubric-judge',
    config: { defaults: { model: mockModel({ seed: newTestId(seed) }) } },
    aspect: ASPECT,
  };
}

/** Exports an unrelated span into the trace and waits until the trace holds `count` spans: the queue has caught up. */
async function settle(traceId: string, service: string, count: number, n: number): Promise<void> {
  const id = `20000000000000${n.toString(16).padStart(2, '0')}`;
  const marker = {
    traceId,
    spanId: id,
    name: 'marker',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000001000000',
  };
  expect(await exportSpans([marker], service)).toBe(200);
  await traceWhen(traceId, (t) => t.spanCount >= count);
}

describe('span-scope monitors', () => {
  it('judge each matching span once; a re-export adds nothing', async () => {
    const service = `span-${newTestId('svc')}`;
    const id = await monitor({ filter: { service, model: 'gpt-4o' }, scope: 'span', judge: spanJudge('span') });
    const traceId = newTraceId();
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    const made = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === 2,
    );
    for (const e of made) expect((await waitForEnd(e.id)).status).toBe('succeeded');

    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await settle(traceId, service, 5, 1);
    expect(await evaluationsOf(id)).toHaveLength(2);
    expect(await countsOf(id)).toEqual(counts({ matched: 2, sampled: 2, succeeded: 2 }));

    const trace = await traceWhen(traceId, (t) => t.spanCount === 5);
    const judged = trace.spans
      .filter((s) => s.evaluations.length > 0)
      .map((s) => s.spanId)
      .sort();
    expect(judged).toEqual([SPANS.chat, SPANS.answer].sort());
    const onChat = trace.spans.find((s) => s.spanId === SPANS.chat)?.evaluations[0];
    expect(onChat).toMatchObject({ status: 'succeeded', monitorId: id, spanId: SPANS.chat });
    const ev = await (await api(`/v1/evaluations/${onChat?.id ?? ''}`)).json<{ source: unknown }>();
    expect(ev.source).toEqual({ traceId, spanId: SPANS.chat, monitorId: id });
  });

  it('samples 0, 0.5 and 1 by the ids; a paused monitor matches nothing', async () => {
    const service = `rates-${newTestId('svc')}`;
    const filter = { service, model: 'gpt-4o' };
    const none = await monitor({ filter, scope: 'span', sampleRate: 0, judge: spanJudge('r0') });
    const half = await monitor({ filter, scope: 'span', sampleRate: 0.5, judge: spanJudge('r5') });
    const paused = await monitor({ filter, scope: 'span', paused: true, judge: spanJudge('rp') });
    const traces = [newTraceId(), newTraceId(), newTraceId()];
    for (const t of traces) expect(await exportSpans(agentRunSpans(t), service)).toBe(200);
    for (const t of traces) await traceWhen(t, (x) => x.spanCount === 4);
    const expected = traces.flatMap((t) => [SPANS.chat, SPANS.answer].filter((s) => sampled(0.5, half, t, s))).length;
    await pollUntil(
      () => countsOf(none),
      (c) => c.matched === 6,
    );

    expect(await countsOf(none)).toEqual(counts({ matched: 6 }));
    expect((await countsOf(half)).sampled).toBe(expected);
    expect(
      await pollUntil(
        () => evaluationsOf(half),
        (d) => d.length === expected,
      ),
    ).toHaveLength(expected);
    expect(await countsOf(paused)).toEqual(counts({}));
    expect(await evaluationsOf(none)).toEqual([]);
    // The hash is deterministic and near the rate over many ids: random span ids, as OTLP's are (counting ids
    // 0, 1, 2… share all but their last digits, and FNV-1a's spread over them follows the monitor and trace ids:
    // 834 of 2,000 in one run).
    const ids = Array.from({ length: 2000 }, () =>
      [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join(''),
    );
    const kept = ids.filter((s) => sampled(0.5, half, traces[0] ?? '', s));
    expect(kept).toEqual(ids.filter((s) => sampled(0.5, half, traces[0] ?? '', s)));
    expect(kept.length).toBeGreaterThan(850);
    expect(kept.length).toBeLessThan(1150);
  });
});

describe('trace-scope monitors', () => {
  it('count a sampled trace they cannot judge as skippedUnjudgeable, with an info line naming why', async () => {
    const judge = { preset: 'trajectory-judge', config: { defaults: { model: mockModel({ seed: newTestId('uj') }) } } };
    const spans = agentRunSpans('0'.repeat(32));
    const only = (ids: string[], traceId: string): OtlpJsonSpan[] =>
      spans.filter((s) => ids.includes(s.spanId as string)).map((s) => ({ ...s, traceId }));
    // A single agent root with input and output (no step), and a root with a tool span but no user input.
    const cases = [
      { reason: 'no_step', spans: (t: string) => only([SPANS.root], t) },
      {
        reason: 'no_request',
        spans: (t: string) =>
          only([SPANS.root, SPANS.tool], t).map((s) => (s.spanId === SPANS.root ? { ...s, attributes: [] } : s)),
      },
    ];
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    try {
      for (const c of cases) {
        const service = `unjudgeable-${newTestId('svc')}`;
        const id = await monitor({ filter: { service }, scope: 'trace', judge });
        const traceId = newTraceId();
        const stub = traceStub(testEnv, 'default', traceId);
        const sent = c.spans(traceId);
        expect(await exportSpans(sent, service)).toBe(200);
        await traceWhen(traceId, (t) => t.spanCount === sent.length);
        await runInDurableObject(stub, (_o, s) =>
          s.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'"),
        );
        expect(await runDurableObjectAlarm(stub)).toBe(true);
        expect(await countsOf(id)).toEqual(counts({ matched: 1, sampled: 1, skippedUnjudgeable: 1 }));
        expect(await evaluationsOf(id)).toEqual([]);
        const line = lines.find((l) => l.includes('monitors.trace_unjudgeable') && l.includes(traceId));
        expect(line, c.reason).toContain(c.reason);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('judge a trace once after its quiet period, as a trajectory naming the first failing span', async () => {
    const service = `trace-${newTestId('svc')}`;
    const judge = { preset: 'trajectory-judge', config: { defaults: { model: mockModel({ seed: newTestId('tr') }) } } };
    const id = await monitor({ filter: { service }, scope: 'trace', judge });
    const traceId = newTraceId();
    const stub = traceStub(testEnv, 'default', traceId);
    expect(await exportSpans(agentRunSpans(traceId, { root: false }), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 3);
    // No root span yet: not complete, so no quiet period (the only alarm is the retention's, days away).
    const retention = await runInDurableObject(stub, (_o, s) => s.storage.getAlarm());
    expect(retention).toBeGreaterThan(Date.now() + 86_400_000);
    const before = Date.now();
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    const alarm = await runInDurableObject(stub, (_o, s) => s.storage.getAlarm());
    expect(alarm).toBeGreaterThanOrEqual(before + 5_000);
    expect(alarm).toBeLessThan(Date.now() + 60_000);
    expect(await evaluationsOf(id)).toEqual([]);

    // The quiet period is over: its alarm judges the trace, once however often it runs.
    const due = () =>
      runInDurableObject(stub, (_o, s) => s.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'"));
    await due();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [made] = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === 1,
    );
    expect((await waitForEnd(made?.id ?? '')).status).toBe('succeeded');
    await due();
    await runDurableObjectAlarm(stub);
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await settle(traceId, service, 5, 2);
    await due();
    await runDurableObjectAlarm(stub);
    const all = await evaluationsOf(id);
    expect(all, JSON.stringify(all)).toHaveLength(1);
    expect(await countsOf(id)).toEqual(counts({ matched: 1, sampled: 1, succeeded: 1 }));

    const ev = await (
      await api(`/v1/evaluations/${made?.id ?? ''}`)
    ).json<{
      taskKind: string;
      source: unknown;
      verdict: { firstFailingStep: unknown };
    }>();
    expect(ev.taskKind).toBe('trajectory');
    expect(ev.source).toEqual({ traceId, spanId: SPANS.root, monitorId: id });
    expect(ev.verdict.firstFailingStep).toEqual({ step: 2, spanId: SPANS.tool });
    const trace = await traceWhen(traceId, (t) => t.spanCount === 5);
    const onRoot = trace.spans.find((s) => s.spanId === SPANS.root)?.evaluations[0];
    expect(onRoot?.verdict?.firstFailingStep).toEqual({ step: 2, spanId: SPANS.tool });
  });
});
