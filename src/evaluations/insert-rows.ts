/**
 * @module
 * The API's idempotent insert of new `evaluations` rows: one row with its config and task (`insertEvaluation`), and
 * the batch and comparison paths' JSON inserts of many rows. The reads: ./rows.ts.
 * Times are epoch milliseconds.
 */
import type { CacheDecision } from '../verdict-cache/plan.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import type { Guarantee } from '../metrics/certify.js';
import { configHashOf, storeConfigStatements } from './config-rows.js';
import type { EvaluationSource } from './source.js';
import { sourceText } from './source.js';
import { insertNewTaskStatement, taskKindOf, taskWaitsSql } from './task-rows.js';
import { insertTaskGroupsStatement, taskGroups } from './task-groups.js';
import type { EvaluationRecord, RubricStampRecord } from './rows.js';
import { findByIdempotencyKey } from './rows.js';

/** A new `evaluations` row as the API inserts it (status `queued`). */
export interface NewEvaluation {
  id: string;
  tenant: string;
  method: string;
  preset: string | null;
  /** Resolved method config. */
  config: unknown;
  task: unknown;
  metadata: Record<string, string | number | boolean> | null;
  /** Caller's `Idempotency-Key`, or null. */
  idempotencyKey: string | null;
  /** sha-256 hex of the canonical request (see {@link requestHash}), or null without a key. */
  requestHash: string | null;
  metaId: string | null;
  callsPlanned: number;
  /** One-off callback URL (`webhook.url`, already accepted by the URL guard), or null/absent. */
  webhookUrl?: string | null;
  /** The batch (or meta-evaluation) it is an item of, its position there (0-based) and the caller's item id. */
  batchId?: string | null;
  batchSeq?: number | null;
  itemId?: string | null;
  /** Creation time, epoch ms. */
  now: number;
  /** The managed API key that created it (`key_…`), for usage by key; null or absent otherwise. */
  keyId?: string | null;
  /** What the verdict cache does for it (src/verdict-cache/plan.ts); null or absent: `off`. */
  cacheMode?: CacheDecision | null;
  /** The verdict cache key it reads and writes; null or absent for `off` and `bypass`. */
  cacheKey?: string | null;
  /** The service tier it runs at (src/tiers/); absent: `standard`. */
  tier?: Tier;
  /** What a flex refusal leads to; absent: `standard`. */
  flexFallback?: FlexFallback;
  /** The rubric it judges by (its content is stored by hash in `rubric_contents`); null or absent for none. */
  rubric?: RubricStampRecord | null;
  /** Certified mode's guarantee (src/certify/); null or absent: not certified (a batch item reads its batch's). */
  certify?: Guarantee | null;
  /** The trace, span and monitor it judges (./source.ts); null or absent: none. */
  source?: EvaluationSource | null;
}

/** Columns of an insert, in order; {@link insertValues} gives them. */
const INSERT_COLUMNS = [
  'id',
  'tenant',
  'status',
  'method',
  'preset',
  'config',
  'config_hash',
  'task',
  'task_kind',
  'metadata',
  'idempotency_key',
  'request_hash',
  'meta_id',
  'calls_planned',
  'webhook_url',
  'batch_id',
  'batch_seq',
  'item_id',
  'created_at',
  'updated_at',
  'key_id',
  'cache_mode',
  'cache_key',
  'tier',
  'flex_fallback',
  'rubric_hash',
  'rubric_id',
  'rubric_version',
  'certify',
  'source',
] as const;

/** Bound parameters per inserted evaluation row. */
export const EVALUATION_INSERT_PARAMS = INSERT_COLUMNS.length;

