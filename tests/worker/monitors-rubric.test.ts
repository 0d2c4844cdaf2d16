/**
 * Monitors judging by a stored rubric, and the loop a team runs on them: a span monitor and a trace monitor whose
 * judge names a rubric are created (the rubric's criteria replace an aspect: one given with a description beside it
 * is a 400 naming `judge.aspect.description`) and their verdicts are by that rubric version; a queue made from a
 * monitor's verdicts (its spans' tasks carry the monitor's aspect) is labelled, the rubric aligned on it, and the
 * monitor moved to the aligned version judges new spans with the version's `label`.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { Alignment } from '../../src/align/schemas.js';
import type { NextItem, Queue } from '../../src/annotation-queues/schemas.js';
import type { Evaluation } from '../../src/evaluations/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import { traceStub } from '../../src/traces/rpc.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, testEnv, waitForEnd } from './helpers.js';
import type { OtlpJsonSpan } from './monitors-support.js';
import { agentRunSpans, evaluationsOf, exportSpans, monitor, newTraceId, traceWhen } from './monitors-support.js';
import { TEST_MS, WAIT_MS } from '../support/patience.js';

afterEach(drainAlarms);

const ASPECT = { name: 'helpfulness', description: 'How well the answer helps the user.', scale: { min: 1, max: 5 } };

async function rubric(): Promise<string> {
  const r = await postJson('/v1/rubrics', {
    name: `helpful-${newTestId('rb')}`,
    kind: 'pointwise',
    criteria: 'The answer helps the user: it is correct, complete and to the point.',
    scale: { min: 1, max: 5 },
    autoSteps: false,
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json<RubricVersion>()).id;
}

const judgeConfig = (seed: string, generous = 0) => ({
  defaults: { model: mockModel({ seed: newTestId(seed), ...(generous > 0 ? { generous } : {}) }) },
});

function patch(id: string, body: unknown): Promise<Response> {
  return api(`/v1/monitors/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The monitor's evaluations once `n` of them exist, each ended. */
async function judged(monitorId: string, n: number): Promise<Evaluation[]> {
  const made = await pollUntil(
    () => evaluationsOf(monitorId),
    (d) => d.length >= n,
  );
  expect(made).toHaveLength(n);
  for (const e of made) expect((await waitForEnd(e.id)).status).toBe('succeeded');
  return Promise.all(made.map(async (e) => (await api(`/v1/evaluations/${e.id}`)).json<Evaluation>()));
}

