/**
 * @module
 * D1 access for annotation queues (migrations/0015_annotation_queues.sql): queues, their items and the
 * labels on them. Every read of a queue is scoped to the tenant; items and labels are reached through their
 * queue. Callers pass the tenant's database (`tenantDb`). Times are epoch milliseconds.
 */
import type { Task } from '../engine/task.js';
import type { Label, Provenance } from './schemas.js';
import { taskKindSql, taskSql } from '../evaluations/task-rows.js';

/** An `annotation_queues` row. */
export interface QueueRecord {
  id: string;
  tenant: string;
  name: string;
  rubricId: string;
  rubricVersion: number;
  kind: 'pairwise' | 'pointwise';
  labelsPerItem: number;
  blind: boolean;
  itemsTotal: number;
  requestHash: string | null;
  createdAt: number;
}

interface QueueRow {
  id: string;
  tenant: string;
  name: string;
  rubric_id: string;
  rubric_version: number;
  kind: 'pairwise' | 'pointwise';
  labels_per_item: number;
  blind: number;
  items_total: number;
  request_hash: string | null;
  created_at: number;
}

const QUEUE_COLUMNS =
  'id, tenant, name, rubric_id, rubric_version, kind, labels_per_item, blind, items_total, request_hash, created_at';

function toQueue(r: QueueRow): QueueRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.name,
    rubricId: r.rubric_id,
    rubricVersion: r.rubric_version,
    kind: r.kind,
    labelsPerItem: r.labels_per_item,
    blind: r.blind !== 0,
    itemsTotal: r.items_total,
    requestHash: r.request_hash,
    createdAt: r.created_at,
  };
}

/** One item of a new queue. */
export interface NewItem {
  itemId: string;
  task: Task;
  evaluationId: string | null;
  /** The judge's verdict as a label (items from evaluations), stored as a `judge` label; null: none. */
  judge: Label | null;
}

/** A new queue with its items. */
export interface NewQueue extends Omit<QueueRecord, 'itemsTotal' | 'createdAt'> {
  idempotencyKey: string | null;
  items: readonly NewItem[];
  now: number;
}

/** Who a judge label from a queue's source evaluation is recorded as. */
export const SOURCE_JUDGE = 'judge';

/**
 * Inserts the queue, its items and their judge labels in one transaction. With an idempotency key already
 * used by the tenant, the queue row is ignored and so is everything guarded by it (nothing is written).
 * Items and labels go as one JSON array each, expanded by `json_each`.
 * @returns whether the queue was inserted.
 */
export async function insertQueue(db: D1Database, q: NewQueue): Promise<boolean> {
  const inserted = `EXISTS (SELECT 1 FROM annotation_queues WHERE id = ?)`;
  const items = q.items.map((it, idx) => ({ i: it.itemId, x: idx, t: JSON.stringify(it.task), e: it.evaluationId }));
  const judged = q.items.flatMap((it) => (it.judge ? [{ i: it.itemId, l: JSON.stringify(it.judge) }] : []));
  const results = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO annotation_queues (${QUEUE_COLUMNS}, idempotency_key, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        q.id,
        q.tenant,
        q.name,
        q.rubricId,
        q.rubricVersion,
        q.kind,
        q.labelsPerItem,
        q.blind ? 1 : 0,
        q.items.length,
        q.requestHash,
        q.now,
        q.idempotencyKey,
        q.now,
      ),
    db
      .prepare(
        `INSERT INTO annotation_items (queue_id, item_id, idx, task, evaluation_id, created_at)
         SELECT ?, json_extract(value, '$.i'), json_extract(value, '$.x'), json_extract(value, '$.t'), json_extract(value, '$.e'), ?
         FROM json_each(?) WHERE ${inserted}`,
      )
      .bind(q.id, q.now, JSON.stringify(items), q.id),
    db
      .prepare(
        `INSERT INTO annotation_labels (queue_id, item_id, annotator, role, provenance, label, comment, created_at, updated_at)
         SELECT ?, json_extract(value, '$.i'), ?, 'annotator', 'judge', json_extract(value, '$.l'), NULL, ?, ?
         FROM json_each(?) WHERE ${inserted}`,
      )
      .bind(q.id, SOURCE_JUDGE, q.now, q.now, JSON.stringify(judged), q.id),
  ]);
  return (results[0]?.meta.changes ?? 0) > 0;
}

/** The tenant's queue `id`, or null. */
export async function getQueue(db: D1Database, tenant: string, id: string): Promise<QueueRecord | null> {
  const row = await db
    .prepare(`SELECT ${QUEUE_COLUMNS} FROM annotation_queues WHERE id = ? AND tenant = ?`)
    .bind(id, tenant)
    .first<QueueRow>();
  return row ? toQueue(row) : null;
}

