/**
 * @module
 * Structured output: the `response_format` sent for `json` parsers, built from zod schemas with
 * `z.toJSONSchema`, and recognition of a provider's refusal of it.
 */
import { z } from 'zod';
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
