/**
 * @module
 * The orders of an evaluation: the method states the protocol core keeps side by side, each with its own
 * call-id prefix and its own view of the task.
 * - `main`: the one run (no prefix);
 * - `ab` / `ba`: both presentation orders of a calibrated pairwise task (`ab/`, `ba/`: the answers swapped);
 * - `aspect<i>`: aspect i's own run when a pointwise task has several aspects the method scores one at a
 *   time (`aspect<i>/`, ./aspects.ts).
 */
import { aspectIndexOf, aspectKey, aspectOfCall } from './aspects.js';
import type { AnyTask, JudgedTask } from './judged.js';
import { aspectTask, judgedView } from './judged.js';
import type { RubricContent } from './rubric.js';
import { swapAnswers } from './task.js';

/** An order's key (see the module notes). */
export type OrderKey = 'main' | 'ab' | 'ba' | `aspect${number}`;

/** The call-id prefix of an order: none for `main`, `<key>/` else. */
export function prefixOf(key: OrderKey): string {
  return key === 'main' ? '' : `${key}/`;
}

/** The order a base id belongs to, from its prefix: `ab/`, `ba/`, `aspect<i>/`, or none for the single `main` order. */
export function orderKeyOf(base: string): OrderKey {
  if (base.startsWith('ab/')) return 'ab';
  if (base.startsWith('ba/')) return 'ba';
  const i = aspectOfCall(base);
  return i !== undefined ? aspectKey(i) : 'main';
}

/** Judged views by task object, rubric (or none) and order key: the same view for every step of a state. */
const VIEWS = new WeakMap<object, WeakMap<object, Map<OrderKey, JudgedTask>>>();
const NO_RUBRIC = {};

/** The judged task an order's method state sees: swapped for `ba`, one aspect for `aspect<i>` (./judged.ts). */
function judgedFor(task: AnyTask, rubric: RubricContent | undefined, key: OrderKey): JudgedTask {
  if (key === 'ba' && task.kind === 'pairwise') return judgedView(swapAnswers(task), rubric);
  const view = judgedView(task, rubric);
  const i = aspectIndexOf(key);
  return i !== undefined && view.kind === 'pointwise' ? aspectTask(view, i) : view;
}

/**
 * The task as an order's method state sees it, computed once per task object, rubric and order (the state's
 * task and rubric never change, so every step of a state shares the view).
 * @throws EngineInputError for a task or rubric that cannot be judged (see `judgedView`).
 */
export function taskFor(state: { task: AnyTask; rubric?: RubricContent | undefined }, key: OrderKey): JudgedTask {
  let byRubric = VIEWS.get(state.task);
  if (!byRubric) VIEWS.set(state.task, (byRubric = new WeakMap()));
  let byKey = byRubric.get(state.rubric ?? NO_RUBRIC);
  if (!byKey) byRubric.set(state.rubric ?? NO_RUBRIC, (byKey = new Map<OrderKey, JudgedTask>()));
  let view = byKey.get(key);
  if (!view) byKey.set(key, (view = judgedFor(state.task, state.rubric, key)));
  return view;
}
