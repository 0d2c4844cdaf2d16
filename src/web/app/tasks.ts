/**
 * @module
 * Tasks this tab submitted, by evaluation id: the API returns verdicts and transcripts but not the task
 * itself, so the evaluation page shows the question and answers only for evaluations submitted here.
 * sessionStorage, like the key (./key.ts): nothing outlives the tab.
 */
import type { Task } from './types.js';

const PREFIX = 'tribunal.task.';

/** Remembers the task of an evaluation submitted from this tab. */
export function rememberTask(evaluationId: string, task: Task): void {
  try {
    window.sessionStorage.setItem(PREFIX + evaluationId, JSON.stringify(task));
  } catch {
    // Storage full or blocked: the page simply shows no task.
  }
}

/** The task of an evaluation submitted from this tab, or null. */
export function recallTask(evaluationId: string): Task | null {
  try {
    const raw = window.sessionStorage.getItem(PREFIX + evaluationId);
    return raw === null ? null : (JSON.parse(raw) as Task);
  } catch {
    return null;
  }
}
