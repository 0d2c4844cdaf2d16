/**
 * @module
 * An evaluation that is about to end, and the guard every statement of its transaction carries. Apart
 * from ./on-end.ts (which lists the effects) so that an effect's own module can import these without an
 * import cycle through the list that imports it.
 */
import type { EvaluationError } from './live-events.js';
import type { TerminalStatus } from './status.js';
import { sqlMayBecome } from './status.js';

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

/** Statements whose rows an `AFTER_END` follow-up hands on (webhook deliveries), marked by {@link handOn}. */
const HANDED_ON = new WeakSet<D1PreparedStatement>();

/**
 * Marks statements whose written rows an `AFTER_END` follow-up hands on (src/ending.ts): only their
 * changes make the final write run the follow-ups. @returns the same statements.
 */
export function handOn(statements: D1PreparedStatement[]): D1PreparedStatement[] {
  for (const s of statements) HANDED_ON.add(s);
  return statements;
}

/** Whether `statement` was marked with {@link handOn}. */
export function handedOn(statement: D1PreparedStatement): boolean {
  return HANDED_ON.has(statement);
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
