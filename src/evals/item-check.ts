/**
 * @module
 * A run's items checked against the eval's `item_schema` before any call: an item whose field has the wrong type
 * or is missing would render as other text (or none) in every grader's template and be paid for. A JSON Schema
 * compiler (ajv) generates code, which the Workers runtime refuses, so this is a small hand-written subset that
 * refuses only what JSON Schema refuses; a 400 for a valid item is worse than a missed check. Exactly these are
 * checked, at each level and nested through `properties`, `additionalProperties`, `items` and `prefixItems`:
 * - `type` (a name or a list of the seven JSON types; an integer is a number; `nullable: true` admits null);
 * - `enum` and `const`, compared as JSON values (object key order does not matter);
 * - on objects: `required` and `properties` (own keys only), and `additionalProperties` (false, or a schema for
 *   the other keys), skipped when `patternProperties` or `unevaluatedProperties` is present;
 * - on arrays: `prefixItems` per position with `items` for the rest, or an array `items` per position with
 *   `additionalItems` for the rest, or one `items` schema for every element.
 * Anything else is accepted: a level with `$ref`, `$dynamicRef`, `$recursiveRef`, `allOf`, `anyOf`, `oneOf`, `not`
 * or `if` is not checked at all (nor below it), and formats, lengths, ranges, patterns, `contains`, dependencies,
 * boolean schemas and unknown type names are left to the customer's own tooling.
 */
import type { Issue } from '../http/errors.js';

/** At most this many issues are named: a file with one mistake on every line says enough with the first few. */
export const MAX_ITEM_ISSUES = 10;

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

const JSON_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keywords whose meaning this subset does not follow: where one stands, the whole level is accepted. */
const UNCHECKED_LEVEL = ['$ref', '$dynamicRef', '$recursiveRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if'];

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The type names of `expected`, or null when it is not a non-empty list of known names (then not checked). */
function typeNames(expected: unknown): string[] | null {
  const types: unknown[] = Array.isArray(expected) ? expected : [expected];
  if (types.length === 0 || !types.every((t) => JSON_TYPES.has(t))) return null;
  return types as string[];
}

function typeMatches(types: readonly string[], actual: JsonType): boolean {
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

/** JSON equality as JSON Schema defines it for `enum` and `const`: structural, object key order ignored. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ra = asRecord(a);
  const rb = asRecord(b);
  if (!ra || !rb) return false;
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
}

function checkObject(record: Record<string, unknown>, s: Record<string, unknown>, path: string, issues: Issue[]) {
  const props = asRecord(s.properties) ?? {};
  if (Array.isArray(s.required)) {
    for (const key of s.required) {
      if (typeof key === 'string' && !Object.hasOwn(record, key))
        issues.push({ path: `${path}.${key}`, message: 'required' });
    }
  }
  // Keys a pattern matches (or that an unevaluated-keys rule governs) are not "additional": not followed here.
  const additionalChecked = !('patternProperties' in s) && !('unevaluatedProperties' in s);
  for (const [key, v] of Object.entries(record)) {
    if (Object.hasOwn(props, key)) check(v, props[key], `${path}.${key}`, issues);
    else if (!additionalChecked) continue;
    else if (s.additionalProperties === false)
      issues.push({ path: `${path}.${key}`, message: 'not in the item schema' });
    else check(v, s.additionalProperties, `${path}.${key}`, issues);
  }
}

function checkArray(value: readonly unknown[], s: Record<string, unknown>, path: string, issues: Issue[]) {
  // Draft 2020-12: `prefixItems` by position, `items` the rest; before it, an array `items` by position and
  // `additionalItems` the rest. Only schemas are followed (a boolean `false` tail is not checked).
  const [prefix, rest]: [unknown[], unknown] = Array.isArray(s.prefixItems)
    ? [s.prefixItems, s.items]
    : Array.isArray(s.items)
      ? [s.items, s.additionalItems]
      : [[], s.items];
  for (const [i, v] of value.entries()) check(v, i < prefix.length ? prefix[i] : rest, `${path}.${String(i)}`, issues);
}

function check(value: unknown, schema: unknown, path: string, issues: Issue[]): void {
  const s = asRecord(schema);
  if (!s || issues.length >= MAX_ITEM_ISSUES) return;
  if (UNCHECKED_LEVEL.some((k) => k in s)) return;
  const actual = typeOf(value);
  // `nullable` (OpenAPI 3.0) is not JSON Schema, but a schema that says it means null to be fine.
  if (actual === 'null' && s.nullable === true) return;
  const types = typeNames(s.type);
  if (types && !typeMatches(types, actual)) {
    issues.push({ path, message: `expected ${types.join(' or ')}, got ${actual}` });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value))) {
    issues.push({ path, message: `expected one of ${JSON.stringify(s.enum)}` });
    return;
  }
  if ('const' in s && !jsonEqual(s.const, value)) {
    issues.push({ path, message: `expected ${JSON.stringify(s.const)}` });
    return;
  }
  const record = asRecord(value);
  if (record) checkObject(record, s, path, issues);
  else if (Array.isArray(value)) checkArray(value, s, path, issues);
}

/**
 * The issues of the items against `itemSchema` (the eval's `item_schema`; null: anything goes), at most
 * {@link MAX_ITEM_ISSUES}; `pathOf(i)` is where item `i` stands (`data_source.source.content.3.item`).
 */
export function itemIssues(
  items: readonly unknown[],
  itemSchema: Record<string, unknown> | null,
  pathOf: (i: number) => string,
): Issue[] {
  const issues: Issue[] = [];
  if (itemSchema === null) return issues;
  for (const [i, item] of items.entries()) {
    if (issues.length >= MAX_ITEM_ISSUES) break;
    check(item, itemSchema, pathOf(i), issues);
  }
  return issues.slice(0, MAX_ITEM_ISSUES);
}