/** Bound values of one new row, in {@link INSERT_COLUMNS} order. */
function insertValues(e: NewEvaluation): (string | number | null)[] {
  return [
    e.id,
    e.tenant,
    'queued',
    e.method,
    e.preset,
    // Stored once by hash (./config-rows.ts): the row keeps the hash, its inline column stays empty.
    '',
    configHashOf(e.config),
    // The task waits in `evaluation_tasks` until its object holds it (./task-rows.ts); the row keeps its kind.
    '',
    taskKindOf(e.task),
    e.metadata ? JSON.stringify(e.metadata) : null,
    e.idempotencyKey,
    e.requestHash,
    e.metaId,
    e.callsPlanned,
    e.webhookUrl ?? null,
    e.batchId ?? null,
    e.batchSeq ?? null,
    e.itemId ?? null,
    e.now,
    e.now,
    e.keyId ?? null,
    e.cacheMode ?? null,
    e.cacheKey ?? null,
    e.tier ?? 'standard',
    e.flexFallback ?? 'standard',
    e.rubric?.hash ?? null,
    e.rubric?.id ?? null,
    e.rubric?.version ?? null,
    e.certify ? JSON.stringify(e.certify) : null,
    sourceText(e.source),
  ];
}

/** Most UTF-8 bytes of one JSON parameter of {@link insertRowsJsonStatements}: 800,000 (D1 refuses strings over 1,000,000). */
export const INSERT_JSON_CHUNK_BYTES = 800_000;

const encoder = new TextEncoder();

/** Rows as JSON arrays of their {@link insertValues} (then their task's JSON `withTask`), at most {@link INSERT_JSON_CHUNK_BYTES} each, the tasks' group parameter too (a larger row goes alone). */
function jsonChunks(rows: readonly NewEvaluation[], withTask: boolean): { json: string; rows: NewEvaluation[] }[] {
  const chunks: { json: string; rows: NewEvaluation[] }[] = [];
  let current: string[] = [];
  let of: NewEvaluation[] = [];
  let bytes = 2;
  let groupBytes = 2;
  for (const row of rows) {
    // The task JSON rides at the end, past the columns: the tasks' statement reads it there (groups bind their own).
    const json = JSON.stringify(withTask ? [...insertValues(row), JSON.stringify(row.task)] : insertValues(row));
    const size = encoder.encode(json).byteLength + 1;
    // A batch's tasks ride in the chunk's one group parameter instead, escaped once more: that parameter is bounded too.
    const grouped = withTask ? 0 : encoder.encode(JSON.stringify(JSON.stringify(row.task))).byteLength + 8;
    if (
      current.length > 0 &&
      (bytes + size > INSERT_JSON_CHUNK_BYTES || groupBytes + grouped > INSERT_JSON_CHUNK_BYTES)
    ) {
      chunks.push({ json: `[${current.join(',')}]`, rows: of });
      current = [];
      of = [];
      bytes = 2;
      groupBytes = 2;
    }
    current.push(json);
    of.push(row);
    bytes += size;
    groupBytes += grouped;
  }
  if (current.length > 0) chunks.push({ json: `[${current.join(',')}]`, rows: of });
  return chunks;
}

/** The batch every row is an item of, with a position, or null (some row is in no batch or in another). */
function batchOfAll(rows: readonly NewEvaluation[]): string | null {
  const batchId = rows[0]?.batchId ?? null;
  return batchId !== null && rows.every((r) => r.batchId === batchId && typeof r.batchSeq === 'number')
    ? batchId
    : null;
}

/**
 * Bulk inserts (`ON CONFLICT DO NOTHING`) for many rows: each statement expands one JSON parameter (an
 * array of rows, each an array in {@link INSERT_COLUMNS} order) with `json_each`, so hundreds of rows
 * take 1 + `guard.binds` bound parameters instead of {@link EVALUATION_INSERT_PARAMS} each — 1,000
 * small items are one statement. Every statement inserts only while `guard.sql` holds (e.g. "this
 * transaction created the batch"); the rows' configs are stored first, once each (./config-rows.ts). The items
 * of one batch keep their tasks in groups (./task-groups.ts: one D1 row for up to 32 tasks), other rows one
 * `evaluation_tasks` row each. Run them in the caller's `batch()`.
 */
