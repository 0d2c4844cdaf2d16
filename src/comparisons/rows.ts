/**
 * @module
 * The D1 statements of comparisons: the `comparisons` row beside its batch, the pair evaluations expanded
 * in SQL (items × slots, so 10,000 items × 28 pairs never become 280,000 objects in the Worker), the reads
 * of outcomes (per evaluation, or counted per pair for a large running comparison) and the one store of
 * the final statistics. Times are epoch ms.
 */
import { configHashOf } from '../evaluations/config-rows.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import { BATCH_INSERTED } from '../batches/rows.js';
import type { RubricStampRecord } from '../evaluations/rows.js';
import { insertRowsSelectStatement } from '../evaluations/insert-rows.js';
import type { Gate } from '../metrics/gate.js';
import type { CacheDecision } from '../verdict-cache/plan.js';
import type { Design, StatisticsOptions } from './schemas.js';
import type { Layout } from './layout.js';
import { slotsOf, widthOf } from './layout.js';
import { sqlIdHex } from '../config/d1-shards.js';

/** A `comparisons` row. */
export interface ComparisonRecord {
  id: string;
  tenant: string;
  candidates: string[];
  design: Design;
  orders: 1 | 2;
  itemsTotal: number;
  gate: Gate | null;
  statistics: StatisticsOptions;
  completedAt: number | null;
  /** The final statistics JSON, once stored. */
  result: string | null;
  gateOutcome: 'passed' | 'failed' | 'inconclusive' | null;
  createdAt: number;
}

interface ComparisonRow {
  id: string;
  tenant: string;
  candidates: string;
  design: string;
  orders: number;
  items_total: number;
  gate: string | null;
  statistics: string;
  completed_at: number | null;
  result: string | null;
  gate_outcome: 'passed' | 'failed' | 'inconclusive' | null;
  created_at: number;
}

const SELECT = `SELECT id, tenant, candidates, design, orders, items_total, gate, statistics, completed_at, result, gate_outcome,
  created_at FROM comparisons`;

function toRecord(r: ComparisonRow): ComparisonRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    candidates: JSON.parse(r.candidates) as string[],
    design: JSON.parse(r.design) as Design,
    orders: r.orders === 2 ? 2 : 1,
    itemsTotal: r.items_total,
    gate: r.gate === null ? null : (JSON.parse(r.gate) as Gate),
    statistics: JSON.parse(r.statistics) as StatisticsOptions,
    completedAt: r.completed_at,
    result: r.result,
    gateOutcome: r.gate_outcome,
    createdAt: r.created_at,
  };
}

/** The layout of a stored comparison. */
export function layoutOf(c: ComparisonRecord, pairs: Layout['pairs']): Layout {
  return { candidates: c.candidates, pairs, orders: c.orders };
}

/** Tenant `tenant`'s comparison `id`, or null. */
export async function getComparison(db: D1Database, tenant: string, id: string): Promise<ComparisonRecord | null> {
  const r = await db.prepare(`${SELECT} WHERE id = ? AND tenant = ?`).bind(id, tenant).first<ComparisonRow>();
  return r ? toRecord(r) : null;
}

/** When tenant `tenant`'s comparison `id` completed (epoch ms), null while it runs, undefined when there is none. */
export async function completedAtOf(db: D1Database, tenant: string, id: string): Promise<number | null | undefined> {
  const r = await db
    .prepare('SELECT completed_at FROM comparisons WHERE id = ? AND tenant = ?')
    .bind(id, tenant)
    .first<{ completed_at: number | null }>();
  return r ? r.completed_at : undefined;
}

