/**
 * @module
 * Tasks handed to their evaluations' objects before the rows are written (./task-rows.ts): the object holds the
 * task until it starts (durable-objects/evaluation/held-task.ts), so D1 writes, overwrites and deletes no waiting
 * copy of it. Used for a batch's first items (src/batches/submit.ts).
 */
import { log, messageOf } from '../log/log.js';
import type { EvaluationNamespaceEnv, EvaluationObject } from './stub.js';
import { evaluationStub } from './stub.js';

/**
 * Most tasks one request hands to their objects ({@link holdTasks}): 100, the first items of a batch (those its
 * window starts first). A hold makes its object, which a started item needs anyway; an item far down a large
 * batch would have its object made long before it runs, and every made object costs the POST time: on the
 * local stack (load 14) a 1,000-item POST took 71 s with a hold per item against 6.1 s without, a 100-item one
 * 7.3 s against 0.9 s. Each hold is also one of the invocation's 10,000 subrequests (Workers Paid). Further items
 * wait in `evaluation_tasks` as before.
 */
export const TASK_HOLDS_MAX = 100;

/** Holds in flight at once ({@link holdTasks}): 16. */
const HOLDS_IN_FLIGHT = 16;

/**
 * Hands each task to its evaluation's object before the evaluations' rows are written (the object holds it until
 * it starts), at most {@link TASK_HOLDS_MAX} of them, {@link HOLDS_IN_FLIGHT} at a time.
 * @param rows `[id, task JSON]` of each new evaluation
 * @returns the ids whose object holds the task: their rows need no `evaluation_tasks` copy. A failed hold is
 *   logged and left out, so its task waits in D1 as before.
 */
export async function holdTasks<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  rows: readonly (readonly [string, string])[],
): Promise<Set<string>> {
  const held = new Set<string>();
  const todo = rows.slice(0, TASK_HOLDS_MAX);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const row = todo[next++];
      if (!row) return;
      const [id, task] = row;
      try {
        await evaluationStub(env, id).hold(id, task);
        held.add(id);
      } catch (e) {
        log('warn', 'task.hold_failed', { evaluationId: id, error: messageOf(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HOLDS_IN_FLIGHT, todo.length) }, worker));
  return held;
}
