/**
 * @module
 * A span's texts as a tenant that stores no content (`storeContent: false`) keeps them once its trace's monitors
 * have taken them: each text becomes its sha-256 (hex, `sha256:` prefixed, as an evaluation's task does), so a
 * caller can still match a text it holds. What a span says of itself stays as sent: its ids, name, kind, times,
 * status code, service, scope, resource, its GenAI type, operation, provider, models, agent, tool name and call
 * ids, token usage, message roles, and the attributes that name rather than say ({@link KEPT_ATTRIBUTE}). Every
 * other string goes: the GenAI input and output, each message's content, tool arguments and results, the status
 * message, every other attribute's string values and the events' attributes. Idempotent: a hashed string stays.
 */
import { sha256Hex } from '../http/request-hash.js';
import type { GenAi, NormalizedSpan, SpanMessage } from './span-schema.js';

/** Prefix of a hashed text. */
export const HASHED = 'sha256:';

/**
 * Attributes kept as sent: identifiers, models, names and counts, which say what ran, not what was said (the GenAI
 * conventions' `gen_ai.*` names, OpenInference's, and OpenTelemetry's service, host and process ones).
 */
export const KEPT_ATTRIBUTE =
  /^(gen_ai\.(operation\.name|provider\.name|system|request\.model|response\.model|response\.id|response\.finish_reasons|agent\.name|agent\.id|tool\.name|tool\.call\.id|tool\.type|conversation\.id|usage\..+|request\.(max_tokens|temperature|top_p|top_k|seed))|openinference\.span\.kind|llm\.(model_name|provider|system|token_count\..+)|tool\.name|agent\.name|session\.id|service\..+|telemetry\..+|host\..+|process\..+|server\..+|http\.(method|request\.method|status_code|response\.status_code))$/;

async function hashed(s: string): Promise<string> {
  return s.startsWith(HASHED) ? s : HASHED + (await sha256Hex(s));
}

async function hashedOrNull(s: string | null): Promise<string | null> {
  return s === null ? null : hashed(s);
}

/** Every string in `v` hashed (numbers, booleans and nulls kept). */
async function hashedValue(v: unknown): Promise<unknown> {
  if (typeof v === 'string') return hashed(v);
  if (Array.isArray(v)) return Promise.all(v.map(hashedValue));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(
      await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await hashedValue(x)] as const)),
    );
  return v;
}

async function hashedAttributes(attributes: Record<string, unknown>): Promise<Record<string, unknown>> {
  return Object.fromEntries(
    await Promise.all(
      Object.entries(attributes).map(async ([k, v]) => [k, KEPT_ATTRIBUTE.test(k) ? v : await hashedValue(v)] as const),
    ),
  );
}

async function hashedMessages(ms: SpanMessage[] | null): Promise<SpanMessage[] | null> {
  if (ms === null) return null;
  return Promise.all(
    ms.map(async (m) => ({
      ...m,
      content: await hashed(m.content),
      ...(m.toolCalls
        ? {
            toolCalls: await Promise.all(
              m.toolCalls.map(async (c) => ({ ...c, arguments: await hashedOrNull(c.arguments) })),
            ),
          }
        : {}),
    })),
  );
}

async function hashedGenAi(g: GenAi): Promise<GenAi> {
  return {
    ...g,
    input: await hashedOrNull(g.input),
    output: await hashedOrNull(g.output),
    inputMessages: await hashedMessages(g.inputMessages),
    outputMessages: await hashedMessages(g.outputMessages),
    tool:
      g.tool === null
        ? null
        : { ...g.tool, arguments: await hashedOrNull(g.tool.arguments), result: await hashedOrNull(g.tool.result) },
  };
}

/** The span with its texts hashed (see the module note). */
export async function withoutContent(span: NormalizedSpan): Promise<NormalizedSpan> {
  return {
    ...span,
    status: { ...span.status, message: await hashedOrNull(span.status.message) },
    attributes: await hashedAttributes(span.attributes),
    events: await Promise.all(
      span.events.map(async (e) => ({ ...e, attributes: await hashedAttributes(e.attributes) })),
    ),
    genAi: await hashedGenAi(span.genAi),
  };
}
