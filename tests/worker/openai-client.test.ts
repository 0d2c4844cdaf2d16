/**
 * The typed client (src/client, the package export `tribunal/client`) against the Worker in workerd: its
 * helpers end to end (judge, events, transcript, cancel, the wait bound) and `request()` narrowed by
 * status. The client's README example runs as a consumer would in tests/client (e2e).
 */
import { workerFetch } from './api-fetch.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatCompletionChunk as SdkChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatCompletionStream, CreateEvaluationRequest, EvaluationEvent } from '../../src/client/index.js';
import { verdictFromContent } from '../../src/openai/chunks.js';
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

  it('request() with `stream: true` answers a typed stream of chunks (it typed the SSE text as one JSON completion)', async () => {
    const model = `tribunal/chateval-single@${mockModel({ seed: 'client-stream' })}`;
    const res = await client.request('post', '/v1/chat/completions', {
      body: {
        model,
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
        stream: true,
        stream_options: { include_usage: true },
      },
    });
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}`);
    // Compile time: the body is a stream whose items the `openai` package reads as its own chunks, not a completion.
    const stream: ChatCompletionStream = res.body;
    // @ts-expect-error a stream has no `choices`
    expect(res.body.choices).toBeUndefined();
    const chunks: SdkChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    const verdict = verdictFromContent(content);
    expect(verdict?.preset).toBe('chateval-single');
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    // The usage chunk comes last, `[DONE]` ends the iteration.
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    // Without `stream`, the same route answers the completion.
    const plain = await client.request('post', '/v1/chat/completions', {
      body: { model, messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }], stream: false },
    });
    if (plain.status !== 200) throw new Error(`expected 200, got ${plain.status}`);
    expect(JSON.parse(plain.body.choices[0]?.message.content ?? '{}')).toMatchObject({ winner: verdict?.winner });
    // A `stream` flag known only at run time is refused at compile time: the answer's type depends on it.
    const flag = Math.random() < 2;
    const either = () =>
      // @ts-expect-error `stream: boolean` is neither the streamed nor the plain request
      client.request('post', '/v1/chat/completions', { body: { model, messages: [], stream: flag } });
    expect(typeof either).toBe('function');
  });

  it('a streamed chat completion that ends in an error throws a TribunalError with its code', async () => {
    const res = await client.request('post', '/v1/chat/completions', {
      body: {
        model: `tribunal/chateval-single@${mockModel({ seed: 'client-stream-failed', permanent: 401 })}`,
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
        stream: true,
      },
    });
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}`);
    let content = '';
    const err = await (async () => {
      for await (const chunk of res.body) content += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TribunalError);
    expect(err).toMatchObject({ code: 'evaluation_failed', body: { error: { code: 'evaluation_failed' } } });
    expect(content).toMatch(/call failed: auth: /);
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
    // The unit is plain: seconds, with the option's own value in ms.
    expect((err as Error).message).toContain('did not end within 0.3 s (timeoutMs 300)');
    expect((await client.get(accepted.id)).status).not.toBe('cancelled');
    expect(await client.cancel(accepted.id, 'test')).toEqual({ id: accepted.id, status: 'cancelled' });
    expect((await client.waitForEnd(accepted.id)).status).toBe('cancelled');
  });
});
