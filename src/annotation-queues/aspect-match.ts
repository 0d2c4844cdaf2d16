/**
 * @module
 * Whether an evaluation's verdict answers the question a queue's rubric asks, judged from the task as the
 * evaluation had it (before its `aspect`/`aspects` are left out for the rubric). A verdict on another question
 * (a toxicity score under a helpfulness rubric) is no judge's label of the queue, even on the same scale.
 */
import type { RubricContent } from '../engine/rubric.js';
import type { Task } from '../engine/task.js';

/** Endings dropped so that `helpfulness` is found in "helps", `toxicity` in "toxic", `relevance` in "relevant". */
const SUFFIXES = ['ness', 'ity', 'ful', 'ance', 'ence', 'ing', 'ed', 's'];

/** The stem of one word: lower case, common endings dropped while at least 3 letters remain. */
function stem(word: string): string {
  let w = word.toLowerCase();
  for (const s of SUFFIXES) if (w.endsWith(s) && w.length - s.length >= 3) w = w.slice(0, -s.length);
  return w;
}

/** The words of a text, lower case (letters and digits). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whether `text` names the aspect `name`: every word of the name has its stem at the start of a word of the text. */
function names(text: string, name: string): boolean {
  const have = words(text);
  const want = words(name).map(stem);
  return want.length > 0 && want.every((w) => have.some((h) => h.startsWith(w)));
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether a verdict on `task` (as the evaluation judged it) is a verdict on what `rubric` asks.
 * - No `aspect`/`aspects`: the task was judged on the rubric's terms (the overall score): yes.
 * - `aspects`: yes when the rubric has aspects with the same names (in any order).
 * - `aspect`, rubric without aspects: yes when the rubric's name or criteria name the aspect (each word of its
 *   name, by stem), or the aspect's description, when given, is the rubric's criteria.
 * - `aspect`, rubric with aspects: no (one score is not a verdict on each aspect).
 * @param rubricName the rubric's name (shown in lists), searched beside its criteria.
 */
export function judgesRubricQuestion(task: Task, rubric: RubricContent, rubricName: string): boolean {
  if (task.kind !== 'pointwise') return true;
  if (task.aspects !== undefined) {
    const own = task.aspects.map((a) => a.name.trim().toLowerCase()).sort();
    const theirs = (rubric.aspects ?? []).map((a) => a.name.trim().toLowerCase()).sort();
    return own.length === theirs.length && own.every((n, i) => n === theirs[i]);
  }
  if (task.aspect === undefined) return true;
  if (rubric.aspects !== undefined) return false;
  const { name, description } = task.aspect;
  if (description !== undefined && same(description, rubric.criteria)) return true;
  return names(`${rubricName} ${rubric.criteria}`, name);
}
