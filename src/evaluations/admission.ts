/**
 * @module
 * The per-tenant cap on evaluations running at once. An evaluation runs only once it holds one of its
 * tenant's slots: `evaluations.slot_at` set by {@link admit}, one atomic D1 statement that counts the
 * tenant's slot holders and takes a slot only while there are fewer than the cap (the tenant's
 * `max_running`, else `TENANT_MAX_RUNNING`); evaluations at tier `batch` are not capped (see `UNDER_CAP`). Work beyond the cap is never refused: the jobs consumer
 * puts its message back with a delay (queues/jobs.ts); the API's fast start and the sweeper simply leave
 * it to the queue.
 *
 * A slot counts only while its row has not ended (`finished_at` NULL, which every end sets with its status: the
 * partial index `evaluations_in_flight` of the slot holders outside a batch, and a batch's handed-over items that
 * have not ended, read through `evaluations_batch` between the batch's `open_from` and `sent` ({@link batchOpenItems};
 * neither index names the status nor `slot_at` of a batch item, so the slot of a batch item and the running mark
 * write no index row), so every end path frees it in the very status update that ends the row,
 * whoever writes it (the object's final write, a cancel, the dead-letter consumer, a D1-only fallback).
 * A slot cannot outlive its evaluation; one whose object crashed is held until the sweeper re-kicks it
 * to its end, as the evaluation it belongs to is still running. Idempotent: admitting an evaluation that
 * holds a slot answers `admitted` again.
 *
 * When an evaluation ends, its object's final write admits the tenant's oldest waiting evaluation in the
 * same transaction ({@link admitNextStatement}) and starts it ({@link startAdmitted}): it takes the freed
 * slot at once, instead of when its queue message comes back. Other endings (a cancel, the dead-letter consumer)
 * admit nobody: a waiting evaluation always has its queue message (put back with a delay while it waits) and the
 * sweeper's re-kick, which take the freed slot. In a spread tenant's shard, the ending admits from its own shard's
 * waiting rows, under that shard's share of the cap.
 */
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import { SQL_NOT_ENDED, sqlNotEnded } from './status.js';
import type { FinalWriteStep } from './ending.js';
import { evaluationStub } from './stub.js';
import { batchOpenItems } from './batch-open.js';
import { hitColumns } from '../verdict-cache/hit.js';

/**
 * A tenant's running cap in this database (binds the default cap once): the cap shared out over the D1 shards
 * of its spread (the copy of its settings row in this shard says it), rounded up, so each shard admits from
 * its own rows in one statement and the tenant runs at most its cap (a multiple of its spread) at once; a
 * spread above the cap lets one run per shard (a cap of 0 stays 0). Aggregates, so a tenant without a row
 * gets the default.
 */
const SHARD_CAP = `SELECT (COALESCE(max(t.max_running), ?) + COALESCE(max(t.spread), 1) - 1) / COALESCE(max(t.spread), 1)
  FROM tenants t WHERE t.id = evaluations.tenant`;

/**
 * SQL of the rows `s` (a `FROM … WHERE`) of the evaluations of tenant `tenant` (an SQL term) outside a batch holding
 * a running slot under the cap (not at tier `batch`), read through `evaluations_in_flight`.
 */
function singleHolderRows(tenant: string): string {
  return `FROM evaluations s INDEXED BY evaluations_in_flight WHERE s.tenant = ${tenant}
      AND s.slot_at IS NOT NULL AND s.finished_at IS NULL AND s.batch_id IS NULL AND s.tier != 'batch'
      AND ${sqlNotEnded('s.status')}`;
}

/** Batch `b` is an open batch of tenant `tenant` whose handed-over items count under the cap (not at tier `batch`). */
const CAPPED_BATCH = (b: string, tenant: string) =>
  `${b}.tenant = ${tenant} AND ${b}.completed_at IS NULL AND ${b}.tier != 'batch'`;

/**
 * SQL of the number of the other slot holders of tenant `tenant` (an SQL term): an open batch's handed-over items
 * that hold a slot and have not ended ({@link batchOpenItems}), so a batch's items not handed over are never read.
 */
function batchHolders(tenant: string): string {
  return `(SELECT count(*) FROM batches b INDEXED BY batches_open
      JOIN evaluations s INDEXED BY evaluations_batch ON ${batchOpenItems('b', 's')}
      WHERE ${CAPPED_BATCH('b', tenant)}
        AND s.slot_at IS NOT NULL AND s.tier != 'batch' AND ${sqlNotEnded('s.status')})`;
}

/**
 * At least {@link batchHolders}, read from the batch rows alone: an open batch's items that have not ended are at
 * positions from its `open_from` to its `sent` (src/evaluations/batch-open.ts), so they are at most `sent -
 * open_from` of them, whether they hold a slot or not. One row per open batch of the tenant, where the count reads
 * every position of each batch's window (and the items ended above a straggler, which widens it).
 */