/** The tenant's queue created with `Idempotency-Key` `key`, or null. */
export async function findQueueByKey(db: D1Database, tenant: string, key: string): Promise<QueueRecord | null> {
  const row = await db
    .prepare(`SELECT ${QUEUE_COLUMNS} FROM annotation_queues WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<QueueRow>();
  return row ? toQueue(row) : null;
}

/** One page (plus one) of the tenant's queues, newest first, after the position `after` when given. */
export async function listQueues(
  db: D1Database,
  tenant: string,
  after: { createdAt: number; id: string } | null,
  limit: number,
): Promise<QueueRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT ${QUEUE_COLUMNS} FROM annotation_queues
       WHERE tenant = ? AND (created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(
      tenant,
      after?.createdAt ?? Number.MAX_SAFE_INTEGER,
      after?.createdAt ?? Number.MAX_SAFE_INTEGER,
      after?.id ?? '',
      limit + 1,
    )
    .all<QueueRow>();
  return results.map(toQueue);
}

/** The tenant's queues labelled by rubric `rubricId` (version `version` only, when given), oldest first. */
export async function queuesOfRubric(
  db: D1Database,
  tenant: string,
  rubricId: string,
  version: number | null,
): Promise<QueueRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT ${QUEUE_COLUMNS} FROM annotation_queues
       WHERE tenant = ? AND rubric_id = ? AND (? IS NULL OR rubric_version = ?) ORDER BY created_at, id`,
    )
    .bind(tenant, rubricId, version, version)
    .all<QueueRow>();
  return results.map(toQueue);
}

/** An item row. */
export interface ItemRecord {
  itemId: string;
  idx: number;
  task: Task;
  evaluationId: string | null;
}

