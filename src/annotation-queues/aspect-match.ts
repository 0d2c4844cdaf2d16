/**
 * @module
 * Whether an evaluation's verdict answers the question a queue's rubric version asks, so that it may stand as the
 * judge's label of the evaluation's item. Only exact evidence counts, never words in common: "never toxic" names
 * toxicity and asks the opposite, "accurate" asks what `accuracy` scores. A verdict that fails is queued for
 * people with no judge label, so agreement never compares two questions (or one question and its inverse).
 */
import type { RubricContent } from '../engine/rubric.js';
import type { Task } from '../engine/task.js';
import type { RubricStamp } from '../rubrics/resolve.js';

/** The rubric version a queue labels by. */
export interface QueueRubric {
  /** The rubric (`rb_…`). */
  id: string;
  version: number;
  /** sha-256 hex of the version's content. */
  hash: string;
  /** sha-256 hex of the content with its stored auto-CoT steps (what later evaluations record), or null. */
  stepsHash: string | null;
  content: RubricContent;
}

/** What an evaluation judged: its task as stored, and the rubric it recorded (null: it judged by none). */
export interface JudgedBy {
  task: Task;
  rubric: RubricStamp | null;
}

/** The same text but for leading and trailing white space (case counts: it is the judge's prompt). */
const same = (a: string | undefined, b: string) => a !== undefined && a.trim() === b.trim();

/**
 * Whether the verdict of the evaluation `judged` is a verdict on what `rubric` asks:
 * - judged by a rubric: yes when it is this version (same id and version), or the same content (its hash is the
 *   version's, with or without the version's stored steps); another rubric, or another version, asks something
 *   else as far as anyone can tell;
 * - judged by none, a pointwise `aspect`: yes when the aspect's description is the criteria of the rubric (one
 *   without aspects) word for word;
 * - judged by none, pointwise `aspects`: yes when the rubric has aspects of the same names and each aspect's
 *   description is the criteria of the rubric's aspect of its name word for word;
 * - anything else (no rubric and no described aspect, a pairwise task judged by none): no.
 */
export function judgesRubricQuestion(judged: JudgedBy, rubric: QueueRubric): boolean {
  const stamp = judged.rubric;
  if (stamp !== null)
    return (
      (stamp.id === rubric.id && stamp.version === rubric.version) ||
      stamp.hash === rubric.hash ||
      stamp.hash === rubric.stepsHash
    );
  const { task } = judged;
  if (task.kind !== 'pointwise') return false;
  const { criteria, aspects } = rubric.content;
  if (task.aspect !== undefined) return aspects === undefined && same(task.aspect.description, criteria);
  if (task.aspects === undefined || aspects === undefined || task.aspects.length !== aspects.length) return false;
  return task.aspects.every((a) => {
    const theirs = aspects.find((r) => r.name === a.name);
    return theirs !== undefined && same(a.description, theirs.criteria);
  });
}