function batchHoldersAtMost(tenant: string): string {
  return `(SELECT COALESCE(sum(max(b.sent - b.open_from, 0)), 0) FROM batches b INDEXED BY batches_open
      WHERE ${CAPPED_BATCH('b', tenant)})`;
}

/**
 * The cap term of the admission statements (binds the default cap twice: {@link capBinds}). An evaluation at tier
 * `batch` neither waits for nor holds a place under the cap: it makes no synchronous call and sleeps between its
 * waves (the provider's limits are per file), and under the cap a batch's items beyond it would start a
 * chain behind the others, each of its waves a provider turnaround (minutes to hours) later. The bound
 * ({@link batchHoldersAtMost}) answers first; only a tenant whose open windows could fill its cap counts their
 * items ({@link batchHolders}; with no open window they are none). The running evaluations outside batches are read
 * once, in the one aggregate that holds both (its `count(*)` twice is one count), and the items only in the `CASE`
 * branch that needs them, so a tenant at its cap with an open batch reads them once too.
 */
const UNDER_CAP = `(evaluations.tier = 'batch'
  OR (SELECT count(*) + CASE
        WHEN ${batchHoldersAtMost('evaluations.tenant')} = 0
          OR count(*) + ${batchHoldersAtMost('evaluations.tenant')} < (${SHARD_CAP}) THEN 0
        ELSE ${batchHolders('evaluations.tenant')} END
      ${singleHolderRows('evaluations.tenant')}) < (${SHARD_CAP}))`;

/** The binds of {@link UNDER_CAP}: the default cap, once per term that reads the cap. */
const capBinds = (defaultMaxRunning: number) => [defaultMaxRunning, defaultMaxRunning] as const;

/**
 * The part of {@link WAITING} outside batches (binds the tenant once). {@link WAITING}: the queued evaluations of
 * a tenant that wait for a running slot, as `(id, created_at)` rows (binds the tenant twice): those outside batches, and batch items the batch has handed over (positions below
 * `batches.sent`, see src/batches/pump.ts) without a slot yet. Items not handed over yet wait for the
 * batch's own window, not for a slot. Each part reads only its own index (migrations/0014, 0040): a batch's
 * items not handed over (up to all of a 10,000-item batch) are never read to be skipped, which made every
 * ending's admission cost one row per such item; its handed-over items from `open_from` are (its window, and items
 * ended out of order above a slower one). A
 * batch at tier `batch` is skipped: its items never wait for a slot ({@link UNDER_CAP}), and its window is the
 * whole batch, so reading its in-flight items would cost every ending one row per item of the batch.
 */
const WAITING_SINGLE = `SELECT id, created_at FROM evaluations INDEXED BY evaluations_waiting_single
     WHERE tenant = ? AND batch_id IS NULL AND slot_at IS NULL AND status = 'queued'`;
/** {@link WAITING}'s batch part (binds the tenant once). */
const WAITING_BATCH = `SELECT e.id, e.created_at FROM batches b INDEXED BY batches_open
     JOIN evaluations e INDEXED BY evaluations_batch ON ${batchOpenItems('b', 'e')}
     WHERE b.tenant = ? AND b.completed_at IS NULL AND b.tier != 'batch'
       AND e.slot_at IS NULL AND e.status = 'queued'`;
/** Both parts: {@link WAITING_SINGLE} then {@link WAITING_BATCH}. */
const WAITING = `${WAITING_SINGLE}
   UNION ALL
   ${WAITING_BATCH}`;

/**
 * The id of the tenant's oldest evaluation of {@link WAITING} (binds the tenant twice; with `beforeClaim`, then the
 * final write's token: without the items that write claimed in its own transaction, as the ending's count claims
 * them before the status update (src/batches/progress.ts) and the claim admits its first after this admission, as
 * when the claim came after it; so the tenant's older waiting evaluation still takes the freed slot first). Each
 * part takes its own oldest before the two are compared: the single evaluations' part reads one entry of
 * `evaluations_waiting_single (tenant, created_at)` in its order, where sorting the union read every waiting
 * evaluation of the tenant, on every ending (a burst queued beyond the cap cost each ending one row per
 * evaluation still waiting).
 */
function oldestWaiting(beforeClaim: boolean): string {
  const claimed = beforeClaim ? ` AND NOT (b.claim_token IS ? AND e.batch_seq >= b.sent_from)` : '';
  return `SELECT id FROM (
     SELECT * FROM (${WAITING_SINGLE} ORDER BY created_at LIMIT 1)
     UNION ALL
     SELECT * FROM (${WAITING_BATCH}${claimed} ORDER BY e.created_at LIMIT 1))
   ORDER BY created_at LIMIT 1`;
}

