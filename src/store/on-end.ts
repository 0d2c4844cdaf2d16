/**
 * @module
 * What must happen, in the same D1 transaction, when an evaluation ends — whoever ends it (the Durable
 * Object's final write, a cancel, the dead-letter consumer). Each effect returns statements that
 * {@link ./results.ts} runs in ONE `batch()` just BEFORE the guarded status update; every statement must be
 * guarded with {@link endingGuard}, so it takes effect exactly when the status update does: once per
 * evaluation, never again on a repeated (idempotent) write, never for a row another writer ended first.
 *
 * Add an effect (webhook events into the outbox, batch progress counters, …) by appending to
 * {@link END_EFFECTS}; its module imports the contract from ./ending.ts.
 */
import { batchProgressEffect } from '../batches/progress.js';
import type { EndEffect, Ending } from './ending.js';

// The contract lives in ./ending.ts (an effect's module imports it from there: no import cycle).
export { endingGuard } from './ending.js';
export type { EndEffect, Ending } from './ending.js';

/** Every effect of an ending, in order. */
export const END_EFFECTS: readonly EndEffect[] = [
  // Batch progress counters and the batch's completion (src/batches/progress.ts).
  batchProgressEffect,
];

/** The statements of every effect of `ending`, to run before the guarded status update. */
export function endEffectStatements(db: D1Database, ending: Ending): D1PreparedStatement[] {
  return END_EFFECTS.flatMap((effect) => effect(db, ending));
}
