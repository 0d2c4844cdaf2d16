/**
 * @module
 * An OTLP export request read into normalized spans (./span-schema.ts): each span's ids checked (a bad one
 * rejects that span alone, counted for the partial-success answer), its attributes made plain JSON, and its
 * GenAI meaning read from either convention (OpenTelemetry's GenAI semantic conventions, OpenInference).
 */
import type { ReadNotes } from './attributes.js';
import { attributesOf, firstText, numberOf, textOf } from './attributes.js';
import { lastText, messagesOf } from './messages.js';
import type { OtlpRequest, OtlpSpan } from './otlp-request.js';
import type { GenAi, NormalizedSpan, SpanType } from './span-schema.js';
import { SpanIdSchema, TraceIdSchema } from './span-schema.js';

type Attrs = Record<string, unknown>;

const KINDS: readonly NormalizedSpan['kind'][] = [
  'unspecified',
  'internal',
  'server',
  'client',
  'producer',
  'consumer',
];
const STATUS: readonly NormalizedSpan['status']['code'][] = ['unset', 'ok', 'error'];

const OPERATION_TYPES: Readonly<Record<string, SpanType>> = {
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  embeddings: 'embedding',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
};

const OPENINFERENCE_TYPES: Readonly<Record<string, SpanType>> = {
  LLM: 'llm',
  TOOL: 'tool',
  AGENT: 'agent',
  CHAIN: 'chain',
  RETRIEVER: 'retriever',
  EMBEDDING: 'embedding',
};

function typeOf(attrs: Attrs, operation: string | null): SpanType {
  const oi = textOf(attrs['openinference.span.kind'])?.toUpperCase();
  if (oi !== undefined && oi in OPENINFERENCE_TYPES) return OPENINFERENCE_TYPES[oi] ?? 'other';
  if (operation !== null && operation in OPERATION_TYPES) return OPERATION_TYPES[operation] ?? 'other';
  return 'other';
}

/** The GenAI reading of a span's attributes and events. */
export function genAiOf(attrs: Attrs, events: readonly { name: string; attributes: Attrs }[]): GenAi {
  const operation = firstText(attrs, 'gen_ai.operation.name');
  const type = typeOf(attrs, operation);
  const messages = messagesOf(attrs, events);
  const toolName = firstText(attrs, 'gen_ai.tool.name', 'tool.name');
  const isTool = type === 'tool';
  const tool =
    toolName !== null
      ? {
          name: toolName,
          callId: firstText(attrs, 'gen_ai.tool.call.id', 'tool_call.id'),
          arguments: firstText(attrs, 'gen_ai.tool.call.arguments', ...(isTool ? ['input.value'] : [])),
          result: firstText(attrs, 'gen_ai.tool.call.result', ...(isTool ? ['output.value'] : [])),
        }
      : null;
  const agentName = firstText(attrs, 'gen_ai.agent.name', 'agent.name');
  const agentId = firstText(attrs, 'gen_ai.agent.id');
  const inputTokens = numberOf(attrs['gen_ai.usage.input_tokens'] ?? attrs['llm.token_count.prompt']);
  const outputTokens = numberOf(attrs['gen_ai.usage.output_tokens'] ?? attrs['llm.token_count.completion']);
  return {
    type,
    operation,
    provider: firstText(attrs, 'gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system'),
    requestModel: firstText(attrs, 'gen_ai.request.model', 'llm.model_name'),
    responseModel: firstText(attrs, 'gen_ai.response.model'),
    input: firstText(attrs, 'input.value', 'gen_ai.prompt') ?? lastText(messages.input, ['user', 'human']),
    output:
      firstText(attrs, 'output.value', 'gen_ai.completion') ?? lastText(messages.output, ['assistant', 'model', 'ai']),
    inputMessages: messages.input,
    outputMessages: messages.output,
    tool,
    agent: agentName !== null || agentId !== null ? { name: agentName, id: agentId } : null,
    usage: inputTokens !== null || outputTokens !== null ? { inputTokens, outputTokens } : null,
  };
}

/** A JSON or binary id, lowercase hex ('' for none). OTLP/JSON hex is case-insensitive. */
function hexId(v: string | null | undefined): string {
  return (v ?? '').toLowerCase();
}

function nanos(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '0' : String(v);
  return /^\d{1,20}$/.test(s) ? s.replace(/^0+(?=\d)/, '') : '0';
}

/** One span read, or why it is rejected. */
export type SpanReading = { ok: true; span: NormalizedSpan } | { ok: false; reason: string };

/** Reads one span with its resource's attributes and scope. */
export function normalizeSpan(s: OtlpSpan, resource: Attrs, scope: string | null, notes: ReadNotes): SpanReading {
  const traceId = hexId(s.traceId);
  const spanId = hexId(s.spanId);
  if (!TraceIdSchema.safeParse(traceId).success) return { ok: false, reason: 'traceId must be 16 bytes, not all zero' };
  if (!SpanIdSchema.safeParse(spanId).success) return { ok: false, reason: 'spanId must be 8 bytes, not all zero' };
  const parent = hexId(s.parentSpanId);
  if (parent !== '' && !SpanIdSchema.safeParse(parent).success)
    return { ok: false, reason: 'parentSpanId must be empty or 8 bytes, not all zero' };
  const attributes = attributesOf(s.attributes, notes);
  const events = (s.events ?? []).map((e) => ({
    name: e.name ?? '',
    timeUnixNano: nanos(e.timeUnixNano),
    attributes: attributesOf(e.attributes, notes),
  }));
  const end = nanos(s.endTimeUnixNano);
  return {
    ok: true,
    span: {
      traceId,
      spanId,
      parentSpanId: parent === '' ? null : parent,
      name: s.name ?? '',
      kind: KINDS[s.kind ?? 0] ?? 'unspecified',
      service: textOf(resource['service.name']),
      scope,
      startTimeUnixNano: nanos(s.startTimeUnixNano),
      endTimeUnixNano: end === '0' ? null : end,
      status: { code: STATUS[s.status?.code ?? 0] ?? 'unset', message: s.status?.message || null },
      attributes,
      resource,
      events,
      genAi: genAiOf(attributes, events),
    },
  };
}

/** What an export request holds: the spans read, the rejected ones' count and first reasons. */
export interface NormalizedRequest {
  spans: NormalizedSpan[];
  rejected: number;
  reasons: string[];
  /** String values cut at MAX_ATTRIBUTE_CHARS. */
  truncated: number;
}

/** Every span of an export request, read. */
export function normalizeRequest(req: OtlpRequest): NormalizedRequest {
  const notes: ReadNotes = { truncated: 0 };
  const out: NormalizedRequest = { spans: [], rejected: 0, reasons: [], truncated: 0 };
  for (const rs of req.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes, notes);
    for (const ss of rs.scopeSpans ?? []) {
      const scope = ss.scope?.name || null;
      for (const s of ss.spans ?? []) {
        const r = normalizeSpan(s, resource, scope, notes);
        if (r.ok) out.spans.push(r.span);
        else {
          out.rejected += 1;
          if (out.reasons.length < 3) out.reasons.push(r.reason);
        }
      }
    }
  }
  out.truncated = notes.truncated;
  return out;
}

/** Spans in an export request, counted before anything is read (the per-request limit). */
export function countSpans(req: OtlpRequest): number {
  let n = 0;
  for (const rs of req.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) n += ss.spans?.length ?? 0;
  return n;
}
