/**
 * @module
 * The lifecycle status of an evaluation, in one place: the enum (and its zod schema, which the API and
 * OpenAPI reuse), which statuses are terminal, and the type guard. D1's `evaluations.status` CHECK
 * constraint (migrations/0001_init.sql) lists the same values.
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

/** Statuses after which nothing changes. */
export const TERMINAL_STATUSES: readonly TerminalStatus[] = ['succeeded', 'failed', 'cancelled'];

/** True for `succeeded`, `failed` and `cancelled`. */
export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}
