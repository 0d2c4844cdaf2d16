/**
 * @module
 * "Did you mean" in a validation's issues: an enum value (`tier: "Flex"`) or an unknown field (`answer_a`,
 * `taks`). The suggestion itself is the engine's `didYouMean` (src/engine/suggest.ts), which the engine's own
 * messages (presets, config keys), rubric tags (`prdo`) and the admin CLI's commands (`tenant:create`) use
 * too; this file finds, in a zod validation, which word to check against which names.
 */
import { didYouMean } from '../engine/suggest.js';

/** The zod issue fields read here. */
export interface SuggestableIssue {
  code: string;
  path: readonly PropertyKey[];
  values?: readonly unknown[];
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/** The value at `path` in `root`, or undefined. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let here = root;
  for (const p of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[p];
  }
  return here;
}

/**
 * The suggestion for an unknown key of the object at `path`: among the fields of that object that the same
 * validation found missing (a typo'd required field is both unknown and missing: `answer_a` and `answerA`).
 * @param issues every issue of the validation; @param raw the value validated, when known.
 */
export function unknownKeySuggestion(
  key: string,
  path: readonly PropertyKey[],
  issues: readonly SuggestableIssue[],
  raw: unknown,
): string {
  const parent = valueAt(raw, path);
  const missing = issues.flatMap((i) => {
    const name = i.path.at(-1);
    if (i.code !== 'invalid_type' || typeof name !== 'string' || !samePath(i.path.slice(0, -1), path)) return [];
    return typeof parent === 'object' && parent !== null && name in parent ? [] : [name];
  });
  return didYouMean(key, missing);
}

/** The suggestion for a value outside an enum (`invalid_value`): the sent text against the allowed values. */
export function valueSuggestion(issue: SuggestableIssue, raw: unknown): string {
  const sent = valueAt(raw, issue.path);
  if (issue.code !== 'invalid_value' || typeof sent !== 'string' || !issue.values) return '';
  return didYouMean(
    sent,
    issue.values.filter((v): v is string => typeof v === 'string'),
  );
}
