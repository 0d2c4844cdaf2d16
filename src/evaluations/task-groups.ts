/**
 * @module
 * A batch's waiting tasks, a group of consecutive items to a D1 row (`evaluation_task_groups`,
 * migrations/0036_batch_task_groups.sql), where `evaluation_tasks` (./task-rows.ts) keeps one row an item: each
 * item's task there cost three D1 rows written (its insert, the in-place overwrite that erases it and its delete).
 * A group costs the same three for up to {@link TASK_GROUP_ITEMS} items:
 * - the batch's insert writes its items' tasks as groups ({@link insertTaskGroupsStatement});
 * - an item reads its task from its group until the batch completes ({@link groupTaskSql}, part of `taskSql`); its
 *   object holds it from its start, and its final write leaves the group alone;
 * - the ending that completes the batch moves the tasks its items still owe D1 (items that ended without their
 *   object's final write: cancelled while queued) into `evaluation_tasks`, then overwrites and deletes the batch's
 *   groups ({@link dropBatchGroupsStatements});
 * - an erasure of one item (a DELETE, retention, a tenant that stores no content) does the same for its group at
 *   once ({@link dissolveGroupStatements}), so no erased task outlives its erasure in D1.
 * So the tasks of a running batch's ended items stay in D1 until the batch completes (a batch's worth of tasks,
 * gone at its end), where they left one by one.
 */
import { scrubSql } from '../config/sqlite-scrub.js';

/** Most items of one group: 32. */
export const TASK_GROUP_ITEMS = 32;

/** Most characters (UTF-16 code units) of a group's task texts, unless one task alone is longer: 128,000. */
export const TASK_GROUP_CHARS = 128_000;

/** A group of consecutive positions, from `first`, with their task JSON texts in order. */
export interface TaskGroup {
  first: number;
  tasks: string[];
}

/**
 * The groups of `items` (each a batch position and its task JSON text, in position order): a new group at every
 * gap in the positions, and once one holds {@link TASK_GROUP_ITEMS} items or {@link TASK_GROUP_CHARS} characters.
 */
export function taskGroups(items: readonly { seq: number; task: string }[]): TaskGroup[] {
  const groups: TaskGroup[] = [];
  let current: TaskGroup | null = null;
  let chars = 0;
  for (const { seq, task } of items) {
    if (
      current === null ||
      current.tasks.length >= TASK_GROUP_ITEMS ||
      chars + task.length > TASK_GROUP_CHARS ||
      seq !== current.first + current.tasks.length
    ) {
      current = { first: seq, tasks: [] };
      groups.push(current);
      chars = 0;
    }
    current.tasks.push(task);
    chars += task.length;
  }
  return groups;
}

/**
 * The statement inserting `groups` of batch `batchId`, only while `guard.sql` holds (the batch's insert: "this
 * transaction created the batch"), in the transaction that inserts their items.
 */