/** The comparisons among `ids` (a page of batches), by id. */
export async function comparisonsByIds(db: D1Database, ids: readonly string[]): Promise<Map<string, ComparisonRecord>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare(`${SELECT} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(ids))
    .all<ComparisonRow>();
  return new Map(results.map((r) => [r.id, toRecord(r)]));
}

/** A new comparison's row. */
export interface NewComparison {
  id: string;
  tenant: string;
  candidates: readonly string[];
  design: Design;
  orders: 1 | 2;
  itemsTotal: number;
  gate: Gate | null;
  statistics: StatisticsOptions;
  now: number;
}

/** The comparison's row, guarded by {@link BATCH_INSERTED} (an idempotent replay inserts nothing). */
export function insertComparisonStatement(db: D1Database, c: NewComparison): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO comparisons (id, tenant, candidates, design, orders, items_total, gate, statistics, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${BATCH_INSERTED} ON CONFLICT DO NOTHING`,
    )
    .bind(
      c.id,
      c.tenant,
      JSON.stringify(c.candidates),
      JSON.stringify(c.design),
      c.orders,
      c.itemsTotal,
      c.gate ? JSON.stringify(c.gate) : null,
      JSON.stringify(c.statistics),
      c.now,
      c.now,
      c.id,
    );
}

/**
 * One item as the expansion reads it: `[position, id, the pairwise task without its answers, every
 * candidate's output in `candidates` order, the calls one pair evaluation plans]`, then, when the
 * comparison reads or writes the verdict cache, each slot's cache key in slot order.
 */
export type ExpansionItem =
  | [number, string, Record<string, unknown>, string[], number]
  | [number, string, Record<string, unknown>, string[], number, string[]];

/** What the expanded evaluations share. */
export interface Expansion {
  batchId: string;
  tenant: string;
  method: string;
  preset: string | null;
  config: unknown;
  keyId: string | null;
  /** The rubric every pair evaluation judges by, or null. */
  rubric: RubricStampRecord | null;
  /** What the verdict cache does for every pair evaluation (src/verdict-cache/plan.ts); the keys are the items'. */
  cacheMode: CacheDecision;
  /** The service tier of every pair evaluation, and what a flex refusal leads to (the batch's). */
  tier: Tier;
  flexFallback: FlexFallback;
  now: number;
}

/**
 * One statement inserting every pair evaluation of `items` (a chunk: keep its JSON under a bound value's
 * limit): one row per item and slot, its task the item's with the slot's two outputs as `answerA` and
 * `answerB`, at position item × width + slot offset. Guarded by {@link BATCH_INSERTED}.
 */
export function expandStatement(
  db: D1Database,
  layout: Layout,
  e: Expansion,
  items: readonly ExpansionItem[],
): D1PreparedStatement {
  const slots = JSON.stringify(slotsOf(layout).map((s) => [s.offset, s.shownA, s.shownB]));
  const output = (k: 1 | 2) => `json_extract(it.value, '$[3][' || json_extract(sl.value, '$[${k}]') || ']')`;
  return insertRowsSelectStatement(
    db,
    {
      id: `'ev_' || ${sqlIdHex(db)}`,
      tenant: '?',
      status: `'queued'`,
      method: '?',
      preset: '?',
      // Stored once by hash (src/evaluations/config-rows.ts), in the comparison's own transaction.
      config: "''",
      config_hash: '?',
      // Kept on the row (read there first: src/evaluations/task-rows.ts): the pairs' ids are made here, in SQL.
      task: `json_set(json_extract(it.value, '$[2]'), '$.answerA', ${output(1)}, '$.answerB', ${output(2)})`,
      task_kind: `json_extract(it.value, '$[2].kind')`,
      metadata: 'NULL',
      idempotency_key: 'NULL',
      request_hash: 'NULL',
      meta_id: 'NULL',
      calls_planned: `json_extract(it.value, '$[4]')`,
      webhook_url: 'NULL',
      batch_id: '?',
      batch_seq: `json_extract(it.value, '$[0]') * ${String(widthOf(layout))} + json_extract(sl.value, '$[0]')`,
      item_id: `json_extract(it.value, '$[1]')`,
      created_at: '?',
      updated_at: '?',
      key_id: '?',
      rubric_hash: '?',
      rubric_id: '?',
      rubric_version: '?',
      tier: '?',
      flex_fallback: '?',
      // The comparison's batch row holds the guarantee of certified mode; its pair evaluations read it there.
      certify: 'NULL',
      source: 'NULL',
      // As any evaluation's: a pair judged before by the same judge (same task, rubric, seed) is served from the cache.
      cache_mode: '?',
      cache_key: `json_extract(it.value, '$[5][' || json_extract(sl.value, '$[0]') || ']')`,
    },
    `FROM json_each(?) it, json_each(?) sl WHERE ${BATCH_INSERTED}`,
    [
      e.tenant,
      e.method,
      e.preset,
      configHashOf(e.config),
      e.batchId,
      e.now,
      e.now,
      e.keyId,
      // In the insert's column order (src/evaluations/insert-rows.ts): the cache mode, the tier's two, the rubric's three.
      e.cacheMode,
      e.tier,
      e.flexFallback,
      e.rubric?.hash ?? null,
      e.rubric?.id ?? null,
      e.rubric?.version ?? null,
      JSON.stringify(items),
      slots,
      e.batchId,
    ],
  );
}

