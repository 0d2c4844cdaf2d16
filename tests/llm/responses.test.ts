/**
 * OpenAI's Responses API: the mock's `POST /v1/responses` driven by the real `openai` SDK (the response object,
 * usage, errors as OpenAI sends them), and the LLM client's Responses path for calls that ask for it (an Evals
 * run's `responses` sampler) at a provider declared `supportsResponses`, chat completions elsewhere.
 */
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import { createLlm } from '../../src/llm/client.js';
import { readResponse } from '../../src/llm/responses.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import type { SeenRequest } from '../support/recording-fetch.js';
import { recordingFetch } from '../support/recording-fetch.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

const sdk = () => new OpenAI({ apiKey: 'sk-mock', baseURL: server.baseUrl, maxRetries: 0 });

describe("the mock's POST /v1/responses", () => {
  it('answers a string input with one message item, output_text and usage, as the chat path answers the prompt', async () => {
    const model = mockModel({ seed: 'responses-plain' });
    const r = await sdk().responses.create({ model, input: 'Is Paris the capital of France? Answer yes or no.' });
    expect(r).toMatchObject({ object: 'response', status: 'completed', model, error: null });
    expect(r.output).toHaveLength(1);
    const [message] = r.output;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    const text =
      message?.type === 'message' && message.content[0]?.type === 'output_text' ? message.content[0].text : '';
    expect(text).not.toBe('');
    expect(r.output_text).toBe(text);
    expect(r.usage?.input_tokens).toBeGreaterThan(0);
    expect(r.usage?.output_tokens).toBeGreaterThan(0);
    expect(r.usage?.total_tokens).toBe((r.usage?.input_tokens ?? 0) + (r.usage?.output_tokens ?? 0));
    const chat = await sdk().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Is Paris the capital of France? Answer yes or no.' }],
    });
    expect(chat.choices[0]?.message.content).toBe(text);
  });

  it('reads instructions, messages, temperature, max_output_tokens and a json_schema text.format', async () => {
    const r = await sdk().responses.create({
      model: mockModel({ seed: 'responses-format' }),
      instructions: 'Rate the answer.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Answer: Paris. Score it from 1 to 5.' }] }],
      temperature: 0,
      max_output_tokens: 100,
      text: {
        format: {
          type: 'json_schema',
          name: 'scored',
          schema: { type: 'object', properties: { score: { type: 'number', minimum: 1, maximum: 5 } } },
        },
      },
    });
    expect(r).toMatchObject({ instructions: 'Rate the answer.', temperature: 0, max_output_tokens: 100 });
    const score = (JSON.parse(r.output_text) as { score: number }).score;
    expect(score).toBeGreaterThanOrEqual(1);
    expect(score).toBeLessThanOrEqual(5);
  });

  it("refuses what it does not read, and answers the model name's faults, in OpenAI's error shape", async () => {
    const refused = async (body: object) => {
      const e: unknown = await sdk()
        .responses.create(body as never)
        .catch((x: unknown) => x);
      if (!(e instanceof APIError)) throw new Error('expected an APIError');
      return e;
    };
    const model = mockModel({ seed: 'responses-refused' });
    expect(await refused({ model, input: 'hi', previous_response_id: 'resp_1' })).toMatchObject({
      status: 400,
      param: 'previous_response_id',
      type: 'invalid_request_error',
    });
    expect(await refused({ model })).toMatchObject({ status: 400, param: 'input' });
    expect(await refused({ model, input: [{ role: 'user', content: [{ type: 'input_image' }] }] })).toMatchObject({
      status: 400,
      param: 'input[0]',
    });
    const limited = await refused({ model: mockModel({ seed: 'responses-429', permanent: 429 }), input: 'hi' });
    expect(limited).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });
});

let n = 0;
function call(extra: Partial<LlmCallRequest> = {}): LlmCallRequest {
  n += 1;
  return {
    id: `sample/${String(n)}`,
    agent: 'sampler',
    label: 'sampler',
    stage: 'sample',
    model: mockModel({ seed: 'responses-client' }),
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: `Question ${String(n)}: score Paris as the capital of France from 1 to 5.` },
    ],
    temperature: 0.2,
    maxTokens: 77,
    parser: { type: 'text' },
    api: 'responses',
    sampling: {
      topP: 0.9,
      seed: 7,
      reasoningEffort: 'low',
      format: {
        type: 'json_schema',
        name: 'scored',
        schema: { type: 'object', properties: { score: { type: 'number', minimum: 1, maximum: 5 } } },
        strict: true,
      },
    },
    ...extra,
  };
}

function ok(r: LlmCallResult): Extract<LlmCallResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r;
}

describe("the client's Responses path", () => {
  const client = (supportsResponses: boolean, seen: SeenRequest[]) =>
    createLlm(
      { providers: { default: { baseUrl: server.baseUrl, supportsResponses } }, defaultModel: 'mock-judge' },
      { fetch: recordingFetch(seen) },
    );

  it('sends a call that asks for it to /responses with its parameters mapped, and reads the reply and usage', async () => {
    const seen: SeenRequest[] = [];
    const r = ok(await client(true, seen)(call()));
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/v1/responses']);
    expect(seen[0]?.body).toEqual({
      model: mockModel({ seed: 'responses-client' }),
      instructions: 'Be brief.',
      input: [{ role: 'user', content: expect.stringContaining('Question') as string }],
      temperature: 0.2,
      max_output_tokens: 77,
      top_p: 0.9,
      reasoning: { effort: 'low' },
      text: { format: expect.objectContaining({ type: 'json_schema', name: 'scored', strict: true }) as object },
      store: false,
    });
    const score = (JSON.parse(r.content) as { score: number }).score;
    expect(score).toBeGreaterThanOrEqual(1);
    expect(r.usage.promptTokens).toBeGreaterThan(0);
    expect(r.usage.completionTokens).toBeGreaterThan(0);
  });

  it('goes as chat completions at a provider that does not speak it, with the same parameters in their chat names', async () => {
    const seen: SeenRequest[] = [];
    ok(await client(false, seen)(call()));
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/v1/chat/completions']);
    expect(seen[0]?.body).toMatchObject({
      temperature: 0.2,
      max_tokens: 77,
      top_p: 0.9,
      seed: 7,
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: expect.objectContaining({ name: 'scored' }) as object },
    });
    // A call that does not ask for it never goes to /responses.
    const plain: SeenRequest[] = [];
    ok(await client(true, plain)(call({ api: undefined, sampling: undefined })));
    expect(plain.map((s) => new URL(s.url).pathname)).toEqual(['/v1/chat/completions']);
  });

  it('retries a response the provider failed, and reads an empty one as an empty reply', () => {
    const failed = readResponse({ status: 'failed', error: { message: 'overloaded' }, output: [] }, 'p', 'm');
    expect(failed).toMatchObject({ kind: 'error', retryable: true, error: { code: 'provider_error' } });
    expect(readResponse({ status: 'completed', output: [] }, 'p', 'm')).toMatchObject({ attemptKind: 'empty_reply' });
    expect(readResponse({ status: 'completed' }, 'p', 'm')).toMatchObject({ attemptKind: 'malformed' });
  });
});
