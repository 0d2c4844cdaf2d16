/**
 * @module
 * The lifecycle status of an evaluation, in one place: the enum (and its zod schema, which the API and
 * OpenAPI reuse), the allowed transitions, the terminal type guard, and the SQL guards every D1 status
 * write uses. D1's `evaluations.status` CHECK constraint (migrations/0001_init.sql) lists the same
 * values; tests/worker/pipeline-status.test.ts proves they agree.
 *
 * Writers: the Durable Object (start, progress, end, final write: src/evaluations/job-rows.ts), the API's
 * cancel (through the object), the dead-letter consumer (through the object, or `markEnded` when the
 * object is unreachable). Every D1 write is guarded by {@link sqlMayBecome} or {@link SQL_NOT_ENDED},
 * every change of the object's own copy is checked with {@link canTransition}.
 */
import { z } from 'zod';

/** Every status, in lifecycle order. */
export const EVALUATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** Lifecycle status of an evaluation (the `evaluations.status` column). */
export const EvaluationStatusSchema = z
  .enum(EVALUATION_STATUSES)
  .describe('`queued` → `running` → `succeeded` | `failed` | `cancelled` (terminal: nothing changes after).');

/** Lifecycle status of an evaluation. */
export type EvaluationStatus = z.infer<typeof EvaluationStatusSchema>;

/** A status after which nothing changes. */
export type TerminalStatus = Extract<EvaluationStatus, 'succeeded' | 'failed' | 'cancelled'>;

/** A status an evaluation can be ended with from outside its protocol (cancel, pipeline failure). */
export type EndStatus = Extract<TerminalStatus, 'failed' | 'cancelled'>;

/** Statuses after which nothing changes. */
export const TERMINAL_STATUSES: readonly TerminalStatus[] = ['succeeded', 'failed', 'cancelled'];

/** True for `succeeded`, `failed` and `cancelled`. */
export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * Where each status may go next. Why `queued` may end directly, even `succeeded`: the object marks D1
 * `running` off the critical path (best effort), so the final write can find the row still `queued`.
 * `running → running` is the progress write refreshing a running row. Terminal statuses go nowhere.
 */
export const TRANSITIONS: { readonly [S in EvaluationStatus]: readonly EvaluationStatus[] } = {
  queued: ['running', 'succeeded', 'failed', 'cancelled'],
  running: ['running', 'succeeded', 'failed', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** True when an evaluation in status `from` may move to `to` (see {@link TRANSITIONS}). */
export function canTransition(from: EvaluationStatus, to: EvaluationStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The statuses from which `to` may be reached, in lifecycle order. */
export function sourcesOf(to: EvaluationStatus): EvaluationStatus[] {
  return EVALUATION_STATUSES.filter((from) => canTransition(from, to));
}

/** `status IN ('a', 'b')` for a literal list of statuses (values come from the enum, never from input). */
function sqlStatusIn(statuses: readonly EvaluationStatus[], column: string): string {
  if (statuses.length === 0) return '0';
  return `${column} IN (${statuses.map((s) => `'${s}'`).join(', ')})`;
}

/**
 * SQL guard of a D1 write that sets the status to `to`: true exactly for the rows whose current
 * status may move there, e.g. `status IN ('queued', 'running')`. Use in the `WHERE` of every status write.
 * @param column the status column, default `status` (qualify it in joins).
 */
export function sqlMayBecome(to: EvaluationStatus, column = 'status'): string {
  return sqlStatusIn(sourcesOf(to), column);
}

/**
 * SQL that holds for a row that has not ended, e.g. `status IN ('queued', 'running')`.
 * @param column the status column, default `status` (qualify it in joins).
 */
export function sqlNotEnded(column = 'status'): string {
  return sqlStatusIn(
    EVALUATION_STATUSES.filter((s) => !isTerminal(s)),
    column,
  );
}

/** SQL guard of writes that only touch a row that has not ended (progress, the sweeper's touch, rows of the final write). */
export const SQL_NOT_ENDED = sqlNotEnded();
