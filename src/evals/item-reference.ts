/**
 * @module
 * A sampler's `input_messages` of type `item_reference` (`"item.<field>"`: each item's messages are in that
 * field) checked when the run is created, so no provider call is made with an empty message list:
 * - against the eval's `item_schema`, at `data_source.input_messages.item_reference`: the reference must read
 *   `item.<path>`, each key on the path must be among its level's `properties` (where the level lists any), and the
 *   field's declared `type`, when it gives one, must admit an array;
 * - against each line (all are in hand at create): the value must be a non-empty array of messages whose
 *   `content` is a string or content parts with text (`input_text`, `output_text`, `text`: the sampler sends
 *   text; other roles than `system` and `assistant` are sent as `user`), named by line and field (and part).
 * Not decidable from the schema alone, and so left to the lines: a level without `properties` (any field), a field
 * not in `required`, or a field with no `type`. Pure.
 */
import type { Issue } from '../http/errors.js';
import { propertiesOf } from './grader-check.js';
import { MAX_ITEM_ISSUES } from './item-check.js';
import { parseRef, resolveRef } from './templates.js';

/** Where a 400 about the reference itself points. */
export const REFERENCE_PATH = 'data_source.input_messages.item_reference';

/** Whether a schema's `type` (a name, a list, or none) admits an array. */
function admitsArray(schema: unknown): boolean {
  const type = typeof schema === 'object' && schema !== null ? (schema as { type?: unknown }).type : undefined;
  if (type === undefined) return true;
  return Array.isArray(type) ? type.includes('array') : type === 'array';
}

/** The issue of an `item_reference` the item schema refutes, or null. */
export function referenceIssue(reference: string, itemSchema: Record<string, unknown> | null): Issue | null {
  const ref = parseRef(reference);
  if (ref.namespace !== 'item' || ref.path.length === 0 || ref.path.some((k) => k === '')) {
    return {
      path: REFERENCE_PATH,
      message: `"${reference}": name the item field that holds the messages, "item.<field>"`,
    };
  }
  let schema: unknown = itemSchema;
  for (const key of ref.path) {
    const props = propertiesOf(schema);
    if (!props) return null;
    if (!(key in props)) {
      return { path: REFERENCE_PATH, message: `"${reference}" names "${key}", which the item schema does not have` };
    }
    schema = props[key];
  }
  return admitsArray(schema)
    ? null
    : { path: REFERENCE_PATH, message: `"${reference}": the item schema types it as no array of messages` };
}

/** The content part types that carry text (the Responses API's input and output text, Chat's text). */
const TEXT_PARTS: ReadonlySet<unknown> = new Set(['input_text', 'output_text', 'text']);

/**
 * A message's `content` as the text the sampler sends: a string as is, or an array of content parts whose
 * texts joined in order by a newline; else the index of the first part with no text (an image, file, audio),
 * or -1 when the content is neither a string nor an array.
 */
export function contentText(content: unknown): { text: string } | { badPart: number } {
  if (typeof content === 'string') return { text: content };
  if (!Array.isArray(content)) return { badPart: -1 };
  const texts: string[] = [];
  for (const [i, part] of content.entries()) {
    const p = part as { type?: unknown; text?: unknown } | null;
    if (typeof p !== 'object' || p === null || !TEXT_PARTS.has(p.type) || typeof p.text !== 'string') {
      return { badPart: i };
    }
    texts.push(p.text);
  }
  return { text: texts.join('\n') };
}

/** What is wrong with one item's referenced value (`at`: the path below the field), or null. */
function valueProblem(value: unknown): { at: string; message: string } | null {
  if (value === undefined || value === null) return { at: '', message: 'missing: it must hold the messages to send' };
  if (!Array.isArray(value)) return { at: '', message: 'must be an array of messages ({role, content})' };
  if (value.length === 0) return { at: '', message: 'an empty list: there is nothing to send' };
  for (const [m, msg] of value.entries()) {
    const content = typeof msg === 'object' && msg !== null ? (msg as { content?: unknown }).content : undefined;
    const got = contentText(content);
    if ('text' in got) continue;
    if (got.badPart < 0) {
      return { at: `.${String(m)}`, message: `message ${String(m)} has no text content (a string or text parts)` };
    }
    const type = (content as { type?: unknown }[])[got.badPart]?.type;
    return {
      at: `.${String(m)}.content.${String(got.badPart)}`,
      message: `message ${String(m)}, content part ${String(got.badPart)}${typeof type === 'string' ? ` ("${type}")` : ''} has no text: the sampler sends text parts only (input_text, output_text, text)`,
    };
  }
  return null;
}

/**
 * The issues of the lines whose referenced field holds no message list, at most {@link MAX_ITEM_ISSUES}.
 * @param where the path naming line `i`'s item (e.g. `data_source.source.content.3.item`).
 */
export function referencedIssues(
  reference: string,
  items: readonly Record<string, unknown>[],
  where: (i: number) => string,
): Issue[] {
  const ref = parseRef(reference);
  const issues: Issue[] = [];
  for (const [i, item] of items.entries()) {
    const problem = valueProblem(resolveRef(ref, { item }));
    if (problem) issues.push({ path: `${where(i)}.${ref.path.join('.')}${problem.at}`, message: problem.message });
    if (issues.length >= MAX_ITEM_ISSUES) break;
  }
  return issues;
}
