/**
 * A run's sampler parameters in Node: the reply format a `completions` data source nests under
 * `response_format.json_schema` and a `responses` one gives flat in `text.format` reach the call as the one flat
 * shape, with the engine's fields (a schema always, `strict` only when set), and go back out nested on chat
 * completions and flat on the Responses API.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { samplingOf } from '../../src/evals/sampler.js';
import type { RunDataSource } from '../../src/evals/run-schemas.js';
import { buildChatBody } from '../../src/llm/request.js';
import { buildResponsesBody } from '../../src/llm/responses.js';
import { flatFormat, nestedFormat, responseFormatFor } from '../../src/llm/structured.js';

type Sampled = Extract<RunDataSource, { type: 'completions' | 'responses' }>;
const source = { type: 'file_content' as const, content: [{ item: { q: 'hi' } }] };
const schema = { type: 'object', properties: { score: { type: 'number' } } };

describe("a sampler's reply format", () => {
  it('is the same flat format whether a completions source nests it or a responses source gives it flat', () => {
    const completions: Sampled = {
      type: 'completions',
      source,
      sampling_params: {
        response_format: { type: 'json_schema', json_schema: { name: 'scored', schema, strict: true } },
      },
    };
    const responses: Sampled = {
      type: 'responses',
      source,
      sampling_params: { text: { format: { type: 'json_schema', name: 'scored', schema, strict: true } } },
    };
    const flat = { type: 'json_schema', name: 'scored', schema, strict: true };
    expect(samplingOf(completions).format).toEqual(flat);
    expect(samplingOf(responses).format).toEqual(flat);
  });

  it('gets an empty schema when none is given, and no strict when it is null', () => {
    const completions: Sampled = {
      type: 'completions',
      source,
      sampling_params: { response_format: { type: 'json_schema', json_schema: { name: 'free', strict: null } } },
    };
    expect(samplingOf(completions).format).toEqual({ type: 'json_schema', name: 'free', schema: {} });
    const text: Sampled = {
      type: 'completions',
      source,
      sampling_params: { response_format: { type: 'json_object' } },
    };
    expect(samplingOf(text).format).toEqual({ type: 'json_object' });
  });

  it('goes out nested on chat completions and flat on the Responses API', () => {
    const format = { type: 'json_schema' as const, name: 'scored', schema, strict: true };
    const call: Pick<LlmCallRequest, 'messages' | 'temperature' | 'maxTokens' | 'sampling'> = {
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      maxTokens: 10,
      sampling: { format },
    };
    const options = { model: 'm', tier: 'standard' as const };
    expect(buildChatBody(call, options).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'scored', schema, strict: true },
    });
    expect(buildResponsesBody(call, options).text).toEqual({ format });
    expect(flatFormat(nestedFormat(format))).toEqual(format);
    expect(nestedFormat({ type: 'text' })).toEqual({ type: 'text' });
  });

  it("a json parser's format, nested for chat completions, goes flat on the Responses API", () => {
    const rf = responseFormatFor({ type: 'json', shape: 'winner' });
    const call = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0, maxTokens: 10 };
    const body = buildResponsesBody(call, { model: 'm', tier: 'standard', responseFormat: rf });
    expect(body.text).toEqual({ format: { type: 'json_schema', ...rf.json_schema } });
    expect(nestedFormat(flatFormat(rf))).toEqual(rf);
  });
});
