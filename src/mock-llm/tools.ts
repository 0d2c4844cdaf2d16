/**
 * @module
 * Function calling in the mock: a request whose `tool_choice` names a function (or that offers exactly
 * one function with `tool_choice: "required"`) gets one `tool_calls` entry whose arguments follow the
 * function's JSON-schema parameters, chosen deterministically from the prompt. Judge libraries that
 * classify through a forced tool call (autoevals' `select_choice`) run against the mock this way; the
 * bench compares them with Tribunal against the same server (bench/peers.ts).
 */
import { hash53 } from '../llm/hash53.js';

/** A tool call as the OpenAI wire format carries it (`arguments` is a JSON string). */
export interface MockToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

interface JsonSchema {
  type?: unknown;
  enum?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: unknown;
  items?: JsonSchema;
  minimum?: unknown;
  maximum?: unknown;
}

interface FunctionTool {
  type: 'function';
  function: { name: string; parameters?: JsonSchema };
}

function functionsOf(tools: unknown): FunctionTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(
    (t): t is FunctionTool =>
      typeof t === 'object' &&
      t !== null &&
      (t as { type?: unknown }).type === 'function' &&
      typeof (t as FunctionTool).function.name === 'string',
  );
}

/** A value that fits `schema`, picked by `h` (enums, numbers within bounds, strings, arrays, objects). */
function valueFor(schema: JsonSchema | undefined, h: number, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[h % schema.enum.length] as unknown;
  switch (schema.type) {
    case 'string':
      return 'Both answers were compared on accuracy and helpfulness.';
    case 'number':
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 10;
      return Math.min(max, Math.max(min, min + (h % (Math.floor(max - min) + 1))));
    }
    case 'boolean':
      return h % 2 === 0;
    case 'array':
      return [valueFor(schema.items, h, depth + 1)];
    default: {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {}))
        out[key] = valueFor(sub, hash53(key, h), depth + 1);
      return out;
    }
  }
}

/**
 * The tool call a request forces, or undefined when it forces none (then the mock answers with text).
 * @param tools the request's `tools`
 * @param toolChoice the request's `tool_choice`
 * @param key a deterministic key of the request (model, seed and messages): same key, same arguments
 */
export function forcedToolCall(tools: unknown, toolChoice: unknown, key: string): MockToolCall | undefined {
  const functions = functionsOf(tools);
  let chosen: FunctionTool | undefined;
  if (typeof toolChoice === 'object' && toolChoice !== null) {
    const name = (toolChoice as { function?: { name?: unknown } }).function?.name;
    chosen = functions.find((f) => f.function.name === name);
  } else if (toolChoice === 'required' && functions.length === 1) {
    chosen = functions[0];
  }
  if (!chosen) return undefined;
  const h = hash53(key);
  return {
    id: `call_mock_${h.toString(16)}`,
    type: 'function',
    function: {
      name: chosen.function.name,
      arguments: JSON.stringify(valueFor(chosen.function.parameters ?? { type: 'object' }, h)),
    },
  };
}
