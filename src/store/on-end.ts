/**
 * @module
 * What must happen, in the same D1 transaction, when an evaluation ends — whoever ends it (the Durable
 * Object's final write, a cancel, the dead-letter consumer). Each effect returns statements that
 * {@link ./results.ts} runs in ONE `batch()` just BEFORE the guarded status update; every statement must be
 * guarded with {@link endingGuard}, so it takes effect exactly when the status update does: once per
 * evaluation, never again on a repeated (idempotent) write, never for a row another writer ended first.
 *
 * Add an effect (webhook events into the outbox, batch progress counters, …) by appending to
 * {@link END_EFFECTS}.
 */
import type { EvaluationError } from '../pipeline/events.js';
import type { TerminalStatus } from '../pipeline/status.js';
import { sqlMayBecome } from '../pipeline/status.js';

/**
 * An evaluation that is about to end. Times are epoch ms. Anything else of the row (tenant, batch, …) an
 * effect reads in SQL from `evaluations`, so no writer has to load it first.
 */
export interface Ending {
  id: string;
  status: TerminalStatus;
  error: EvaluationError | null;
  now: number;
}

/** One effect of an ending: statements for the ending's transaction, each guarded by {@link endingGuard}. */
export type EndEffect = (db: D1Database, ending: Ending) => D1PreparedStatement[];

/**
 * SQL condition (binds the evaluation id once) that holds while the row can still be ended with `status`:
 * true in the transaction that ends it, false in every repeat and after another writer ended it.
 */
export function endingGuard(status: TerminalStatus): string {
  return `EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND ${sqlMayBecome(status)})`;
}

/** Every effect of an ending, in order. */
export const END_EFFECTS: readonly EndEffect[] = [];

/** The statements of every effect of `ending`, to run before the guarded status update. */
export function endEffectStatements(db: D1Database, ending: Ending): D1PreparedStatement[] {
  return END_EFFECTS.flatMap((effect) => effect(db, ending));
}
