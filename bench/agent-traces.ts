/**
 * @module
 * Synthetic GenAI agent traces for the trace ingest bench (./traces.ts), as an OpenTelemetry SDK exports them:
 * an agent run's spans (the root `invoke_agent`, per step a `chat` and an `execute_tool` span, a final `chat`)
 * in the order they end, and an OTLP protobuf export request's body.
 */
import { randomBytes } from 'node:crypto';
import { opentelemetry } from '../src/traces/otlp-proto/otlp.js';

const pb = opentelemetry.proto;
/** A span as the OTLP encoder takes it. */
export type PbSpan = opentelemetry.proto.trace.v1.Span.$Properties;
type PbKeyValue = opentelemetry.proto.common.v1.KeyValue.$Properties;

const MS_NS = 1_000_000;
const { SpanKind } = pb.trace.v1.Span;
const { StatusCode } = pb.trace.v1.Status;
const TOOLS = ['search_orders', 'get_weather', 'lookup_customer', 'create_ticket', 'send_email'];

/** One OTLP attribute: text or a whole number. */
function attr(key: string, value: string | number): PbKeyValue {
  return {
    key,
    value: typeof value === 'string' ? { stringValue: value } : { intValue: value },
  };
}

/** GenAI messages as the semantic conventions' attribute holds them (JSON text). */
function msgs(list: { role: string; parts: object[] }[]): string {
  return JSON.stringify(list);
}

/**
 * One agent run's spans in the order they end (children first, the root last), with its trace id. `judgeable`:
 * the final `chat` span carries its input messages too, so a span monitor has a question and an answer to judge.
 */
export function agentRun(steps: number, startMs: number, judgeable = false): { traceId: string; spans: PbSpan[] } {
  const traceId = randomBytes(16);
  const rootId = randomBytes(8);
  const spans: PbSpan[] = [];
  const question = `Customer #${startMs % 100_000} asks: where is my order, and can you move the delivery to Friday?`;
  let t = startMs;
  const child = (name: string, durationMs: number, attributes: PbKeyValue[], error = false): void => {
    spans.push({
      traceId,
      spanId: randomBytes(8),
      parentSpanId: rootId,
      name,
      kind: SpanKind.SPAN_KIND_CLIENT,
      startTimeUnixNano: (t + 1) * MS_NS,
      endTimeUnixNano: (t + durationMs) * MS_NS,
      attributes,
      status: error
        ? { code: StatusCode.STATUS_CODE_ERROR, message: 'tool failed: timeout' }
        : { code: StatusCode.STATUS_CODE_OK },
    });
    t += durationMs + 1;
  };
  for (let k = 0; k < steps; k++) {
    const tool = TOOLS[k % TOOLS.length] ?? 'search_orders';
    const args = JSON.stringify({ query: `order for customer ${startMs % 100_000}`, step: k, limit: 5 });
    child('chat gpt-4o-mini', 400, [
      attr('gen_ai.operation.name', 'chat'),
      attr('gen_ai.system', 'openai'),
      attr('gen_ai.request.model', 'gpt-4o-mini'),
      attr('gen_ai.response.model', 'gpt-4o-mini-2024-07-18'),
      attr(
        'gen_ai.input.messages',
        msgs([
          {
            role: 'system',
            parts: [{ type: 'text', content: 'You are a support agent. Use the tools; never invent order data.' }],
          },
          { role: 'user', parts: [{ type: 'text', content: question }] },
        ]),
      ),
      attr(
        'gen_ai.output.messages',
        msgs([
          {
            role: 'assistant',
            parts: [{ type: 'tool_call', id: `call_${k}`, name: tool, arguments: args }],
          },
        ]),
      ),
      attr('gen_ai.usage.input_tokens', 180 + 40 * k),
      attr('gen_ai.usage.output_tokens', 32),
    ]);
    child(
      `execute_tool ${tool}`,
      120,
      [
        attr('gen_ai.operation.name', 'execute_tool'),
        attr('gen_ai.tool.name', tool),
        attr('gen_ai.tool.call.id', `call_${k}`),
        attr('gen_ai.tool.call.arguments', args),
        attr(
          'gen_ai.tool.call.result',
          JSON.stringify({ orders: [{ id: `o-${k}`, status: 'shipped', eta: '2026-12-09' }] }),
        ),
      ],
      k === 2,
    );
  }
  child('chat gpt-4o-mini', 600, [
    attr('gen_ai.operation.name', 'chat'),
    attr('gen_ai.request.model', 'gpt-4o-mini'),
    ...(judgeable
      ? [attr('gen_ai.input.messages', msgs([{ role: 'user', parts: [{ type: 'text', content: question }] }]))]
      : []),
    attr(
      'gen_ai.output.messages',
      msgs([
        {
          role: 'assistant',
          parts: [{ type: 'text', content: 'Your order has shipped; I moved the delivery to Friday, December 11.' }],
        },
      ]),
    ),
    attr('gen_ai.usage.input_tokens', 900),
    attr('gen_ai.usage.output_tokens', 40),
  ]);
  spans.push({
    traceId,
    spanId: rootId,
    name: 'invoke_agent support',
    kind: SpanKind.SPAN_KIND_INTERNAL,
    startTimeUnixNano: startMs * MS_NS,
    endTimeUnixNano: (t + 1) * MS_NS,
    attributes: [
      attr('gen_ai.operation.name', 'invoke_agent'),
      attr('gen_ai.agent.name', 'support'),
      attr('gen_ai.agent.id', 'agent-support-v3'),
    ],
    status: { code: StatusCode.STATUS_CODE_OK },
  });
  return { traceId: traceId.toString('hex'), spans };
}

/** One export request's body: the spans under one resource and scope, as an SDK sends them. */
export function exportBody(spans: PbSpan[]): Uint8Array {
  return pb.collector.trace.v1.ExportTraceServiceRequest.encode({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'support-agent'), attr('deployment.environment', 'bench')] },
        scopeSpans: [{ scope: { name: 'bench-traces', version: '1.0.0' }, spans }],
      },
    ],
  }).finish();
}
