/**
 * @module
 * "Did you mean": the one helper the API and its CLIs use to offer the right spelling of a mistyped name, be
 * it an enum value (`tier: "Flex"`), an unknown field (`answer_a`, `taks`), a rubric tag (`prdo`) or a command
 * (`tenant:create`). The distance is the engine's (src/engine/suggest.ts), whose own messages (presets, config
 * keys) use it too; the engine cannot import the kernel, so the kernel builds on it.
 */
import { closest } from '../engine/suggest.js';

/** ` (did you mean "x"?)` for the candidate closest to `word`, or '' when none is close (or `word` is one). */
export function suggestion(word: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  if (list.includes(word)) return '';
  const c = closest(word, list);
  return c === undefined ? '' : ` (did you mean "${c}"?)`;
}

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
  return suggestion(key, missing);
}

/** The suggestion for a value outside an enum (`invalid_value`): the sent text against the allowed values. */
export function valueSuggestion(issue: SuggestableIssue, raw: unknown): string {
  const sent = valueAt(raw, issue.path);
  if (issue.code !== 'invalid_value' || typeof sent !== 'string' || !issue.values) return '';
  return suggestion(
    sent,
    issue.values.filter((v): v is string => typeof v === 'string'),
  );
}