describe('a monitor judging by a stored rubric', () => {
  it('is created for either scope, and its verdicts are by the rubric version', async () => {
    const rb = await rubric();
    const service = `rubric-${newTestId('svc')}`;
    const withDescription = await postJson('/v1/monitors', {
      name: 'm',
      sampleRate: 1,
      filter: { service },
      scope: 'span',
      judge: { preset: 'rubric-judge', rubric: rb, aspect: ASPECT },
    });
    const refused = await withDescription.json<ErrorJson>();
    expect(withDescription.status, JSON.stringify(refused)).toBe(400);
    expect(refused.error.issues?.[0]?.path).toBe('judge.aspect.description');

    const spans = await monitor({
      filter: { service, model: 'gpt-4o' },
      scope: 'span',
      judge: { preset: 'rubric-judge', config: judgeConfig('rb-span'), rubric: `${rb}@1` },
    });
    const trace = await monitor({
      filter: { service },
      scope: 'trace',
      judge: { preset: 'trajectory-judge', config: judgeConfig('rb-trace'), rubric: rb },
    });
    const traceId = newTraceId();
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    await traceWhen(traceId, (t) => t.spanCount === 4);
    const stub = traceStub(testEnv, 'default', traceId);
    await runInDurableObject(stub, (_o, s) =>
      s.storage.sql.exec("UPDATE meta SET value = '1' WHERE key = 'quietUntil'"),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const bySpan = await judged(spans, 2);
    const byTrace = await judged(trace, 1);
    for (const e of [...bySpan, ...byTrace]) {
      expect(e.rubric).toMatchObject({ id: rb, version: 1 });
      expect(e.verdict?.score).toEqual(expect.any(Number));
    }
    expect(byTrace[0]?.taskKind).toBe('trajectory');

    // A monitor made with an aspect moves to the rubric; an aspect with a rubric on a trace is what is refused.
    const aspectOnly = await monitor({
      filter: { service: `${service}-2` },
      scope: 'span',
      judge: { preset: 'rubric-judge', config: judgeConfig('rb-patch'), aspect: ASPECT },
    });
    const moved = await patch(aspectOnly, { judge: { preset: 'rubric-judge', rubric: rb } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const both = await patch(trace, { judge: { preset: 'trajectory-judge', rubric: rb, aspect: ASPECT } });
    expect(both.status).toBe(400);
    expect((await both.json<ErrorJson>()).error.issues?.[0]?.path).toMatch(/^judge\.aspect/);
  });
});

/** One chat span of a trace: an answer whose hidden quality (0-1) the mock judge reads and the humans label. */
function chatSpan(traceId: string, i: number, quality: number): OtlpJsonSpan {
  const text = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
  const kv = (key: string, stringValue: string) => ({ key, value: { stringValue } });
  return {
    traceId,
    spanId: `30000000000000${i.toString(16).padStart(2, '0')}`,
    name: 'chat gpt-4o',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000010000000',
    attributes: [
      kv('gen_ai.operation.name', 'chat'),
      kv('gen_ai.request.model', 'gpt-4o'),
      kv('gen_ai.input.messages', text('user', `(${i}) How do I reset my password?`)),
      kv('gen_ai.output.messages', text('assistant', `(${i}) Open settings. [quality=${quality}]`)),
    ],
  };
}

const human = (i: number) => 1 + (i % 5);

describe("a queue of a monitor's verdicts", { timeout: TEST_MS + WAIT_MS }, () => {
  it('is labelled, aligns the rubric, and the monitor judges by the aligned version', async () => {
    const rb = await rubric();
    const service = `queue-${newTestId('svc')}`;
    const judge = { preset: 'rubric-judge', config: judgeConfig('rb-queue', 1) };
    const id = await monitor({ filter: { service }, scope: 'span', judge: { ...judge, aspect: ASPECT } });
    const n = 12;
    for (let i = 0; i < n; i++)
      expect(await exportSpans([chatSpan(newTraceId(), i, (human(i) - 1) / 4)], service)).toBe(200);
    await judged(id, n);

    const made = await postJson('/v1/annotation-queues', {
      name: 'from the monitor',
      rubric: rb,
      fromEvaluations: { filter: { metadata: { monitor: id } } },
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const queue = await made.json<Queue>();
    for (let k = 0; k < n; k++) {
      const next = await api(`/v1/annotation-queues/${queue.id}/next`, { headers: { 'x-annotator': 'ana' } });
      expect(next.status, await next.clone().text()).toBe(200);
      const item = await next.json<NextItem>();
      // The monitor's aspect is left out: the rubric's criteria say what is scored.
      expect(item.task).not.toHaveProperty('aspect');
      expect(item.rubric.scale).toEqual({ min: 1, max: 5 });
      const i = Number(/^\((\d+)\)/.exec(item.task.kind === 'pointwise' ? item.task.output : '')?.[1]);
      const label = await postJson(item.links.labels, { label: { score: human(i) } }, { 'x-annotator': 'ana' });
      expect(label.status, await label.clone().text()).toBe(200);
    }
    expect((await api(`/v1/annotation-queues/${queue.id}/next`, { headers: { 'x-annotator': 'ana' } })).status).toBe(
      204,
    );

    const started = await postJson(`/v1/rubrics/${rb}/align`, { queue: queue.id, method: 'thresholds', ...judge });
    expect(started.status, await started.clone().text()).toBe(202);
    const self = (await started.json<Alignment>()).links.self;
    const done = await pollUntil(
      async () => (await api(self)).json<Alignment>(),
      (a) => a.status !== 'running',
      WAIT_MS,
      200,
    );
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'succeeded', version: 2 });

    const moved = await patch(id, { judge: { ...judge, rubric: `${rb}@2` } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await exportSpans([chatSpan(newTraceId(), n, 0.5)], service)).toBe(200);
    const latest = await pollUntil(
      () => evaluationsOf(id),
      (d) => d.length === n + 1,
    );
    const aligned = await waitForEnd(latest[0]?.id ?? '');
    expect(aligned.status).toBe('succeeded');
    const ev = await (await api(`/v1/evaluations/${latest[0]?.id ?? ''}`)).json<Evaluation>();
    expect(ev.rubric).toMatchObject({ id: rb, version: 2 });
    expect(ev.verdict?.label?.score).toEqual(expect.any(Number));
  });
});
