/**
 * @module
 * The normalized span: one schema for what Tribunal keeps of an OTLP span, whatever convention its producer
 * followed (OpenTelemetry's GenAI semantic conventions or OpenInference). It flows to the queue message, the
 * trace's object, `GET /v1/traces/{traceId}` and the typed client.
 */
import { z } from '@hono/zod-openapi';

/** A trace id: 32 lowercase hex characters (16 bytes, not all zero). */
export const TraceIdSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, { error: 'must be 32 lowercase hex characters' })
  .refine((s) => !/^0+$/.test(s), { error: 'must not be all zeros' });

/** A span id: 16 lowercase hex characters (8 bytes, not all zero). */
export const SpanIdSchema = z
  .string()
  .regex(/^[0-9a-f]{16}$/, { error: 'must be 16 lowercase hex characters' })
  .refine((s) => !/^0+$/.test(s), { error: 'must not be all zeros' });

/** An attribute's value as OTLP's AnyValue maps to JSON: string, number, boolean, array, object or null. */
export const AttributeValueSchema = z.unknown().openapi({ description: 'An OTLP AnyValue as JSON.' });

/** Attributes by key. */
export const AttributesSchema = z.record(z.string(), AttributeValueSchema);

/** A nanosecond Unix time as a decimal string (64 bits do not fit a JSON number). */
const NanosSchema = z.string().regex(/^\d{1,20}$/, { error: 'must be a decimal string' });

/** A tool call a message asks for. */
export const ToolCallSchema = z
  .object({
    id: z.string().nullable(),
    name: z.string(),
    arguments: z.string().nullable().describe('The arguments as the producer sent them (usually JSON text).'),
  })
  .strict();

/** One message of a model call's input or output, whichever convention carried it. */
export const SpanMessageSchema = z
  .object({
    role: z.string(),
    content: z.string(),
    toolCalls: z.array(ToolCallSchema).optional(),
    toolCallId: z.string().optional().describe('The tool call this message answers (role `tool`).'),
  })
  .strict();
/** One message of a model call. */
export type SpanMessage = z.infer<typeof SpanMessageSchema>;

/** What a span is to an agent run. */
export const SpanTypeSchema = z.enum(['llm', 'tool', 'agent', 'chain', 'retriever', 'embedding', 'other']);
/** What a span is to an agent run. */
export type SpanType = z.infer<typeof SpanTypeSchema>;

/** The GenAI reading of a span: both conventions mapped to one shape; null where the span says nothing. */
export const GenAiSchema = z
  .object({
    type: SpanTypeSchema.describe(
      "From `gen_ai.operation.name` (chat, text_completion, generate_content: llm; execute_tool: tool; invoke_agent, create_agent: agent; embeddings) or OpenInference's `openinference.span.kind`; `other` for anything else.",
    ),
    operation: z.string().nullable().describe('`gen_ai.operation.name` as sent.'),
    provider: z
      .string()
      .nullable()
      .describe('`gen_ai.provider.name`, `gen_ai.system`, `llm.provider` or `llm.system`.'),
    requestModel: z.string().nullable().describe('`gen_ai.request.model` or `llm.model_name`.'),
    responseModel: z.string().nullable().describe('`gen_ai.response.model`.'),
    input: z.string().nullable().describe("`input.value`, else the last user message's text."),
    output: z.string().nullable().describe("`output.value`, else the last output message's text."),
    inputMessages: z.array(SpanMessageSchema).nullable(),
    outputMessages: z.array(SpanMessageSchema).nullable(),
    tool: z
      .object({
        name: z.string(),
        callId: z.string().nullable(),
        arguments: z.string().nullable(),
        result: z.string().nullable(),
      })
      .strict()
      .nullable()
      .describe(
        '`gen_ai.tool.*` (name, call id, arguments, result) or OpenInference `tool.name` with `input.value` / `output.value`.',
      ),
    agent: z
      .object({ name: z.string().nullable(), id: z.string().nullable() })
      .strict()
      .nullable()
      .describe('`gen_ai.agent.name` / `gen_ai.agent.id` (OpenInference: `agent.name`).'),
    usage: z
      .object({ inputTokens: z.number().nullable(), outputTokens: z.number().nullable() })
      .strict()
      .nullable()
      .describe('`gen_ai.usage.input_tokens` / `output_tokens` or `llm.token_count.prompt` / `completion`.'),
  })
  .strict();
/** The GenAI reading of a span. */
export type GenAi = z.infer<typeof GenAiSchema>;

/** The fields of a span as Tribunal keeps it (shared by the span and the tree's span). */
export const NORMALIZED_SPAN_SHAPE = {
  traceId: TraceIdSchema,
  spanId: SpanIdSchema,
  parentSpanId: SpanIdSchema.nullable(),
  name: z.string(),
  kind: z.enum(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']),
  service: z.string().nullable().describe("The resource's `service.name`."),
  scope: z.string().nullable().describe('The instrumentation scope name.'),
  startTimeUnixNano: NanosSchema,
  endTimeUnixNano: NanosSchema.nullable().describe('Null when the span reports no end (0).'),
  status: z.object({ code: z.enum(['unset', 'ok', 'error']), message: z.string().nullable() }).strict(),
  attributes: AttributesSchema,
  resource: AttributesSchema,
  events: z.array(z.object({ name: z.string(), timeUnixNano: NanosSchema, attributes: AttributesSchema }).strict()),
  genAi: GenAiSchema,
};

/** One span as Tribunal keeps it. */
export const NormalizedSpanSchema = z.object(NORMALIZED_SPAN_SHAPE).strict().openapi('TraceSpan');
/** One span as Tribunal keeps it. */
export type NormalizedSpan = z.infer<typeof NormalizedSpanSchema>;
