/**
 * @module
 * Erasing the evaluation's data from the object (`DELETE /v1/evaluations/:id`, data retention; the D1 side
 * is src/evaluations/erase-rows.ts). An evaluation that has not ended is cancelled first (no new LLM calls). When its
 * final write is still owed (calls in flight), the erase waits for it, so the usage of those calls still
 * reaches D1 for billing: it is recorded in storage and done right after the final write lands
 * ({@link eraseIfRequested}, called by final-write.ts). Afterwards only the `ended` marker remains.
 * Idempotent. Every await re-reads the cache (docs/architecture.md, "Interleaving").
 */
import type { EvaluationError } from '../../src/evaluations/live-events.js';
import type { StatusResult } from '../../src/evaluations/rpc.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { EvaluationInstance } from './instance.js';

/** The error of an evaluation deleted before it ended. */
export const DELETED_ERROR: EvaluationError = { code: 'cancelled', message: 'deleted by the caller before it ended' };

/**
 * Erases what the object stores now: everything but the `ended` marker (terminal status only); then its
 * database files are made anew, so no earlier version of a row stays in their free space.
 */
async function eraseNow(instance: EvaluationInstance): Promise<StatusResult> {
  const evaluation = instance.load();
  const marker = instance.store.ended();
  const id = evaluation?.meta.id ?? marker?.id;
  const status = evaluation?.meta.status ?? marker?.status;
  if (id === undefined || status === undefined) return { status: 'not_found' };
  const erased = { id, status, error: null, at: Date.now() };
  instance.store.eraseAll(erased);
  instance.loaded = null;
  await instance.store.dropFiles(erased);
  return { status };
}

/** Runs an erase that waited for the final write (final-write.ts calls it once the write landed). */
export async function eraseIfRequested(instance: EvaluationInstance): Promise<void> {
  if (instance.store.eraseRequested()) await eraseNow(instance);
}

/** How the object cancels an evaluation (`Lifecycle.end`). */
export type EndEvaluation = (id: string, status: 'cancelled', error: EvaluationError) => Promise<StatusResult>;

/**
 * Erases the evaluation `id`: cancels it if it has not ended, then erases now or after the owed final write.
 * @returns the evaluation's terminal status, or `not_found` when D1 has no such evaluation.
 */
export async function erase(instance: EvaluationInstance, end: EndEvaluation, id: string): Promise<StatusResult> {
  const before = instance.load();
  if ((before && !isTerminal(before.meta.status)) || (!before && !instance.store.ended())) {
    const r = await end(id, 'cancelled', DELETED_ERROR);
    if (r.status === 'not_found') return r;
  }
  // The input gate was open during end()'s D1 writes: read the cache again.
  const evaluation = instance.load();
  if (evaluation && evaluation.meta.finalized === 0) {
    instance.store.requestErase(Date.now());
    return { status: evaluation.meta.status };
  }
  return await eraseNow(instance);
}
