/**
 * @module
 * From an incoming JSON document to a task: JSON Pointers (RFC 6901), a small template language, and
 * filter conditions. Pure: no I/O, no platform import.
 *
 * **Rules** (one per task field or metadata key):
 * - a JSON Pointer string, e.g. `"/pull_request/title"` or `"/outputs/0/text"` (`~1` is `/`, `~0` is `~`);
 * - `{ "template": "Q: {{/issue/title}}\n\n{{/issue/body}}" }`: text with `{{<pointer>}}` placeholders
 *   (a pointer in a placeholder cannot contain `}`); strings are inserted as they are, numbers and
 *   booleans as text, objects and arrays as JSON;
 * - `{ "value": <any JSON> }`: a constant (e.g. a pointwise task's `aspect`).
 * A pointer (in a rule or a placeholder) that is missing from the document fails the field. A text
 * field takes a string; a number or boolean becomes text; null, an object or an array fails it.
 *
 * **Filter**: a list of conditions that must all hold, each `{ "pointer": …, "equals": <JSON> }`
 * (deep equality), `{ "pointer": …, "in": [<JSON>, …] }` (equal to one of them) or
 * `{ "pointer": …, "exists": true | false }`. A request that does not pass is acknowledged and ignored.
 */
import { canonicalJson } from '../http/request-hash.js';

/** A mapping rule: a JSON Pointer, a template, or a constant. */
export type MappingRule = string | { template: string } | { value: unknown };

/** One filter condition. */
export type FilterCondition =
  { pointer: string; equals: unknown } | { pointer: string; in: unknown[] } | { pointer: string; exists: boolean };

/** Why a rule could not produce a value: the field it was for and what went wrong. */
export class MappingError extends Error {
  constructor(
    /** The field, e.g. `task.answerB` or `metadata.commit`. */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'MappingError';
  }
}

/** A JSON Pointer: empty (the whole document) or `/`-separated tokens with `~0`/`~1` escapes only. */
export const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** The value at `pointer` in `doc` (RFC 6901), or `{ found: false }`. */
export function resolvePointer(doc: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (!POINTER.test(pointer)) return { found: false };
  if (pointer === '') return { found: true, value: doc };
  let here: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(here)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= here.length) return { found: false };
      here = here[Number(token)];
    } else if (typeof here === 'object' && here !== null && Object.hasOwn(here, token)) {
      here = (here as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: here };
}

/** `{{<pointer>}}` placeholders of a template. */
const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The pointers a template refers to (for validation when a trigger is created). */
export function templatePointers(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The value of `rule` for `doc`. @throws MappingError naming `field`. */
export function applyRule(doc: unknown, rule: MappingRule, field: string): unknown {
  if (typeof rule === 'string') {
    const r = resolvePointer(doc, rule);
    if (!r.found) throw new MappingError(field, `${rule || '(the document)'} is missing from the payload`);
    return r.value;
  }
  if ('template' in rule) {
    return rule.template.replace(PLACEHOLDER, (_m, pointer: string) => {
      const r = resolvePointer(doc, pointer);
      if (!r.found) throw new MappingError(field, `${pointer} (in its template) is missing from the payload`);
      return asText(r.value);
    });
  }
  return rule.value;
}

/** The value of a text rule: a string, or a number/boolean as text. @throws MappingError. */
export function applyTextRule(doc: unknown, rule: MappingRule, field: string): string {
  const v = applyRule(doc, rule, field);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new MappingError(
    field,
    `expected text, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v}`,
  );
}

/**
 * Whether `doc` passes every condition; on the first that fails, a short reason naming its pointer
 * (returned to the sender with the 200 that acknowledges an ignored request).
 */
export function passesFilter(
  doc: unknown,
  filter: readonly FilterCondition[],
): { pass: true } | { pass: false; reason: string } {
  for (const c of filter) {
    const r = resolvePointer(doc, c.pointer);
    if ('exists' in c) {
      if (r.found !== c.exists)
        return { pass: false, reason: `${c.pointer} ${c.exists ? 'is missing' : 'is present'}` };
    } else if (!r.found) {
      return { pass: false, reason: `${c.pointer} is missing` };
    } else if ('equals' in c) {
      if (canonicalJson(r.value) !== canonicalJson(c.equals))
        return { pass: false, reason: `${c.pointer} is not ${canonicalJson(c.equals)}` };
    } else if (!c.in.some((x) => canonicalJson(x) === canonicalJson(r.value))) {
      return { pass: false, reason: `${c.pointer} is none of the listed values` };
    }
  }
  return { pass: true };
}