/** One evaluation's outcome, by position. */
export interface OutcomeRow {
  batch_seq: number;
  item_id: string | null;
  id: string;
  status: string;
  winner: 'A' | 'B' | 'tie' | null;
  position_flip: number | null;
  error_code: string | null;
  error_message: string | null;
}

/** Outcomes of the evaluations at positions [from, to) of the comparison, in position order. */
export async function outcomesIn(db: D1Database, id: string, from: number, to: number): Promise<OutcomeRow[]> {
  const { results } = await db
    .prepare(
      `SELECT e.batch_seq, e.item_id, e.id, e.status, e.winner, e.position_flip, e.error_code, e.error_message
       FROM evaluations e
       WHERE e.batch_id = ? AND e.batch_seq >= ? AND e.batch_seq < ? ORDER BY e.batch_seq`,
    )
    .bind(id, from, to)
    .all<OutcomeRow>();
  return results;
}

/** Per pair offset (batch_seq % width) and winner: ended evaluations; for a large running comparison. */
export async function winnerCounts(
  db: D1Database,
  id: string,
  width: number,
): Promise<{ offset: number; winner: string | null; flip: number | null; n: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT e.batch_seq % ? AS offset, e.winner AS winner, e.position_flip AS flip, count(*) AS n
       FROM evaluations e
       WHERE e.batch_id = ? AND e.status IN ('succeeded', 'failed', 'cancelled')
       GROUP BY offset, e.winner, e.position_flip`,
    )
    .bind(width, id)
    .all<{ offset: number; winner: string | null; flip: number | null; n: number }>();
  return results;
}

/**
 * The ending effect's statement: the comparison of the ending's batch is marked completed in the
 * transaction whose ending completes the batch (`rows`: the batch's clause, see src/batches/progress.ts).
 */
export function markCompletingStatement(
  db: D1Database,
  rows: string,
  binds: readonly (string | number | null)[],
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE comparisons SET completed_at = ?, updated_at = ?
       WHERE completed_at IS NULL AND id = (SELECT b.id ${rows} AND b.kind = 'comparison')`,
    )
    .bind(now, now, ...binds);
}

/** The comparison id of evaluation `evaluationId`'s batch when it is completed and its result not stored yet. */
export async function unfinishedOf(
  db: D1Database,
  evaluationId: string,
): Promise<{ id: string; tenant: string } | null> {
  return db
    .prepare(
      `SELECT c.id, c.tenant FROM comparisons c
       WHERE c.id = (SELECT batch_id FROM evaluations WHERE id = ?) AND c.completed_at IS NOT NULL AND c.result IS NULL`,
    )
    .bind(evaluationId)
    .first<{ id: string; tenant: string }>();
}

/** Statement storing the final statistics once (a second writer changes nothing). */
export function storeResultStatement(
  db: D1Database,
  id: string,
  result: string,
  gateOutcome: string | null,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE comparisons SET result = ?, gate_outcome = ?, updated_at = ? WHERE id = ? AND result IS NULL AND completed_at IS NOT NULL`,
    )
    .bind(result, gateOutcome, now, id);
}

/** Comparisons completed before `before` whose statistics were never stored (oldest first, at most `limit`). */
export async function unfinishedBefore(db: D1Database, before: number, limit: number): Promise<ComparisonRecord[]> {
  const { results } = await db
    .prepare(
      `${SELECT} WHERE completed_at IS NOT NULL AND result IS NULL AND completed_at < ? ORDER BY completed_at LIMIT ?`,
    )
    .bind(before, limit)
    .all<ComparisonRow>();
  return results.map(toRecord);
}