export function insertRowsJsonStatements(
  db: D1Database,
  rows: readonly NewEvaluation[],
  guard: { sql: string; binds: readonly (string | number | null)[] } = { sql: '1', binds: [] },
): D1PreparedStatement[] {
  const select = INSERT_COLUMNS.map((_c, i) => `json_extract(value, '$[${String(i)}]')`).join(', ');
  const sql = `INSERT INTO evaluations (${INSERT_COLUMNS.join(', ')}) SELECT ${select} FROM json_each(?) WHERE ${guard.sql} ON CONFLICT DO NOTHING`;
  const task = `json_extract(value, '$[${String(INSERT_COLUMNS.length)}]')`;
  const tasksSql = `INSERT INTO evaluation_tasks (evaluation_id, task) SELECT json_extract(value, '$[0]'), ${task} FROM json_each(?)
    WHERE ${guard.sql} AND ${taskWaitsSql("json_extract(value, '$[0]')")} ON CONFLICT DO NOTHING`;
  const batchId = batchOfAll(rows);
  const tasks = (chunk: { json: string; rows: NewEvaluation[] }) =>
    batchId === null
      ? db.prepare(tasksSql).bind(chunk.json, ...guard.binds)
      : insertTaskGroupsStatement(
          db,
          batchId,
          taskGroups(chunk.rows.map((r) => ({ seq: r.batchSeq ?? 0, task: JSON.stringify(r.task) }))),
          guard,
        );
  return [
    ...storeConfigStatements(
      db,
      rows.map((r) => r.config),
      rows[0]?.now ?? 0,
    ),
    ...jsonChunks(rows, batchId === null).flatMap((chunk) => [
      db.prepare(sql).bind(chunk.json, ...guard.binds),
      tasks(chunk),
    ]),
  ];
}

/** A column of a new `evaluations` row. */
export type EvaluationInsertColumn = (typeof INSERT_COLUMNS)[number];

/**
 * One `INSERT … SELECT … ON CONFLICT DO NOTHING` of rows computed in SQL: `columns` gives each column of the
 * one column list as an SQL expression over `from` (a `FROM …` clause, optionally with `WHERE`); the `?` of
 * the expressions (in column-list order), then those of `from`, take `binds` in order. For rows expanded
 * in D1 itself (a comparison's pair evaluations), so the Worker never holds them.
 */
export function insertRowsSelectStatement(
  db: D1Database,
  columns: Readonly<Record<EvaluationInsertColumn, string>>,
  from: string,
  binds: readonly (string | number | null)[],
): D1PreparedStatement {
  const select = INSERT_COLUMNS.map((c) => columns[c]).join(',\n  ');
  return db
    .prepare(`INSERT INTO evaluations (${INSERT_COLUMNS.join(', ')}) SELECT ${select} ${from} ON CONFLICT DO NOTHING`)
    .bind(...binds);
}

/**
 * What a single evaluation's insert decides in SQL, so the row is written once with it ({@link insertEvaluation}).
 */
export interface InsertDecisions {
  /**
   * The fast start's running slot: the cap test (./admission.ts `slotOnInsertSql`) and its binds; with it the row
   * takes a slot from `now` and is `running` unless it is a hit. Null: the row waits for the queue.
   */
  slot: { sql: string; binds: readonly number[] } | null;
  /**
   * The verdict cache's lookup for a `use` row with a key (src/verdict-cache/rows.ts `hitOnInsertSql`) and the
   * oldest entry time that serves (epoch ms); with a live entry the row is a hit: `cache_from`, `cache_saved_usd`
   * and 0 planned calls. Null: no lookup.
   */
  hit: { id: string; costUsd: string; since: number } | null;
}

/** Columns {@link insertSingleStatement} computes in SQL rather than binds. */
const DECIDED = new Set<EvaluationInsertColumn>(['status', 'calls_planned']);

/**
 * The one-row `INSERT … SELECT … ON CONFLICT DO NOTHING` of {@link insertEvaluation}: the row's columns bound, its
 * status, slot, start, planned calls and verdict cache hit computed from `d` over a one-row table aliased
 * `evaluations` (the new row's tenant, tier and cache key), which the cap test and the hit lookup read.
 */
