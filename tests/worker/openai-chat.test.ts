/**
 * `POST /v1/chat/completions` with the official OpenAI SDK as the client (non-streamed): a judge named as
 * a model, the task in the message (JSON or markers), the verdict as the message's JSON, the debate's
 * usage, the ordinary evaluation behind it, idempotency, and every refusal as an SDK error with
 * Tribunal's stable code.
 */
import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation } from '../../src/evaluations/schemas.js';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import { taskToText } from '../../src/openai/task-text.js';
import { api } from './api-fetch.js';
import { drainAlarms, mockRequests, PAIRWISE, POINTWISE } from './helpers.js';
import { evaluationCount, judgeModel, sdk, verdictOf } from './openai-support.js';

afterEach(drainAlarms);

async function evaluation(id: string): Promise<Evaluation> {
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

async function transcript(id: string): Promise<Transcript> {
  return (await api(`/v1/evaluations/${id}/transcript`)).json<Transcript>();
}

type Transcript = { messages: { callId: string; content: string; model: string; parseError: string | null }[] };

describe('a judge as a model, not streamed', () => {
  it('judges a JSON pairwise task: the message is the verdict, usage the whole debate, the evaluation is an ordinary one', async () => {
    const model = judgeModel('chateval-faireval', { seed: 'chat-json' });
    const { data, response } = await sdk()
      .chat.completions.create({ model, messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }] })
      .withResponse();
    const verdict = verdictOf(data);
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe(model);
    expect(data.id).toBe(`chatcmpl-${verdict.evaluationId}`);
    expect(response.headers.get('Tribunal-Evaluation-Id')).toBe(verdict.evaluationId);
    expect(data.choices).toHaveLength(1);
    expect(data.choices[0]?.finish_reason).toBe('stop');

    // The evaluation behind it is visible through the ordinary API, with the same verdict and usage.
    const ev = await evaluation(verdict.evaluationId);
    expect(ev.status).toBe('succeeded');
    expect(ev.preset).toBe('chateval-faireval');
    expect(verdict).toMatchObject({
      preset: 'chateval-faireval',
      method: 'chateval',
      taskKind: 'pairwise',
      winner: ev.verdict?.winner,
      confidence: ev.verdict?.confidence,
    });
    // FairEval runs both orders: the position flip is known.
    expect(typeof verdict.positionFlip).toBe('boolean');
    expect(verdict.positionFlip).toBe(ev.verdict?.positionFlip);
    expect(data.created).toBe(Math.floor(Date.parse(ev.createdAt) / 1000));
    expect(data.usage).toEqual({
      prompt_tokens: ev.usage.promptTokens,
      completion_tokens: ev.usage.completionTokens,
      total_tokens: ev.usage.promptTokens + ev.usage.completionTokens,
      prompt_tokens_details: { cached_tokens: ev.usage.cachedPromptTokens },
    });
    expect(data.usage?.prompt_tokens).toBeGreaterThan(0);
    // 2 agents × 2 turns × 2 orders, as billed.
    expect(verdict.calls).toBe(8);
    expect(ev.usage.calls).toBe(8);
    expect(verdict.costUsd).toBe(ev.usage.costUsd);
    expect(await mockRequests('chat-json')).toBe(8);

    // The rationale is an excerpt of a stored reply from the as-submitted order.
    const t = await transcript(verdict.evaluationId);
    const from = t.messages.find((m) => m.callId === verdict.rationaleFrom?.callId);
    expect(from).toBeDefined();
    expect(from?.callId.startsWith('ba/')).toBe(false);
    expect(verdict.rationale.length).toBeGreaterThan(0);
    expect(verdict.rationale.length).toBeLessThanOrEqual(600);
    expect(from?.content.replace(/\s+/g, ' ')).toContain(verdict.rationale.replace(/ ?…$/, ''));
  });

  it('reads a plain-text pointwise task with markers and scores it on its scale', async () => {
    const task: PointwiseTask = {
      ...(POINTWISE as PointwiseTask),
      aspect: { name: 'coherence', scale: { min: 1, max: 5 }, description: 'How well the sentences fit together.' },
    };
    const content = taskToText(task);
    expect(content).toContain('[ASPECT]\ncoherence (1-5)\nHow well');
    const data = await sdk().chat.completions.create({
      model: judgeModel('debate-summeval', { seed: 'chat-markers' }),
      messages: [{ role: 'user', content }],
    });
    const verdict = verdictOf(data);
    expect(verdict.taskKind).toBe('pointwise');
    expect(verdict.scale).toEqual({ min: 1, max: 5 });
    expect(verdict.score).toBeGreaterThanOrEqual(1);
    expect(verdict.score).toBeLessThanOrEqual(5);
    expect(verdict.positionFlip).toBeNull();
    expect(verdict.winner).toBeUndefined();
    const ev = await evaluation(verdict.evaluationId);
    expect(ev.verdict?.score).toBe(verdict.score);
  });

  it("@<model> replaces the preset's default model: every reply came from it", async () => {
    const model = judgeModel('fastchat-pair', { seed: 'chat-override' });
    const override = model.slice(model.indexOf('@') + 1);
    const data = await sdk().chat.completions.create({
      model,
      messages: [{ role: 'user', content: taskToText(PAIRWISE as PairwiseTask) }],
    });
    const t = await transcript(verdictOf(data).evaluationId);
    expect(t.messages.length).toBeGreaterThan(0);
    expect(new Set(t.messages.map((m) => m.model))).toEqual(new Set([override]));
  });

  it('accepts the sampling and length parameters, says they had no effect, and stores metadata with the evaluation', async () => {
    const { data, response } = await sdk()
      .chat.completions.create({
        model: judgeModel('chateval-single', { seed: 'chat-unused' }),
        messages: [{ role: 'user', content: [{ type: 'text', text: JSON.stringify(PAIRWISE) }] }],
        temperature: 0.7,
        max_completion_tokens: 16,
        top_p: null,
        n: 1,
        response_format: { type: 'json_object' },
        metadata: { run: 'nightly' },
      })
      .withResponse();
    expect(response.headers.get('Tribunal-Unused-Parameters')).toBe('temperature, max_completion_tokens');
    const ev = await evaluation(verdictOf(data).evaluationId);
    expect(ev.metadata).toEqual({ run: 'nightly' });
  });

  it('Idempotency-Key: a retry answers from the same evaluation without a single new LLM call', async () => {
    const client = sdk();
    const params = {
      model: judgeModel('chateval-single', { seed: 'chat-idem' }),
      messages: [{ role: 'user' as const, content: JSON.stringify(PAIRWISE) }],
    };
    const before = await evaluationCount();
    const first = await client.chat.completions.create(params, { headers: { 'Idempotency-Key': 'chat-idem-1' } });
    const calls = await mockRequests('chat-idem');
    const { data: second, response } = await client.chat.completions
      .create(params, { headers: { 'Idempotency-Key': 'chat-idem-1' } })
      .withResponse();
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.id).toBe(first.id);
    expect(verdictOf(second)).toEqual(verdictOf(first));
    expect(await evaluationCount()).toBe(before + 1);
    expect(await mockRequests('chat-idem')).toBe(calls);
    // The same key with another task is a conflict, as on POST /v1/evaluations.
    const err = await client.chat.completions
      .create(
        { ...params, messages: [{ role: 'user', content: JSON.stringify({ ...PAIRWISE, answerB: 'Marseille.' }) }] },
        { headers: { 'Idempotency-Key': 'chat-idem-1' } },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    expect((err as APIError).code).toBe('idempotency_conflict');
  });
});

