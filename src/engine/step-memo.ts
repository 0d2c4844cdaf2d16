/**
 * @module
 * A method's `step` answered once per order state. A method's state is a value (`reduce`, `applyRaw` and
 * `truncate` return a new object for a change and never change one they were given), so `step` for the same
 * config, task view and state object always answers the same. The core asks it several times per result:
 * which calls are ready, whether there is an outcome, which pending call a result answers; and every order
 * a result did not change is asked again for each new evaluation state. Each answer builds the order's
 * prompts (ChatEval renders its templates over the whole chat history), CPU spent again for nothing.
 * Remembered by the state object, weakly: a state no longer referenced takes its answer with it.
 */
import type { AnyMethod, StepResult } from './method.js';
import type { JudgedTask } from './judged.js';

/** The one answer remembered per method state object, with what it was asked with. */
interface Remembered {
  method: AnyMethod;
  config: unknown;
  task: JudgedTask;
  answer: StepResult;
}
const remembered = new WeakMap<object, Remembered>();

/**
 * `method.step(config, task, m)`, answered from memory when the same method, config object and task view
 * (src/engine/orders.ts `taskFor` keeps one per task and order) asked it for the same state object `m` before.
 * A state that is no object (no method has one) is stepped every time. The answer is shared: read it, never
 * change it.
 */
export function stepOf(
  method: AnyMethod,
  config: Parameters<AnyMethod['step']>[0],
  task: JudgedTask,
  m: unknown,
): StepResult {
  if (typeof m !== 'object' || m === null) return method.step(config, task, m);
  const hit = remembered.get(m);
  if (hit && hit.method === method && hit.config === config && hit.task === task) return hit.answer;
  const answer = method.step(config, task, m);
  remembered.set(m, { method, config, task, answer });
  return answer;
}