export function insertTaskGroupsStatement(
  db: D1Database,
  batchId: string,
  groups: readonly TaskGroup[],
  guard: { sql: string; binds: readonly (string | number | null)[] },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO evaluation_task_groups (batch_id, first_seq, n, tasks)
       SELECT ?, json_extract(value, '$[0]'), json_array_length(value, '$[1]'), json_extract(value, '$[1]') FROM json_each(?)
       WHERE ${guard.sql} ON CONFLICT DO NOTHING`,
    )
    .bind(batchId, JSON.stringify(groups.map((g) => [g.first, g.tasks])), ...guard.binds);
}

/**
 * SQL of the task JSON text the group of the `evaluations` row aliased `alias` holds for it, or NULL (no group:
 * not a batch item, its batch completed, or an erasure dissolved it). One row read: the batch's last group
 * starting at or before the item's position.
 */
export function groupTaskSql(alias: string): string {
  return `(SELECT CASE WHEN ${alias}.batch_seq < g.first_seq + g.n THEN json_extract(g.tasks, '$[' || (${alias}.batch_seq - g.first_seq) || ']') END
    FROM evaluation_task_groups g WHERE g.batch_id = ${alias}.batch_id AND g.first_seq <= ${alias}.batch_seq
    ORDER BY g.first_seq DESC LIMIT 1)`;
}

/**
 * SQL condition on the `evaluation_task_groups` row whose columns are prefixed `p` (`g.` or none): the group holding
 * evaluation `?`'s task (binds its id once).
 */
const groupOfItem = (p: string) => `(${p}batch_id, ${p}first_seq) IN (SELECT batch_id, first_seq FROM (
    SELECT mg.batch_id, mg.first_seq, mg.n, me.batch_seq AS seq FROM evaluations me
    JOIN evaluation_task_groups mg ON mg.batch_id = me.batch_id AND mg.first_seq <= me.batch_seq
    WHERE me.id = ? ORDER BY mg.first_seq DESC LIMIT 1) WHERE seq < first_seq + n)`;

/**
 * SQL condition on an `evaluations` row aliased `e`: its task is still owed by D1, i.e. it is kept nowhere else. Its
 * row holds none inline (not a row written before migration 0030, not erased), and its object's final write has
 * not run (it books the row's usage, `billed_calls`): it is queued, or ended without running (cancelled while
 * queued). A running item's object holds it too; its final write then deletes the copy, as for any waiting task.
 */
const OWED = `e.task = '' AND e.billed_calls IS NULL AND e.deleted_at IS NULL`;

/** The statement copying into `evaluation_tasks` the owed tasks of the groups `where` selects (aliased `g`). */
function moveOwedStatement(db: D1Database, where: string, binds: readonly unknown[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO evaluation_tasks (evaluation_id, task)
       SELECT e.id, json_extract(g.tasks, '$[' || (e.batch_seq - g.first_seq) || ']') FROM evaluation_task_groups g
       JOIN evaluations e ON e.batch_id = g.batch_id AND e.batch_seq >= g.first_seq AND e.batch_seq < g.first_seq + g.n
       WHERE ${where} AND ${OWED} ON CONFLICT DO NOTHING`,
    )
    .bind(...binds);
}

/**
 * The statements erasing evaluation `id`'s task from its group, if it has one: the other tasks its group still owes
 * move to `evaluation_tasks`, then the group is overwritten in place and deleted (src/config/sqlite-scrub.ts).
 * Nothing for an evaluation in no group; a repeat finds none.
 */
export function dissolveGroupStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    moveOwedStatement(db, `${groupOfItem('g.')} AND e.id <> ?`, [id, id]),
    db.prepare(scrubSql('evaluation_task_groups', ['tasks'], groupOfItem(''))).bind(id),
    db.prepare(`DELETE FROM evaluation_task_groups WHERE ${groupOfItem('')}`).bind(id),
  ];
}

/**
 * The statements the ending that completes a batch runs before its mark: every group of the batch is erased, the
 * tasks they still owe moved to `evaluation_tasks` first, but that of `except` (the completing final write's own
 * evaluation: its object holds its task). `completing` is a `FROM batches b WHERE …` clause (with its binds) that
 * selects the batch's row only while this ending completes it; every statement starts from it, so an ending that
 * does not complete its batch reads no group and no item.
 */
export function dropBatchGroupsStatements(
  db: D1Database,
  completing: { rows: string; binds: readonly unknown[] },
  except: string | null,
): D1PreparedStatement[] {
  const groups = `batch_id IN (SELECT b.id ${completing.rows})`;
  return [
    db
      .prepare(
        // CROSS JOIN keeps the batch row outermost: no row, nothing read.
        `INSERT INTO evaluation_tasks (evaluation_id, task)
         SELECT e.id, json_extract(g.tasks, '$[' || (e.batch_seq - g.first_seq) || ']')
         FROM (SELECT b.id AS batch_id ${completing.rows}) c CROSS JOIN evaluation_task_groups g CROSS JOIN evaluations e
         WHERE g.batch_id = c.batch_id AND e.batch_id = g.batch_id AND e.batch_seq >= g.first_seq
           AND e.batch_seq < g.first_seq + g.n AND ${OWED} AND e.id IS NOT ? ON CONFLICT DO NOTHING`,
      )
      .bind(...completing.binds, except),
    db.prepare(scrubSql('evaluation_task_groups', ['tasks'], groups)).bind(...completing.binds),
    db.prepare(`DELETE FROM evaluation_task_groups WHERE ${groups}`).bind(...completing.binds),
  ];
}