function insertSingleStatement(db: D1Database, e: NewEvaluation, d: InsertDecisions): D1PreparedStatement {
  const values = insertValues(e);
  const bound = INSERT_COLUMNS.flatMap((c, i) => (DECIDED.has(c) ? [] : [{ c, v: values[i] ?? null }]));
  const hitId = d.hit ? d.hit.id : 'NULL';
  const hitCost = d.hit ? d.hit.costUsd : 'NULL';
  const slot = d.slot ? d.slot.sql : '0';
  const sql = `INSERT INTO evaluations (${bound.map((b) => b.c).join(', ')}, status, calls_planned, slot_at, started_at, cache_from, cache_saved_usd)
    SELECT ${bound.map(() => '?').join(', ')},
      CASE WHEN a.slot AND a.hit IS NULL THEN 'running' ELSE 'queued' END,
      CASE WHEN a.hit IS NULL THEN ? ELSE 0 END,
      CASE WHEN a.slot THEN ? END,
      CASE WHEN a.slot AND a.hit IS NULL THEN ? END,
      a.hit, a.saved
    FROM (SELECT evaluations.hit, evaluations.saved, ${slot} AS slot FROM (
      SELECT evaluations.tenant, evaluations.tier, ${hitId} AS hit, ${hitCost} AS saved
      FROM (SELECT ? AS tenant, ? AS tier, ? AS cache_key) AS evaluations) AS evaluations) AS a
    WHERE 1 ON CONFLICT DO NOTHING`;
  return db
    .prepare(sql)
    .bind(
      ...bound.map((b) => b.v),
      e.callsPlanned,
      e.now,
      e.now,
      ...(d.slot ? d.slot.binds : []),
      ...(d.hit ? [d.hit.since, d.hit.since] : []),
      e.tenant,
      e.tier ?? 'standard',
      e.cacheKey ?? null,
    );
}

/**
 * Inserts a queued evaluation. With an idempotency key the partial unique index
 * `(tenant, idempotency_key)` turns a second insert into a no-op, and the row that holds the key is
 * returned instead, so concurrent retries converge on one evaluation.
 * @param taskJson `e.task` as JSON, the text D1 keeps until its object holds it (./task-rows.ts); null: the object
 *   holds it already (it runs this insert itself: ./held-start.ts), so D1 keeps no copy.
 * @param after statements run in the same D1 batch right after the insert (one round trip), e.g. reading back
 *   the row a fast start admitted; their results come back with `inserted: true`.
 * @param decisions its fast start's slot and its verdict cache hit, decided by the insert ({@link InsertDecisions});
 *   default neither.
 * @returns `inserted: true` and the new row, or `inserted: false` and the existing row with that key (null
 *   without a key: a row of this id was there).
 */
export async function insertEvaluation(
  db: D1Database,
  e: NewEvaluation,
  taskJson: string | null,
  after: readonly D1PreparedStatement[] = [],
  decisions: InsertDecisions = { slot: null, hit: null },
): Promise<{ inserted: true; after: D1Result[] } | { inserted: false; existing: EvaluationRecord | null }> {
  // Its config first, stored once by hash (./config-rows.ts), then its task's copy, then the insert.
  const key = { id: e.id, tenant: e.tenant, key: e.idempotencyKey };
  const copy = taskJson === null ? [] : [insertNewTaskStatement(db, key, taskJson)];
  const all = await db.batch([
    ...storeConfigStatements(db, [e.config], e.now),
    ...copy,
    insertSingleStatement(db, e, decisions),
    ...after,
  ]);
  const result = all[1 + copy.length];
  if (result && result.meta.changes > 0) return { inserted: true, after: all.slice(2 + copy.length) };
  // Without a key only this id's own row can stand in the way (a repeat of this insert): the caller decides.
  if (e.idempotencyKey === null) return { inserted: false, existing: null };
  const existing = await findByIdempotencyKey(db, e.tenant, e.idempotencyKey);
  // Unreachable unless the row was deleted between the two statements.
  if (!existing) throw new Error(`idempotency key conflict but no row for tenant ${e.tenant}`);
  return { inserted: false, existing };
}
