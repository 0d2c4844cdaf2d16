/**
 * Reading spans: OpenTelemetry's GenAI semantic conventions (attributes, the details event, the older
 * per-message events and indexed attributes) and OpenInference's attributes map to one normalized span; a span
 * with a bad id is rejected alone; long strings are cut and counted; the tree order of a trace.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTE_CHARS } from '../../src/traces/attributes.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { OtlpKeyValue, OtlpRequest, OtlpSpan } from '../../src/traces/otlp-request.js';
import { NormalizedSpanSchema } from '../../src/traces/span-schema.js';
import { treeOrder } from '../../src/traces/tree.js';

const TRACE = '5b8efff798038103d269b633813fc60c';

function attrs(o: Record<string, string | number | boolean>): OtlpKeyValue[] {
  return Object.entries(o).map(([key, v]) => ({
    key,
    value:
      typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : { intValue: String(v) },
  }));
}

function request(spans: OtlpSpan[], service = 'agent-svc'): OtlpRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: attrs({ 'service.name': service }) },
        scopeSpans: [{ scope: { name: 'test' }, spans }],
      },
    ],
  };
}

function span(
  id: string,
  parent: string | null,
  start: number,
  a: Record<string, string | number | boolean>,
  extra: Partial<OtlpSpan> = {},
): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: id,
    parentSpanId: parent ?? '',
    name: `span ${id}`,
    kind: 1,
    startTimeUnixNano: String(1_700_000_000_000_000_000 + start),
    endTimeUnixNano: String(1_700_000_000_000_000_000 + start + 1000),
    attributes: attrs(a),
    ...extra,
  };
}

describe('GenAI semantic conventions', () => {
  it('reads a chat span: operation, provider, models, messages as attributes, usage', () => {
    const input = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'rainy, 12C' }] },
    ]);
    const output = JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: 'Rainy, 12C.' }], finish_reason: 'stop' },
    ]);
    const r = normalizeRequest(
      request([
        span('00f067aa0ba902b7', null, 0, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.input.messages': input,
          'gen_ai.output.messages': output,
          'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
          'gen_ai.usage.input_tokens': 42,
          'gen_ai.usage.output_tokens': 7,
        }),
      ]),
    );
    expect(r.rejected).toBe(0);
    const s = NormalizedSpanSchema.parse(r.spans[0]);
    expect(s.service).toBe('agent-svc');
    expect(s.genAi).toMatchObject({
      type: 'llm',
      operation: 'chat',
      provider: 'openai',
      requestModel: 'gpt-4o',
      responseModel: 'gpt-4o-2024-08-06',
      input: 'Weather in Paris?',
      output: 'Rainy, 12C.',
      usage: { inputTokens: 42, outputTokens: 7 },
    });
    expect(s.genAi.inputMessages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', content: 'rainy, 12C', toolCallId: 'call_1' },
    ]);
  });

  it('reads messages from the details event, and from the older per-message events', () => {
    const details = span(
      '00f067aa0ba902b1',
      null,
      0,
      { 'gen_ai.operation.name': 'chat' },
      {
        events: [
          {
            name: 'gen_ai.client.inference.operation.details',
            timeUnixNano: '1',
            attributes: attrs({
              'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
              'gen_ai.output.messages': JSON.stringify([
                { role: 'assistant', parts: [{ type: 'text', content: 'hello' }] },
              ]),
            }),
          },
        ],
      },
    );
    const legacy = span(
      '00f067aa0ba902b2',
      null,
      1,
      { 'gen_ai.system': 'openai', 'gen_ai.operation.name': 'chat' },
      {
        events: [
          { name: 'gen_ai.system.message', timeUnixNano: '1', attributes: attrs({ content: 'sys' }) },
          { name: 'gen_ai.user.message', timeUnixNano: '2', attributes: attrs({ content: 'question' }) },
          {
            name: 'gen_ai.choice',
            timeUnixNano: '3',
            attributes: attrs({ message: JSON.stringify({ content: 'answer' }), index: 0 }),
          },
        ],
      },
    );
    const indexed = span('00f067aa0ba902b3', null, 2, {
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'indexed q',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'indexed a',
    });
    const [a, b, c] = normalizeRequest(request([details, legacy, indexed])).spans;
    expect([a?.genAi.input, a?.genAi.output]).toEqual(['hi', 'hello']);
    expect(b?.genAi.provider).toBe('openai');
    expect(b?.genAi.inputMessages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'question' },
    ]);
    expect(b?.genAi.output).toBe('answer');
    expect([c?.genAi.input, c?.genAi.output]).toEqual(['indexed q', 'indexed a']);
  });

  it('reads tool and agent spans', () => {
    const [tool, agent] = normalizeRequest(
      request([
        span('00f067aa0ba902c1', '00f067aa0ba902c2', 1, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'get_weather',
          'gen_ai.tool.call.id': 'call_1',
          'gen_ai.tool.call.arguments': '{"city":"Paris"}',
          'gen_ai.tool.call.result': 'rainy',
        }),
        span('00f067aa0ba902c2', null, 0, {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'weather-bot',
          'gen_ai.agent.id': 'agt_1',
        }),
      ]),
    ).spans;
    expect(tool?.genAi.type).toBe('tool');
    expect(tool?.genAi.tool).toEqual({
      name: 'get_weather',
      callId: 'call_1',
      arguments: '{"city":"Paris"}',
      result: 'rainy',
    });
    expect(agent?.genAi).toMatchObject({ type: 'agent', agent: { name: 'weather-bot', id: 'agt_1' } });
  });
});

describe('OpenInference', () => {
  it('reads LLM and TOOL spans', () => {
    const [llm, tool] = normalizeRequest(
      request([
        span('00f067aa0ba902d1', null, 0, {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'llm.provider': 'openai',
          'input.value': 'What is 2+2?',
          'output.value': '4',
          'llm.input_messages.0.message.role': 'system',
          'llm.input_messages.0.message.content': 'math tutor',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.content': 'What is 2+2?',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'calc',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"x":"2+2"}',
          'llm.token_count.prompt': 12,
          'llm.token_count.completion': 1,
        }),
        span('00f067aa0ba902d2', '00f067aa0ba902d1', 1, {
          'openinference.span.kind': 'TOOL',
          'tool.name': 'calc',
          'input.value': '{"x":"2+2"}',
          'output.value': '4',
        }),
      ]),
    ).spans;
    expect(llm?.genAi).toMatchObject({
      type: 'llm',
      provider: 'openai',
      requestModel: 'gpt-4o-mini',
      input: 'What is 2+2?',
      output: '4',
      usage: { inputTokens: 12, outputTokens: 1 },
    });
    expect(llm?.genAi.inputMessages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(llm?.genAi.outputMessages?.[0]?.toolCalls).toEqual([{ id: null, name: 'calc', arguments: '{"x":"2+2"}' }]);
    expect(tool?.genAi.tool).toEqual({ name: 'calc', callId: null, arguments: '{"x":"2+2"}', result: '4' });
  });
});

describe('ids, limits and order', () => {
  it('rejects a span with a bad id alone; cuts long strings and counts them', () => {
    const r = normalizeRequest(
      request([
        span('00f067aa0ba902e1', null, 0, { big: 'x'.repeat(MAX_ATTRIBUTE_CHARS + 5) }),
        span('0000000000000000', null, 0, {}),
        { ...span('00f067aa0ba902e2', null, 0, {}), traceId: 'nothex' },
      ]),
    );
    expect(r.spans.map((s) => s.spanId)).toEqual(['00f067aa0ba902e1']);
    expect(r.rejected).toBe(2);
    expect(r.truncated).toBe(1);
    expect(r.spans[0]?.attributes.big).toHaveLength(MAX_ATTRIBUTE_CHARS);
  });

  it('keeps 64-bit times exact and uppercase hex ids read as lowercase', () => {
    const [s] = normalizeRequest(
      request([
        { ...span('00F067AA0BA902F1', null, 0, {}), startTimeUnixNano: '1700000000123456789', endTimeUnixNano: 0 },
      ]),
    ).spans;
    expect(s?.spanId).toBe('00f067aa0ba902f1');
    expect(s?.startTimeUnixNano).toBe('1700000000123456789');
    expect(s?.endTimeUnixNano).toBeNull();
  });

  it('orders a trace depth first, siblings by start; orphans are roots', () => {
    const spans = normalizeRequest(
      request([
        span('000000000000000c', '000000000000000a', 20, {}),
        span('000000000000000b', '000000000000000a', 10, {}),
        span('000000000000000d', '000000000000000b', 15, {}),
        span('000000000000000a', null, 0, {}),
        span('000000000000000e', '00000000000000ff', 5, {}),
      ]),
    ).spans;
    expect(treeOrder(spans).map((s) => [s.spanId.slice(-1), s.depth])).toEqual([
      ['a', 0],
      ['b', 1],
      ['d', 2],
      ['c', 1],
      ['e', 0],
    ]);
  });
});
