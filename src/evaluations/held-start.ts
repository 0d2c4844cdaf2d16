/**
 * @module
 * A single evaluation's fast start through its Durable Object, which holds the task before D1 knows the
 * evaluation: the API hands the object the job and the insert's inputs in one RPC ({@link HeldAdmission}); the
 * object stores the job (with a watchdog alarm), runs the insert ({@link insertHeld}) and starts at once when the
 * insert admitted it. So D1 keeps no waiting copy of the task (./task-rows.ts): 3 rows a verdict fewer (its insert,
 * and the final write's scrub and delete). Should the API's request die between the object's store and the
 * insert, the watchdog finds no row and the object erases itself; should the RPC fail after the insert, the
 * watchdog, the queue or the sweeper start it from the held job (durable-objects/evaluation/held.ts).
 */
import type { InsertDecisions, NewEvaluation } from './insert-rows.js';
import { insertEvaluation } from './insert-rows.js';
import type { StartJob } from './job-rows.js';
import { taskKindOf } from './task-rows.js';
import { parsedMethodConfig } from '../engine/registry.js';
import { getEvaluation } from './rows.js';
import type { EvaluationStatus } from './status.js';
import type { AdmittedRow, HeldAdmission, HeldInsert } from './held-types.js';
import { admittedRowStatement } from './admission.js';

/** Marks a new evaluation as counted by another row (`CreatorInfo.countedBy`, ./service.ts); none without one. */
export function countedStatements(db: D1Database, id: string, countedBy: string | undefined): D1PreparedStatement[] {
  if (countedBy === undefined) return [];
  return [db.prepare(`UPDATE evaluations SET counted_by = ? WHERE id = ?`).bind(countedBy, id)];
}

/**
 * What the API hands the object of new evaluation `row`: the row without its task and config, which `job` carries
 * as JSON text (each crossed the RPC twice, and the object turned the config back into JSON twice to hash and store it).
 * @param countedBy the row that already counts it against the monthly cap; undefined: none.
 */
export function heldAdmissionOf(
  job: StartJob,
  row: NewEvaluation,
  decisions: InsertDecisions,
  countedBy: string | undefined,
): HeldAdmission {
  const { task, config: _config, ...rest } = row;
  return { job, row: rest, taskKind: taskKindOf(task), decisions, ...(countedBy === undefined ? {} : { countedBy }) };
}

/**
 * The object's insert of its held evaluation: the API's insert batch without the task's waiting copy, the admitted
 * row read back last. A repeat (the row is there already) reports the existing row; a D1 error propagates (the
 * row may or may not have been written: the watchdog finds out).
 */
export async function insertHeld(db: D1Database, a: HeldAdmission): Promise<HeldInsert> {
  // The config from the job's text (parsed and frozen once per isolate: its hash and JSON are remembered); of the
  // task the row keeps only its kind (D1 keeps no copy of it).
  const taskKind = a.taskKind !== undefined ? a.taskKind : taskKindOf(JSON.parse(a.job.task) as unknown);
  const row: NewEvaluation = { ...a.row, config: parsedMethodConfig(a.job.config), task: { kind: taskKind } };
  const after = [...countedStatements(db, row.id, a.countedBy), admittedRowStatement(db, row.id)];
  const result = await insertEvaluation(db, row, null, after, a.decisions);
  if (result.inserted)
    return { inserted: true, admitted: (result.after.at(-1)?.results[0] as AdmittedRow | undefined) ?? null };
  // Without a key, the row of this id was there already (a repeat): reported, as a key's holder is.
  return { inserted: false, existing: result.existing ?? (await getEvaluation(db, row.tenant, row.id)) };
}

/** The status of evaluation `id` and whether it holds a running slot (`slot_at`), or null without a row. */
export async function heldRowOf(
  db: D1Database,
  id: string,
): Promise<{ status: EvaluationStatus; slot: boolean } | null> {
  const row = await db
    .prepare('SELECT status, slot_at IS NOT NULL AS slot FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ status: EvaluationStatus; slot: number }>();
  return row ? { status: row.status, slot: row.slot === 1 } : null;
}