/** `CASE` of the running mark taken with a slot: `value` for a row that runs, `otherwise` for a cache hit. */
const unlessHit = (value: string, otherwise: string) =>
  `CASE WHEN cache_from IS NULL THEN ${value} ELSE ${otherwise} END`;

/**
 * SET terms (bind `now` twice) that mark a row `running` from `now` in the write that gives it its slot,
 * for a caller that starts its object at once: the object then writes no mark of its own (one row written per
 * evaluation, where the slot and the mark were two; `started_at` is the slot's instant). Not a verdict cache
 * hit: that one ends at once with its cached verdict and is never running. The status is in no index's terms
 * but the waiting ones, which a row holding a slot has left, so this adds no index row.
 */
const RUNNING_FROM_SLOT = `status = ${unlessHit(`'running'`, 'status')},
  started_at = ${unlessHit('COALESCE(started_at, ?)', 'started_at')}, updated_at = ${unlessHit('?', 'updated_at')}`;

/** What {@link admit} found: admitted (holds a slot), waiting (the tenant is at its cap), ended, or no such row. */
export type Admission = 'admitted' | 'waiting' | 'ended' | 'not_found';

/**
 * Gives evaluation `id` one of its tenant's running slots if it has none and the tenant is under its cap.
 * @param defaultMaxRunning the cap of tenants without their own (`TENANT_MAX_RUNNING`).
 * @param now epoch ms, stored as `slot_at`.
 * @param markRunning also mark it `running` from `now` when it takes the slot ({@link RUNNING_FROM_SLOT});
 *   default false. For a caller that starts its object next, which then finds it running and writes no mark.
 */
export async function admit(
  db: D1Database,
  id: string,
  defaultMaxRunning: number,
  now: number,
  markRunning = false,
): Promise<Admission> {
  const [, read] = await db.batch([
    admitStatement(db, id, defaultMaxRunning, now, markRunning),
    db.prepare(`SELECT slot_at, ${SQL_NOT_ENDED} AS open FROM evaluations WHERE id = ?`).bind(id),
  ]);
  const row = (read?.results as { slot_at: number | null; open: number }[] | undefined)?.[0];
  if (!row) return 'not_found';
  if (row.open !== 1) return 'ended';
  return row.slot_at !== null ? 'admitted' : 'waiting';
}

/**
 * The statement of {@link admit} alone: takes a slot for `id` if it has none and the tenant is under its
 * cap; it changed one row exactly when it took the slot. For a D1 batch that inserts the row first (the
 * API's create: one round trip for both).
 */
export function admitStatement(
  db: D1Database,
  id: string,
  defaultMaxRunning: number,
  now: number,
  markRunning = false,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET slot_at = ?${markRunning ? `, ${RUNNING_FROM_SLOT}` : ''}
       WHERE id = ? AND slot_at IS NULL AND ${SQL_NOT_ENDED} AND ${UNDER_CAP}`,
    )
    .bind(...(markRunning ? [now, now, now] : [now]), id, ...capBinds(defaultMaxRunning));
}

/**
 * The API's fast start, decided by the insert itself (./insert-rows.ts `insertEvaluation`): SQL (0 or 1) of whether
 * a new single evaluation takes one of its tenant's running slots, {@link admitStatement}'s cap test over a row
 * aliased `evaluations` that has the new row's `tenant` and `tier`. The insert then writes the row with its slot
 * (and `running` unless it is a verdict cache hit) where an update after it wrote the row a second time and moved
 * its index entries (2 D1 rows a verdict). Binds `binds`, in order.
 */
export function slotOnInsertSql(defaultMaxRunning: number): { sql: string; binds: readonly number[] } {
  return { sql: UNDER_CAP, binds: capBinds(defaultMaxRunning) };
}

/**
 * Reads back the row a fast start's insert admitted: its `status` and its verdict cache hit ({@link hitColumns});
 * no row when it took no slot. Run it in the insert's batch, after it.
 */
export function admittedRowStatement(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(`SELECT status, ${hitColumns()} FROM evaluations WHERE id = ? AND slot_at IS NOT NULL`).bind(id);
}

/**
 * Admits the oldest queued evaluation of `tenant` that waits for a slot, if the tenant is under its cap, in a D1
 * batch that ends an evaluation first (the final write: the status update frees the slot, and the same
 * transaction hands it on, with no round trip of its own): one statement, so concurrent endings admit different
 * evaluations. It marks the row running too ({@link RUNNING_FROM_SLOT}): its object starts once that committed.
 * With the final write's `writeToken`, the items that write claimed are not candidates ({@link oldestWaiting}).
 * Read its result with {@link admittedBy}.
 */
export function admitNextStatement(
  db: D1Database,
  tenant: string,
  defaultMaxRunning: number,
  now: number,
  writeToken?: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET slot_at = ?, ${RUNNING_FROM_SLOT}
       WHERE id = (${oldestWaiting(writeToken !== undefined)})
         AND ${UNDER_CAP}
       RETURNING id`,
    )
    .bind(
      now,
      now,
      now,
      tenant,
      tenant,
      ...(writeToken === undefined ? [] : [writeToken]),
      ...capBinds(defaultMaxRunning),
    );
}

