/**
 * What monitors promise beyond matching, in workerd: a daily budget honoured within one evaluation (a priced
 * model, so the judge costs money), a trace-scope monitor's quiet period restarted by a later span of its trace,
 * and no duplicate evaluation when the same spans are exported twice and their queue message is redelivered.
 */
import {
  createExecutionContext,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
  createMessageBatch,
} from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { OtlpRequest } from '../../src/traces/otlp-request.js';
import { traceStub } from '../../src/traces/rpc.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, testEnv, waitForEnd } from './helpers.js';
import {
  agentRunSpans,
  countsOf,
  evaluationsOf,
  exportSpans,
  monitor,
  newTraceId,
  SPANS,
  traceWhen,
  counts,
} from './monitors-support.js';

afterEach(drainAlarms);

const ASPECT = { name: 'helpfulness', description: 'How well the answer helps the user.', scale: { min: 1, max: 5 } };

/** Each ended evaluation's cost, USD. */
async function costsOf(ids: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const id of ids) {
    await waitForEnd(id);
    out.push((await (await api(`/v1/evaluations/${id}`)).json<{ usage: { costUsd: number } }>()).usage.costUsd);
  }
  return out;
}

describe('a daily budget', () => {
  it('is honoured within one evaluation: once spent, matches are skipped and counted as skippedBudget', async () => {
    // gpt-4o-mini has a price (the mock answers it in judge mode): every judgment costs money.
    const judge = {
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ base: 'gpt-4o-mini', seed: newTestId('budget'), latency: 20 }) } },
      aspect: ASPECT,
    };
    // Each trace's texts its own (same length): a repeated judgment would come from the verdict cache for free.
    const distinct = (n: number) =>
      JSON.parse(JSON.stringify(agentRunSpans(newTraceId())).replaceAll('Paris', `Paris ${n}`)) as ReturnType<
        typeof agentRunSpans
      >;
    // What one judgment of each span costs: the same judge on the same spans, without a budget.
    const probeService = `probe-${newTestId('svc')}`;
    const probe = await monitor({ filter: { service: probeService, model: 'gpt-4o' }, scope: 'span', judge });
    expect(await exportSpans(distinct(0), probeService)).toBe(200);
    const probed = await pollUntil(
      () => evaluationsOf(probe),
      (d) => d.length === 2,
    );
    const one = Math.max(...(await costsOf(probed.map((e) => e.id))));
    expect(one).toBeGreaterThan(0);
    // The least a judgment may be granted: what the evaluation's own check names for a budget too small.
    const leasts: number[] = [];
    for (const e of probed) {
      const { task } = await (await api(`/v1/evaluations/${e.id}/task`)).json<{ task: unknown }>();
      // The stored task carries the aspect already.
      const r = await postJson('/v1/evaluations', {
        preset: judge.preset,
        config: judge.config,
        task,
        budget: { maxCostUsd: 1e-9 },
      });
      expect(r.status).toBe(400);
      const { message } = (await r.json<{ error: { message: string } }>()).error;
      expect(message, message).toMatch(/the least it needs is \$[0-9.]+ /);
      leasts.push(Number(/the least it needs is \$([0-9.]+) /.exec(message)?.[1]));
    }
    const least = Math.max(...leasts);
    expect(least).toBeGreaterThan(0);

    // A day's budget just over the least one judgment may need: the first judgments fit, then the rest covers none.
    const service = `budget-${newTestId('svc')}`;
    const daily = least * 1.2;
    const id = await monitor({ filter: { service, model: 'gpt-4o' }, scope: 'span', judge, dailyBudgetUsd: daily });
    for (let i = 0; i < 3; i++) {
      expect(await exportSpans(distinct(i + 1), service)).toBe(200);
      // Each trace's judgments ended before the next trace arrives: the spend is what later grants read.
      const c = await pollUntil(
        () => countsOf(id),
        (x) => x.matched === 2 * (i + 1) && x.succeeded + x.failed + x.skippedBudget === 2 * (i + 1),
      );
      expect(c.matched).toBe(2 * (i + 1));
    }
    const made = await evaluationsOf(id);
    const spent = (await costsOf(made.map((e) => e.id))).reduce((a, b) => a + b, 0);
    const counts = await countsOf(id);
    // Judged while what is left covers the least a judgment may cost (the evaluation's own check, estimated with
    // every reply at its longest), then skipped: the spend never passes the day's budget by more than one judgment.
    expect(made.length).toBeGreaterThan(0);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(daily + one);
    expect(counts).toMatchObject({ matched: 6, sampled: 6, succeeded: made.length, skippedBudget: 6 - made.length });
    expect(counts.skippedBudget).toBeGreaterThanOrEqual(2);
  });
});