/** Every item of queue `queueId` in its order (or the one item `itemId`). */
export async function listItems(db: D1Database, queueId: string, itemId?: string): Promise<ItemRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT item_id, idx, task, evaluation_id FROM annotation_items
       WHERE queue_id = ? AND (? IS NULL OR item_id = ?) ORDER BY idx`,
    )
    .bind(queueId, itemId ?? null, itemId ?? null)
    .all<{ item_id: string; idx: number; task: string; evaluation_id: string | null }>();
  return results.map((r) => ({
    itemId: r.item_id,
    idx: r.idx,
    task: JSON.parse(r.task) as Task,
    evaluationId: r.evaluation_id,
  }));
}

/** A label row. */
export interface LabelRecord {
  itemId: string;
  annotator: string;
  role: 'annotator' | 'adjudicator';
  provenance: Provenance;
  label: Label;
  comment: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Every label of queue `queueId` (or of its item `itemId`), by item then time. */
export async function listLabels(db: D1Database, queueId: string, itemId?: string): Promise<LabelRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT item_id, annotator, role, provenance, label, comment, created_at, updated_at FROM annotation_labels
       WHERE queue_id = ? AND (? IS NULL OR item_id = ?) ORDER BY item_id, created_at, annotator`,
    )
    .bind(queueId, itemId ?? null, itemId ?? null)
    .all<{
      item_id: string;
      annotator: string;
      role: LabelRecord['role'];
      provenance: Provenance;
      label: string;
      comment: string | null;
      created_at: number;
      updated_at: number;
    }>();
  return results.map((r) => ({
    itemId: r.item_id,
    annotator: r.annotator,
    role: r.role,
    provenance: r.provenance,
    label: JSON.parse(r.label) as Label,
    comment: r.comment,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

/** One label to write. */
export interface NewLabel {
  itemId: string;
  annotator: string;
  role: 'annotator' | 'adjudicator';
  provenance: Provenance;
  label: Label;
  comment: string | null;
}

/**
 * Writes labels of queue `queueId`: one per (item, role, annotator); a later label by the same annotator
 * replaces the earlier one (a correction). The same label again changes nothing, not even `updated_at`.
 */
export async function upsertLabels(
  db: D1Database,
  queueId: string,
  labels: readonly NewLabel[],
  now: number,
): Promise<void> {
  if (labels.length === 0) return;
  const rows = labels.map((l) => ({
    i: l.itemId,
    a: l.annotator,
    r: l.role,
    p: l.provenance,
    l: JSON.stringify(l.label),
    c: l.comment,
  }));
  await db
    .prepare(
      `INSERT INTO annotation_labels (queue_id, item_id, annotator, role, provenance, label, comment, created_at, updated_at)
       SELECT ?, json_extract(value, '$.i'), json_extract(value, '$.a'), json_extract(value, '$.r'), json_extract(value, '$.p'),
         json_extract(value, '$.l'), json_extract(value, '$.c'), ?, ?
       FROM json_each(?) WHERE true
       ON CONFLICT (queue_id, item_id, role, annotator) DO UPDATE SET
         provenance = excluded.provenance, label = excluded.label, comment = excluded.comment, updated_at = excluded.updated_at
       WHERE annotation_labels.label IS NOT excluded.label OR annotation_labels.comment IS NOT excluded.comment
         OR annotation_labels.provenance IS NOT excluded.provenance`,
    )
    .bind(queueId, now, now, JSON.stringify(rows))
    .run();
}

/**
 * The first item (in queue order) `annotator` has not labelled that still waits for labels (fewer than
 * `labelsPerItem` annotators' labels, judges not counted, no adjudicator's), and how many such items there are.
 */
export async function nextItemFor(
  db: D1Database,
  queueId: string,
  annotator: string,
  labelsPerItem: number,
): Promise<{ item: ItemRecord | null; remaining: number }> {
  const { results } = await db
    .prepare(
      `SELECT item_id, idx, task, evaluation_id, COUNT(*) OVER () AS remaining FROM annotation_items i
       WHERE queue_id = ?
         AND NOT EXISTS (SELECT 1 FROM annotation_labels l WHERE l.queue_id = i.queue_id AND l.item_id = i.item_id
                         AND (l.annotator = ? AND l.role = 'annotator' OR l.role = 'adjudicator'))
         AND (SELECT COUNT(*) FROM annotation_labels l WHERE l.queue_id = i.queue_id AND l.item_id = i.item_id
              AND l.role = 'annotator' AND l.provenance != 'judge') < ?
       ORDER BY idx LIMIT 1`,
    )
    .bind(queueId, annotator, labelsPerItem)
    .all<{ item_id: string; idx: number; task: string; evaluation_id: string | null; remaining: number }>();
  const r = results[0];
  if (!r) return { item: null, remaining: 0 };
  return {
    item: { itemId: r.item_id, idx: r.idx, task: JSON.parse(r.task) as Task, evaluationId: r.evaluation_id },
    remaining: r.remaining,
  };
}

/** A succeeded evaluation a queue can take as an item, with its verdict. */
export interface SourceEvaluation {
  id: string;
  /** The task JSON text D1 keeps; null when only its object holds it (src/evaluations/content.ts reads it). */
  task: string | null;
  winner: 'A' | 'B' | 'tie' | null;
  score: number | null;
  /** The verdict's `aspects` (JSON text, `[{name, score}]`), or null. */
  aspects: string | null;
  /** The rubric it judged by (its `rubric_*` columns; the hash null for none): whose question the verdict answers. */
  rubric_hash: string | null;
  rubric_id: string | null;
  rubric_version: number | null;
  /** When it was created, epoch ms: the order pages from several shards merge by. */
  created_at: number;
}

/** What {@link sourceEvaluations} selects. */
export interface SourceFilter {
  kind: 'pairwise' | 'pointwise';
  batch?: string | undefined;
  rubricId?: string | undefined;
  rubricVersion?: number | undefined;
  /** Every entry must be in the evaluation's metadata (values compared as text). */
  metadata?: Readonly<Record<string, string>> | undefined;
  limit: number;
}

/**
 * The tenant's succeeded evaluations of the filter's task kind with their verdicts, newest first; deleted ones
 * and ones whose content was erased (retention) are left out.
 */
export async function sourceEvaluations(db: D1Database, tenant: string, f: SourceFilter): Promise<SourceEvaluation[]> {
  const entries = Object.entries(f.metadata ?? {});
  const { results } = await db
    .prepare(
      `SELECT e.id, ${taskSql('e')} AS task, e.winner, e.score, json_extract(vt.verdict, '$.aspects') AS aspects,
         e.rubric_hash, e.rubric_id, e.rubric_version, e.created_at
       FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE e.tenant = ? AND e.status = 'succeeded' AND e.deleted_at IS NULL AND e.content_erased_at IS NULL
         AND ${taskKindSql('e')} = ?
         AND (? IS NULL OR e.batch_id = ?) AND (? IS NULL OR e.rubric_id = ?) AND (? IS NULL OR e.rubric_version = ?)
         AND (SELECT COUNT(*) FROM json_each(?) w JOIN json_each(COALESCE(e.metadata, '{}')) m
              ON m.key = w.key AND CAST(m.value AS TEXT) = w.value) = ?
       ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    )
    .bind(
      tenant,
      f.kind,
      f.batch ?? null,
      f.batch ?? null,
      f.rubricId ?? null,
      f.rubricId ?? null,
      f.rubricVersion ?? null,
      f.rubricVersion ?? null,
      JSON.stringify(Object.fromEntries(entries)),
      entries.length,
      f.limit,
    )
    .all<SourceEvaluation>();
  return results;
}
