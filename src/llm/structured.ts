/**
 * @module
 * Structured output: the `response_format` sent for `json` parsers, built from zod schemas with
 * `z.toJSONSchema`, recognition of a provider's refusal of it, and a reply format carried between chat
 * completions' nested shape and the Responses API's flat one ({@link flatFormat}, {@link nestedFormat}).
 */
import { z } from 'zod';
import type { OutputFormat } from '../engine/call.js';
import type { ParserSpec } from '../engine/parsers/spec.js';

type JsonSpec = Extract<ParserSpec, { type: 'json' }>;

function scoreNumber(spec: JsonSpec): z.ZodNumber {
  let n = z.number();
  if (spec.min !== undefined) n = n.min(spec.min);
  if (spec.max !== undefined) n = n.max(spec.max);
  return n;
}

/**
 * The zod schema of a JSON reply shape. Field names are those the engine's JSON parser reads first.
 * Each shape starts with a `rationale` string: generation runs in property order, so the model writes
 * its reasons before the verdict, as the papers' text formats do; the parser ignores it.
 */
export function replySchema(spec: JsonSpec): z.ZodObject {
  const rationale = z.string().describe('Short reasoning written before the verdict.');
  switch (spec.shape) {
    case 'pair-scores':
      return z.strictObject({
        rationale,
        score_a: scoreNumber(spec).describe('Score of answer A (Assistant 1).'),
        score_b: scoreNumber(spec).describe('Score of answer B (Assistant 2).'),
      });
    case 'winner':
      return z.strictObject({ rationale, winner: z.enum(['A', 'B', 'tie']).describe('The better answer, or tie.') });
    case 'score':
      return z.strictObject({ rationale, score: scoreNumber(spec).describe('Score on the stated scale.') });
  }
}

/** OpenAI `response_format` of type `json_schema`. */
export interface JsonSchemaResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: Record<string, unknown>; strict: true };
}

/**
 * The `response_format` for a `json` parser: `{type: 'json_schema', json_schema: {name, schema, strict: true}}`
 * with name `tribunal_<shape>`. `$schema` is dropped (some providers reject unknown top-level keys).
 */
export function responseFormatFor(spec: JsonSpec): JsonSchemaResponseFormat {
  // Cached: z.toJSONSchema costs ~0.2 ms, more than the engine's own work per call, and specs repeat.
  const key = `${spec.shape}|${spec.min ?? ''}|${spec.max ?? ''}`;
  let format = FORMATS.get(key);
  if (!format) {
    const { $schema: _dropped, ...schema } = z.toJSONSchema(replySchema(spec)) as Record<string, unknown>;
    format = {
      type: 'json_schema',
      json_schema: { name: `tribunal_${spec.shape.replace('-', '_')}`, schema, strict: true },
    };
    FORMATS.set(key, format);
  }
  return format;
}

/** Response formats by shape and bounds (a handful per deployment). */
const FORMATS = new Map<string, JsonSchemaResponseFormat>();

/** Whether a 400 message says the provider does not accept `response_format` / `json_schema`. */
export function rejectsJsonSchema(status: number | undefined, message: string): boolean {
  return status === 400 && /response_format|json_schema|structured output|json schema/i.test(message);
}

/** A reply format in chat completions' shape (`response_format`): a JSON schema's fields under `json_schema`. */
export type NestedFormat<J extends object> =
  { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; json_schema: J };

/** A reply format in the Responses API's shape (`text.format`, the engine's `OutputFormat`): the fields beside `type`. */
export type FlatFormat<J extends object> = { type: 'text' } | { type: 'json_object' } | ({ type: 'json_schema' } & J);

/** Chat completions' nested format in the Responses API's flat shape; `text` and `json_object` as they are. */
export function flatFormat<J extends object>(format: NestedFormat<J>): FlatFormat<J> {
  return format.type === 'json_schema' ? { type: format.type, ...format.json_schema } : format;
}

/** A flat format (the Responses API's, the engine's) in chat completions' nested shape: {@link flatFormat} undone. */
export function nestedFormat(
  format: OutputFormat,
): NestedFormat<Omit<Extract<OutputFormat, { type: 'json_schema' }>, 'type'>> {
  if (format.type !== 'json_schema') return format;
  const { type, ...fields } = format;
  return { type, json_schema: fields };
}
