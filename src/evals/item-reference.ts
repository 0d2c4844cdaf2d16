/**
 * @module
 * A sampler's `input_messages` of type `item_reference` (`"item.<field>"`: each item's messages are in that
 * field) checked when the run is created, so no provider call is made with an empty message list:
 * - against the eval's `item_schema`, at `data_source.input_messages.item_reference`: the reference must read
 *   `item.<path>`, each key on the path must be among its level's `properties` (where the level lists any), and the
 *   field's declared `type`, when it gives one, must admit an array;
 * - against each line (all are in hand at create): the value must be a non-empty array of messages whose
 *   `content` is a string (the sampler reads text; other roles than `system` and `assistant` are sent as `user`),
 *   named by line and field.
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

/** Why one item's referenced value is no message list the sampler can send, or null. */
function valueProblem(value: unknown): string | null {
  if (value === undefined || value === null) return 'missing: it must hold the messages to send';
  if (!Array.isArray(value)) return 'must be an array of messages ({role, content})';
  if (value.length === 0) return 'an empty list: there is nothing to send';
  const bad = value.findIndex(
    (m: unknown) => typeof m !== 'object' || m === null || typeof (m as { content?: unknown }).content !== 'string',
  );
  return bad < 0 ? null : `message ${String(bad)} has no string content (the sampler sends text)`;
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
    if (problem) issues.push({ path: `${where(i)}.${ref.path.join('.')}`, message: problem });
    if (issues.length >= MAX_ITEM_ISSUES) break;
  }
  return issues;
}
