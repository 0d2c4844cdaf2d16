/**
 * @module
 * Where an evaluation's task is kept (migrations/0030_task_in_the_object.sql): not on its `evaluations` row,
 * which keeps the kind only (`task_kind`). A new evaluation's task waits in `evaluation_tasks` until its
 * Durable Object holds it (the object stores it at its start); the object's final write then deletes it from
 * D1 ({@link dropWaitingTaskStatements}), so the object is where an ended evaluation's task is read (a running
 * one's too: D1's copy is read first while it lasts). One that ended without running here (cancelled while
 * queued) keeps its copy. A single evaluation started fast has none in D1 at all: its object holds the task
 * before D1 knows the evaluation (./held-start.ts), queued or cancelled before it ran too. Rows written before
 * keep it inline in `evaluations.task`, which is read first; an erased one holds JSON `null` there
 * ({@link ERASED_TASK}) and reads as no task, whatever else holds one.
 */
import { scrubSql } from '../config/sqlite-scrub.js';
import { dissolveGroupStatements, groupTaskSql } from './task-groups.js';

/** Task stored in a deleted evaluation's row (the column is NOT NULL): JSON `null`. */
export const ERASED_TASK = 'null';

/** The `task_kind` of a task (its `kind` member), or null when it has none. */
export function taskKindOf(task: unknown): string | null {
  const kind = typeof task === 'object' && task !== null ? (task as { kind?: unknown }).kind : undefined;
  return typeof kind === 'string' ? kind : null;
}

/** SQL of the task kind of the `evaluations` row aliased `alias` (its column, else read from an inline task). */
export function taskKindSql(alias: string): string {
  return `COALESCE(${alias}.task_kind, CASE WHEN ${alias}.task <> '' THEN json_extract(${alias}.task, '$.kind') END)`;
}

/**
 * SQL of the task JSON D1 keeps for the `evaluations` row aliased `alias`: the inline one (a row written before,
 * or an erased one's `null`), else the one waiting for its object, alone or in its batch's group (./task-groups.ts);
 * NULL once the object holds it alone.
 */
export function taskSql(alias: string): string {
  return `COALESCE(NULLIF(${alias}.task, ''), (SELECT wt.task FROM evaluation_tasks wt WHERE wt.evaluation_id = ${alias}.id),
    ${groupTaskSql(alias)})`;
}

/**
 * SQL condition: the `evaluations` row whose id is the SQL expression `id` was just inserted by this layout and
 * has not started or ended, so its task belongs in `evaluation_tasks`. An insert that lost to an earlier one
 * with the same idempotency key inserted no row, and a repeated insert of an item that has ended finds it ended:
 * neither keeps a task.
 */
export function taskWaitsSql(id: string): string {
  return `EXISTS (SELECT 1 FROM evaluations e WHERE e.id = ${id} AND e.task = '' AND e.started_at IS NULL AND e.finished_at IS NULL)`;
}

/**
 * The statement putting a new single evaluation's task into `evaluation_tasks`; run it right BEFORE the statement
 * that inserts the row, in the same batch: it writes only while no row has this id or this idempotency key, so a
 * copy is kept exactly when that insert adds the row (not for a row its object inserted itself with no copy,
 * src/evaluations/held-start.ts, nor for a replay of another evaluation's key).
 * @param key the row's idempotency key, or null
 */
export function insertNewTaskStatement(
  db: D1Database,
  row: { id: string; tenant: string; key: string | null },
  taskJson: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO evaluation_tasks (evaluation_id, task) SELECT ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM evaluations WHERE id = ?)
         AND NOT EXISTS (SELECT 1 FROM evaluations WHERE tenant = ? AND idempotency_key = ?) ON CONFLICT DO NOTHING`,
    )
    .bind(row.id, taskJson, row.id, row.tenant, row.key);
}

/**
 * The statements the object's final write runs (it holds the task): the waiting copy is overwritten in place
 * (src/config/sqlite-scrub.ts), then deleted, as every erasure does: a cell freed unscrubbed keeps its text in
 * the database file until SQLite reuses the page, where a later DELETE or a tenant's `storeContent: false` can
 * no longer reach it. Both match no row once done, so a repeated write changes nothing.
 */
export function dropWaitingTaskStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare(scrubSql('evaluation_tasks', ['task'], 'evaluation_id = ?')).bind(id),
    db.prepare('DELETE FROM evaluation_tasks WHERE evaluation_id = ?').bind(id),
  ];
}

/**
 * The statements of an erasure of evaluation `id`'s task from D1 (a DELETE, retention, a tenant that stores no
 * content): its batch's group too, if it has one (./task-groups.ts: the group's other owed tasks move to their own
 * rows first), then its own waiting copy ({@link dropWaitingTaskStatements}). A repeat changes nothing.
 */
export function eraseTaskStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [...dissolveGroupStatements(db, id), ...dropWaitingTaskStatements(db, id)];
}

/**
 * The read of evaluation `id`'s task as D1 keeps it ({@link taskSql}), for a batch that reads several evaluations
 * at once (parse with `taskJsonOf`, ./rows.ts) or for {@link d1TaskText}.
 */
export function taskJsonStatement(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(`SELECT ${taskSql('e')} AS task FROM evaluations e WHERE e.id = ?`).bind(id);
}

/** The task JSON text D1 keeps for evaluation `id` ({@link taskSql}), or null (the object holds it, or none is kept). */
export async function d1TaskText(db: D1Database, id: string): Promise<string | null> {
  return (await taskJsonStatement(db, id).first<{ task: string | null }>())?.task ?? null;
}
