/**
 * The typed client (src/client, the package export `tribunal/client`) against the Worker in workerd: its
 * helpers end to end (judge, events, transcript, cancel, the wait bound) and `request()` narrowed by
 * status. The client's README example runs as a consumer would in tests/client (e2e).
 */
import { workerFetch } from './api-fetch.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateEvaluationRequest, EvaluationEvent } from '../../src/client/index.js';
import { createTribunalClient, TribunalError } from '../../src/client/index.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { drainAlarms, mockRequests, PAIRWISE } from './helpers.js';
import { createBatchId, items, singleCallJudge, waitForBatch } from './batches-support.js';

afterEach(drainAlarms);

const client = createTribunalClient({ baseUrl: 'http://tribunal.test/', fetch: (r) => workerFetch(r) });
const judgeOn = (seed: string, extra: Record<string, unknown> = {}) => ({
  preset: 'chateval-single',
  config: { defaults: { model: mockModel({ seed, ...extra }) } },
  task: PAIRWISE,
});

describe('the typed client', () => {
  it('judge() submits, follows the events to the end and returns the evaluation with its verdict', async () => {
    const evaluation = await client.judge(judgeOn('client-judge'), { idempotencyKey: 'client-judge-1' });
    expect(evaluation.status).toBe('succeeded');
    expect(['A', 'B', 'tie']).toContain(evaluation.verdict.winner);
    expect(evaluation.usage.calls).toBe(await mockRequests('client-judge'));
    // The same key: the same evaluation, no new calls.
    const again = await client.judge(judgeOn('client-judge'), { idempotencyKey: 'client-judge-1' });
    expect(again.id).toBe(evaluation.id);
    expect(await mockRequests('client-judge')).toBe(evaluation.usage.calls);

    const t = await client.transcript(evaluation.id);
    expect(t.complete).toBe(true);
    expect(t.messages).toHaveLength(evaluation.usage.calls);

    // A late subscriber gets the whole story, typed, ending with the terminal status.
    const seen: EvaluationEvent[] = [];
    for await (const e of client.events(evaluation.id)) seen.push(e);
    expect(seen.filter((e) => e.type === 'call.finished')).toHaveLength(t.messages.length);
    const verdict = seen.find((e) => e.type === 'verdict');
    expect(verdict?.type === 'verdict' ? verdict.data.verdict.winner : null).toBe(evaluation.verdict.winner);
    expect(seen.at(-1)).toMatchObject({ type: 'status', data: { status: 'succeeded' } });
  });

  it('request() reaches any route, answers narrowed by status', async () => {
    const missing = await client.request('get', '/v1/evaluations/{id}', { params: { id: 'ev_nope' } });
    expect(missing.status).toBe(404);
    if (missing.status === 404) expect(missing.body.error.code).toBe('not_found');
    const methods = await client.request('get', '/v1/methods', {});
    expect(methods.ok).toBe(true);
    if (methods.status === 200) expect(methods.body.presets.map((p) => p.id)).toContain('chateval-faireval');
    const models = await client.request('get', '/v1/models/{model}', {
      params: { model: 'tribunal/chateval-faireval' },
    });
    if (models.status !== 200) throw new Error(`expected 200, got ${models.status}`);
    expect(models.body.tribunal.method).toBe('chateval');
    const chat = await client.request('post', '/v1/chat/completions', {
      body: {
        model: `tribunal/chateval-single@${mockModel({ seed: 'client-chat' })}`,
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
      },
    });
    if (chat.status !== 200) throw new Error(`expected 200, got ${chat.status}`);
    expect(JSON.parse(chat.body.choices[0]?.message.content ?? '{}')).toMatchObject({ preset: 'chateval-single' });
  });

  it("types `config` as overrides, partial at every depth: the README's cascade `runAllStages` compiles and is accepted", async () => {
    // Before, the generated type required the cascade's `stages` (the full config), so this did not compile.
    const req: CreateEvaluationRequest = {
      preset: 'cascade-fastchat-chateval',
      config: { runAllStages: true },
      task: PAIRWISE,
    };
    const res = await client.request('post', '/v1/estimates', { body: req });
    expect(res.status).toBe(200);
  });

  it('request() reads NDJSON (batch results) as an async iterator of typed lines (it used to JSON.parse the whole body)', async () => {
    const id = await createBatchId({ ...singleCallJudge('client-ndjson'), items: items(3) });
    await waitForBatch(id);
    const res = await client.request('get', '/v1/batches/{id}/results', { params: { id } });
    if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
    const lines: string[] = [];
    for await (const line of res.body) lines.push(`${line.itemId}:${line.status}`);
    expect(lines).toEqual(['i0:succeeded', 'i1:succeeded', 'i2:succeeded']);
  });

  it("errors are TribunalErrors with the API's stable code", async () => {
    const err = await client.submit({ preset: 'no-such-preset', task: PAIRWISE }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TribunalError);
    expect(err).toMatchObject({ status: 400, code: 'unknown_preset' });
    const failed = await client.judge(judgeOn('client-failed', { permanent: 401 })).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'evaluation_failed', body: { status: 'failed', error: { code: 'auth' } } });
  });

  it('waitForEnd() gives up at its bound with verdict_timeout; cancel() then ends the evaluation', async () => {
    const accepted = await client.submit(judgeOn('client-slow', { latency: 2_000 }));
    const err = await client.waitForEnd(accepted.id, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'verdict_timeout', status: 0 });
    expect((await client.get(accepted.id)).status).not.toBe('cancelled');
    expect(await client.cancel(accepted.id, 'test')).toEqual({ id: accepted.id, status: 'cancelled' });
    expect((await client.waitForEnd(accepted.id)).status).toBe('cancelled');
  });
});