/** The SDK error a request fails with. */
async function refusal(params: Record<string, unknown>): Promise<APIError> {
  const err = await sdk()
    .chat.completions.create({
      model: 'tribunal/chateval-single',
      messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
      ...params,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

describe("refusals: a 400 in OpenAI's shape naming the parameter or what is missing, and nothing stored", () => {
  const cases: { name: string; params: Record<string, unknown>; code: string; param: string; message: RegExp }[] = [
    {
      name: 'n > 1',
      params: { n: 2 },
      code: 'invalid_request',
      param: 'n',
      message: /n must be 1: a request is one evaluation/,
    },
    {
      name: 'tools',
      params: { tools: [{ type: 'function', function: { name: 'f' } }] },
      code: 'invalid_request',
      param: 'tools',
      message: /"tools" is not supported: a judge calls no tools/,
    },
    {
      name: 'logprobs',
      params: { logprobs: true },
      code: 'invalid_request',
      param: 'logprobs',
      message: /no token log-probabilities/,
    },
    { name: 'seed', params: { seed: 7 }, code: 'invalid_request', param: 'seed', message: /"seed" is not supported/ },
    {
      name: 'user',
      params: { user: 'u-42' },
      code: 'invalid_request',
      param: 'user',
      message: /put an identifier in metadata/,
    },
    {
      name: 'an unknown parameter',
      params: { dry_run: true },
      code: 'invalid_request',
      param: 'dry_run',
      message: /unknown parameter "dry_run"/,
    },
    {
      name: 'json_schema',
      params: { response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
      code: 'invalid_request',
      param: 'response_format.type',
      message: /json_schema cannot change it/,
    },
    {
      name: 'stream_options without stream',
      params: { stream_options: { include_usage: true } },
      code: 'invalid_request',
      param: 'stream_options',
      message: /only allowed when stream is true/,
    },
    {
      name: 'a model that is not a judge',
      params: { model: 'gpt-4o' },
      code: 'invalid_request',
      param: 'model',
      message: /not a Tribunal judge.*GET \/v1\/models/,
    },
    {
      name: 'an unknown preset',
      params: { model: 'tribunal/no-such-preset' },
      code: 'unknown_preset',
      param: 'model',
      message: /unknown preset "no-such-preset"/,
    },
    {
      name: 'a blank @model',
      params: { model: 'tribunal/chateval-single@ ' },
      code: 'invalid_request',
      param: 'model',
      message: /after "@"/,
    },
    {
      name: 'a system message',
      params: {
        messages: [
          { role: 'system', content: 'Be fair.' },
          { role: 'user', content: JSON.stringify(PAIRWISE) },
        ],
      },
      code: 'invalid_request',
      param: 'messages',
      message: /exactly one user message.*got system, user/,
    },
    {
      name: 'an image part',
      params: { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] },
      code: 'invalid_request',
      param: 'messages.0.content.0',
      message: /only text parts/,
    },
    {
      name: 'a text part without its text',
      params: { messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      code: 'invalid_request',
      param: 'messages.0.content.0.text',
      message: /a "text" part needs its text/,
    },
    {
      name: 'max_tokens -1 (OpenAI requires at least 1)',
      params: { max_tokens: -1 },
      code: 'invalid_request',
      param: 'max_tokens',
      message: /max_tokens/,
    },
    {
      name: 'a missing marker',
      params: { messages: [{ role: 'user', content: '[QUESTION]\nWhy?\n[ANSWER A]\nBecause.' }] },
      code: 'invalid_request',
      param: 'messages.0.content',
      message: /pairwise task is missing \[ANSWER B\]/,
    },
    {
      name: 'no task at all',
      params: { messages: [{ role: 'user', content: 'Which answer is better?' }] },
      code: 'invalid_request',
      param: 'messages.0.content',
      message: /no task found/,
    },
    {
      name: 'a JSON task failing its schema',
      params: { messages: [{ role: 'user', content: JSON.stringify({ ...PAIRWISE, answerB: ' ' }) }] },
      code: 'invalid_request',
      param: 'messages.0.content.answerB',
      message: /answerB must not be only whitespace/,
    },
    {
      name: 'a task kind the preset does not take',
      params: { model: 'tribunal/more-mtbench', messages: [{ role: 'user', content: JSON.stringify(POINTWISE) }] },
      code: 'task_kind_unsupported',
      param: '',
      message: /pointwise/,
    },
  ];

  it.each(cases)('$name', async ({ params, code, param, message }) => {
    const before = await evaluationCount();
    const err = await refusal(params);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.code).toBe(code);
    expect(err.type).toBe('invalid_request_error');
    expect(err.param ?? '').toBe(param);
    expect(err.message).toMatch(message);
    expect(err.headers?.get('x-should-retry')).toBe('false');
    expect(await evaluationCount()).toBe(before);
  });
});