/**
 * Admits the evaluation `candidate` selects (one id; a subquery with its `binds`) to a running slot under its
 * tenant's cap, as {@link admitStatement} does for a known id: a batch item's final write admits the next
 * item it claimed in the same transaction, whose object it starts as soon as that committed. So the same write
 * marks it `running` from `now` (not a verdict cache hit: that one ends at once, never running), and the
 * object writes no mark of its own (`StartJob.markedRunning`): one row written per item, where the slot and the
 * mark were two. Read the admitted id with {@link admittedBy}.
 */
export function admitSelectedStatement(
  db: D1Database,
  candidate: string,
  binds: readonly unknown[],
  defaultMaxRunning: number,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET slot_at = ?, ${RUNNING_FROM_SLOT}
       WHERE id = (${candidate}) AND slot_at IS NULL AND ${SQL_NOT_ENDED} AND ${UNDER_CAP}
       RETURNING id, cache_from IS NULL AS marked`,
    )
    .bind(now, now, now, ...binds, ...capBinds(defaultMaxRunning));
}

/** The id {@link admitNextStatement} or {@link admitSelectedStatement} admitted, or null. */
export function admittedBy(result: D1Result | undefined): string | null {
  return (result?.results[0] as { id?: string } | undefined)?.id ?? null;
}

/** True when {@link admitSelectedStatement} admitted its evaluation and marked it `running` in the same write. */
export function markedRunningBy(result: D1Result | undefined): boolean {
  return (result?.results[0] as { marked?: number } | undefined)?.marked === 1;
}

/**
 * Starts the evaluation an ending admitted ({@link admitNextStatement}); nothing for
 * null. Never throws: its queue message still comes back to start it.
 */
export async function startAdmitted(env: Bindings, id: string | null): Promise<void> {
  if (id === null) return;
  try {
    const r = await evaluationStub(env, id).start(id);
    log('info', 'admission.started_next', { evaluationId: id, status: r.status });
  } catch (e) {
    log('warn', 'admission.start_next_failed', { evaluationId: id, error: messageOf(e) });
  }
}

/**
 * A step of the final write after its status update freed the tenant's slot: the tenant's oldest waiting
 * evaluation takes it in the same transaction ({@link admitNextStatement}), and starts once it committed.
 */
export const ADMIT_NEXT_WAITING: FinalWriteStep = {
  name: "the tenant's oldest waiting evaluation takes the freed running slot, and starts",
  prepare: (db, ending) => ({
    statements: [admitNextStatement(db, ending.tenant, ending.defaultMaxRunning, ending.now, ending.writeToken)],
    then: ([admitted]) => {
      const next = admittedBy(admitted);
      return (env) => startAdmitted(env, next);
    },
  }),
};

/** Evaluations of `tenant` holding a running slot now. */
export async function runningCount(db: D1Database, tenant: string): Promise<number> {
  return (await slotCounts(db, tenant)).running;
}

/** Evaluations of `tenant` holding a running slot, and queued ones waiting for one. */
export async function slotCounts(db: D1Database, tenant: string): Promise<{ running: number; waiting: number }> {
  const [running, waiting] = await db.batch([
    db
      .prepare(
        `SELECT (SELECT count(*) FROM evaluations s INDEXED BY evaluations_in_flight WHERE s.tenant = ?1
           AND s.slot_at IS NOT NULL AND s.finished_at IS NULL AND s.batch_id IS NULL AND ${sqlNotEnded('s.status')})
         + (SELECT count(*) FROM batches b INDEXED BY batches_open
           JOIN evaluations s INDEXED BY evaluations_batch ON ${batchOpenItems('b', 's')}
           WHERE b.tenant = ?1 AND b.completed_at IS NULL AND s.slot_at IS NOT NULL
             AND ${sqlNotEnded('s.status')}) AS n`,
      )
      .bind(tenant),
    db.prepare(`SELECT count(*) AS n FROM (${WAITING})`).bind(tenant, tenant),
  ]);
  const n = (r: D1Result | undefined) => (r?.results[0] as { n: number } | undefined)?.n ?? 0;
  return { running: n(running), waiting: n(waiting) };
}