describe('a trace-scope monitor', () => {
  it('restarts the quiet period when a later span of the trace arrives: nothing is judged until the restarted period ends', async () => {
    const service = `quiet-${newTestId('svc')}`;
    const judge = {
      preset: 'trajectory-judge',
      config: { defaults: { model: mockModel({ seed: newTestId('q'), latency: 20 }) } },
    };
    const id = await monitor({ filter: { service }, scope: 'trace', judge });
    const traceId = newTraceId();
    const stub = traceStub(testEnv, 'default', traceId);
    const quietUntil = () =>
      runInDurableObject(stub, (_o, s) =>
        Number(s.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'quietUntil'").one().value),
      );
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    expect(await quietUntil()).toBeGreaterThan(Date.now());
    // The first quiet period as good as over, but its alarm not run yet: then a late span arrives.
    await runInDurableObject(stub, (_o, s) =>
      s.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'"),
    );
    const late = {
      traceId,
      spanId: '3000000000000001',
      parentSpanId: SPANS.root,
      name: 'execute_tool send_report',
      startTimeUnixNano: '1700000000080000000',
      endTimeUnixNano: '1700000000090000000',
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
        { key: 'gen_ai.tool.name', value: { stringValue: 'send_report' } },
      ],
    };
    const before = Date.now();
    expect(await exportSpans([late], service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 5);
    const restarted = await quietUntil();
    expect(restarted).toBeGreaterThanOrEqual(before + 5_000);
    expect(await runInDurableObject(stub, (_o, s) => s.storage.getAlarm())).toBe(restarted);

    // The alarm before the restarted period ends judges nothing and keeps the period.
    await runInDurableObject(stub, (o) => o.alarm());
    expect(await evaluationsOf(id)).toEqual([]);
    expect(await quietUntil()).toBe(restarted);
    expect(await countsOf(id)).toMatchObject({ matched: 0, sampled: 0 });

    // Once it ended: one judgment, of the whole trace with its late span.
    await runInDurableObject(stub, (_o, s) =>
      s.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'"),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [made] = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === 1,
    );
    expect((await waitForEnd(made?.id ?? '')).status).toBe('succeeded');
    const task = await (await api(`/v1/evaluations/${made?.id ?? ''}/task`)).json<{ task: unknown }>();
    expect(JSON.stringify(task.task)).toContain('send_report');
  });
});

describe('no duplicate evaluation', () => {
  it('the same spans exported twice and their queue message redelivered make one evaluation per matching span', async () => {
    const service = `dup-${newTestId('svc')}`;
    const judge = {
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: newTestId('dup'), latency: 20 }) } },
      aspect: ASPECT,
    };
    const id = await monitor({ filter: { service, model: 'gpt-4o' }, scope: 'span', judge });
    const traceId = newTraceId();
    const spans = agentRunSpans(traceId);
    expect(await exportSpans(spans, service)).toBe(200);
    expect(await exportSpans(spans, service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    // The queue redelivers a message it already delivered (its ack lost): the consumer runs it again.
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
          scopeSpans: [{ scope: { name: 'agent' }, spans }],
        },
      ],
    } as OtlpRequest;
    const body = { tenant: 'default', traceId, retentionDays: 30, spans: normalizeRequest(request).spans };
    const batch = createMessageBatch('tribunal-spans', [
      { id: 'redelivered-1', timestamp: new Date(), attempts: 2, body },
      { id: 'redelivered-2', timestamp: new Date(), attempts: 3, body },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks.sort()).toEqual(['redelivered-1', 'redelivered-2']);

    const made = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === 2,
    );
    for (const e of made) expect((await waitForEnd(e.id)).status).toBe('succeeded');
    expect(await evaluationsOf(id)).toHaveLength(2);
    expect(await countsOf(id)).toEqual(counts({ matched: 2, sampled: 2, succeeded: 2 }));
    const trace = await traceWhen(traceId, (t) => t.spanCount === 4);
    expect(trace.spans.flatMap((s) => s.evaluations.map((e) => e.id)).sort()).toEqual(made.map((e) => e.id).sort());
  });
});
