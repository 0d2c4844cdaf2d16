/**
 * @module
 * A run's items checked against the eval's `item_schema` before any call: an item whose field has the wrong type
 * or is missing would render as other text (or none) in every grader's template and be paid for. The keywords
 * that decide what a template reads are checked (`type`, `required`, `properties`, `items`, `enum`, `const`,
 * `additionalProperties: false`); others (formats, lengths, patterns, `$ref`, combinators) are left to the
 * customer's own tooling. A JSON Schema compiler (ajv) generates code, which the Workers runtime refuses.
 */
import type { Issue } from '../http/errors.js';

/** At most this many issues are named: a file with one mistake on every line says enough with the first few. */
export const MAX_ITEM_ISSUES = 10;

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

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

function typeMatches(expected: unknown, actual: JsonType): boolean {
  const types = Array.isArray(expected) ? expected : [expected];
  if (!types.every((t) => typeof t === 'string')) return true;
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

function check(value: unknown, schema: unknown, path: string, issues: Issue[]): void {
  const s = asRecord(schema);
  if (!s || issues.length >= MAX_ITEM_ISSUES) return;
  const actual = typeOf(value);
  if (s.type !== undefined && !typeMatches(s.type, actual)) {
    // typeMatches passed a `type` of strings only.
    const types: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
    const expected = types.filter((t): t is string => typeof t === 'string').join(' or ');
    issues.push({ path, message: `expected ${expected}, got ${actual}` });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    issues.push({ path, message: `expected one of ${JSON.stringify(s.enum)}` });
    return;
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) {
    issues.push({ path, message: `expected ${JSON.stringify(s.const)}` });
    return;
  }
  const record = asRecord(value);
  if (record) {
    const props = asRecord(s.properties) ?? {};
    if (Array.isArray(s.required)) {
      for (const key of s.required) {
        if (typeof key === 'string' && !(key in record)) issues.push({ path: `${path}.${key}`, message: 'required' });
      }
    }
    for (const [key, v] of Object.entries(record)) {
      if (key in props) check(v, props[key], `${path}.${key}`, issues);
      else if (s.additionalProperties === false)
        issues.push({ path: `${path}.${key}`, message: 'not in the item schema' });
      else check(v, s.additionalProperties, `${path}.${key}`, issues);
    }
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) check(v, s.items, `${path}.${String(i)}`, issues);
  }
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
