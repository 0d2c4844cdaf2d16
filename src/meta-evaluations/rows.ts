/**
 * @module
 * D1 access for meta-evaluations. A meta-evaluation is a labelled batch (src/batches): its batch row and
 * item evaluations are written by the batch machinery, and these statements add, in the same transaction,
 * what is particular to it: the `meta_evaluations` row (same id as the batch) for the agreement report
 * and the item links with the human labels. Also: the rows the agreement report needs, and storing the
 * report once. Times are epoch milliseconds.
 */
import { BATCH_INSERTED } from '../batches/rows.js';
import type { EvaluationStatus } from '../evaluations/status.js';
import type { Tier } from '../llm/tiers.js';

/** One labelled item linked to its evaluation. */
export interface NewMetaItem {
  itemId: string;
  evaluationId: string;
  /** Human label: `A` | `B` | `tie` or a score. */
  human: string | number;
  /** Human scores per aspect, or null. */
  humanAspects: Readonly<Record<string, number>> | null;
  group: string | null;
}

/** What a new meta-evaluation adds to its batch. */
export interface NewMetaEvaluation {
  /** The batch's id. */
  id: string;
  tenant: string;
  preset: string | null;
  /** Resolved method config shared by every item. */
  config: unknown;
  items: NewMetaItem[];
  /** Times each item is judged (default 1). */
  repeats?: number;
  now: number;
}

/**
 * The meta row and the item links, for the batch's own transaction: each statement inserts only when the
 * batch row was inserted in it (an `Idempotency-Key` replay writes nothing). The links go as one JSON
 * array expanded by `json_each` (3 bound parameters, whatever the item count).
 */
export function metaStatements(db: D1Database, m: NewMetaEvaluation): D1PreparedStatement[] {
  const links = m.items.map((r) => ({
    i: r.itemId,
    e: r.evaluationId,
    h: JSON.stringify(r.human),
    a: r.humanAspects === null ? null : JSON.stringify(r.humanAspects),
    g: r.group,
  }));
  return [
    db
      .prepare(
        `INSERT INTO meta_evaluations (id, tenant, status, preset, config, items_total, repeats, created_at, updated_at)
         SELECT ?, ?, 'running', ?, ?, ?, ?, ?, ? WHERE ${BATCH_INSERTED}`,
      )
      .bind(m.id, m.tenant, m.preset, JSON.stringify(m.config), m.items.length, m.repeats ?? 1, m.now, m.now, m.id),
    db
      .prepare(
        `INSERT INTO meta_evaluation_items (meta_id, item_id, evaluation_id, human, human_aspects, group_key)
         SELECT ?, json_extract(value, '$.i'), json_extract(value, '$.e'), json_extract(value, '$.h'), json_extract(value, '$.a'),
           json_extract(value, '$.g')
         FROM json_each(?) WHERE ${BATCH_INSERTED}`,
      )
      .bind(m.id, JSON.stringify(links), m.id),
  ];
}

/** A `meta_evaluations` row. */
export interface MetaRecord {
  id: string;
  tenant: string;
  status: 'running' | 'succeeded' | 'failed';
  preset: string | null;
  /** Method id, from the stored config. */
  method: string;
  itemsTotal: number;
  /** Stored report JSON text, or null until every item ended. */
  report: string | null;
  /** Times each item is judged. */
  repeats: number;
  /** Stored reliability report JSON text (repeats > 1), or null until every repeat ended. */
  reliability: string | null;
  /** The latest cascade calibration (JSON text), or null. */
  calibration: string | null;
  /** The resolved judge config (JSON text). */
  config: string;
  createdAt: number;
  /** The service tier of its items (its batch row's). */
  tier: Tier;
}

/** The meta-evaluation `id` of `tenant`, or null. */
export async function getMeta(db: D1Database, tenant: string, id: string): Promise<MetaRecord | null> {
  const row = await db
    .prepare(
      `SELECT id, tenant, status, preset, json_extract(config, '$.method') AS method, items_total, report, repeats,
              reliability, calibration, config, created_at,
              COALESCE((SELECT tier FROM batches WHERE batches.id = meta_evaluations.id), 'standard') AS tier
       FROM meta_evaluations WHERE id = ? AND tenant = ?`,
    )
    .bind(id, tenant)
    .first<{
      id: string;
      tenant: string;
      status: MetaRecord['status'];
      preset: string | null;
      method: string;
      items_total: number;
      report: string | null;
      repeats: number;
      reliability: string | null;
      calibration: string | null;
      config: string;
      created_at: number;
      tier: Tier;
    }>();
  return row
    ? {
        id: row.id,
        tenant: row.tenant,
        status: row.status,
        preset: row.preset,
        method: row.method,
        itemsTotal: row.items_total,
        report: row.report,
        repeats: row.repeats,
        reliability: row.reliability,
        calibration: row.calibration,
        config: row.config,
        createdAt: row.created_at,
        tier: row.tier,
      }
    : null;
}

/** One item with its evaluation's status and verdict fields (null until a verdict exists). */
export interface MetaItemOutcome {
  itemId: string;
  evaluationId: string;
  status: EvaluationStatus;
  human: 'A' | 'B' | 'tie' | number;
  group: string | null;
  winner: 'A' | 'B' | 'tie' | null;
  score: number | null;
  positionFlip: boolean | null;
  /** False when no vote of the verdict parsed: its winner is a rule's default (e.g. ChatEval's tie), not a judgement. */
  decided: boolean;
  /** Human scores per aspect, or null. */
  humanAspects: Record<string, number> | null;
  /** The verdict's score per aspect (a multi-aspect judge), or null. */
  aspectScores: Record<string, number | null> | null;
}

/** Every item of a meta-evaluation with its outcome, in item-id order. */
export async function listMetaItems(db: D1Database, metaId: string): Promise<MetaItemOutcome[]> {
  const { results } = await db
    .prepare(
      `SELECT i.item_id, i.evaluation_id, e.status, i.human, i.human_aspects, i.group_key, e.winner, e.score, e.position_flip,
              json_extract(vt.verdict, '$.aspects') AS aspects,
              EXISTS (SELECT 1 FROM json_each(vt.verdict, '$.votes') WHERE json_extract(value, '$.parsed') = 1) AS decided
       FROM meta_evaluation_items i
       JOIN evaluations e ON e.id = i.evaluation_id
       LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE i.meta_id = ? ORDER BY i.item_id`,
    )
    .bind(metaId)
    .all<{
      item_id: string;
      evaluation_id: string;
      status: EvaluationStatus;
      human: string;
      human_aspects: string | null;
      group_key: string | null;
      winner: 'A' | 'B' | 'tie' | null;
      score: number | null;
      position_flip: number | null;
      aspects: string | null;
      decided: number;
    }>();
  return results.map((r) => ({
    itemId: r.item_id,
    evaluationId: r.evaluation_id,
    status: r.status,
    human: JSON.parse(r.human) as MetaItemOutcome['human'],
    group: r.group_key,
    winner: r.winner,
    score: r.score,
    positionFlip: r.position_flip === null ? null : r.position_flip !== 0,
    decided: r.decided === 1,
    humanAspects: r.human_aspects === null ? null : (JSON.parse(r.human_aspects) as Record<string, number>),
    aspectScores: r.aspects === null ? null : scoresByAspect(JSON.parse(r.aspects)),
  }));
}

/** A stored verdict's `aspects` (`[{name, score}]`) as a score per aspect name. */
function scoresByAspect(aspects: unknown): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  if (!Array.isArray(aspects)) return out;
  for (const a of aspects as { name?: unknown; score?: unknown }[])
    if (typeof a.name === 'string') out[a.name] = typeof a.score === 'number' ? a.score : null;
  return out;
}

/**
 * Stores the agreement report and the final status once; a concurrent second writer changes nothing.
 * @returns true when this call stored it.
 */
export async function storeMetaReport(
  db: D1Database,
  id: string,
  status: 'succeeded' | 'failed',
  report: unknown,
  now: number,
): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE meta_evaluations SET report = ?, status = ?, updated_at = ? WHERE id = ? AND report IS NULL`)
    .bind(JSON.stringify(report), status, now, id)
    .run();
  return r.meta.changes > 0;
}

/** One repeat of an item: its evaluation's status and verdict fields. */
export interface RepeatRow {
  item_id: string;
  status: EvaluationStatus;
  winner: 'A' | 'B' | 'tie' | null;
  position_flip: number | null;
  /** The verdict's votes (JSON text), or null without a verdict. */
  votes: string | null;
}

/** Every evaluation of the meta-evaluation's batch (every repeat of every item), in position order. */
export async function listRepeats(db: D1Database, metaId: string): Promise<RepeatRow[]> {
  const { results } = await db
    .prepare(
      `SELECT e.item_id, e.status, e.winner, e.position_flip, json_extract(vt.verdict, '$.votes') AS votes
       FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE e.batch_id = ? ORDER BY e.batch_seq`,
    )
    .bind(metaId)
    .all<RepeatRow>();
  return results;
}

/** Stores the reliability report once (a second writer changes nothing). */
export async function storeReliability(db: D1Database, id: string, report: unknown, now: number): Promise<void> {
  await db
    .prepare(`UPDATE meta_evaluations SET reliability = ?, updated_at = ? WHERE id = ? AND reliability IS NULL`)
    .bind(JSON.stringify(report), now, id)
    .run();
}

/** One item of a calibration run: its human label (JSON), status, and verdict's winner, confidence and details (JSON). */
export interface CalibrationRow {
  human: string;
  status: EvaluationStatus;
  winner: 'A' | 'B' | 'tie' | null;
  confidence: number | null;
  details: string | null;
}

/** Every labelled item's human label, status and verdict details (JSON text), for a cascade calibration. */
export async function listCalibrationItems(db: D1Database, metaId: string): Promise<CalibrationRow[]> {
  const { results } = await db
    .prepare(
      `SELECT i.human, e.status, e.winner, e.confidence, json_extract(vt.verdict, '$.details') AS details
       FROM meta_evaluation_items i JOIN evaluations e ON e.id = i.evaluation_id
       LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE i.meta_id = ? ORDER BY i.item_id`,
    )
    .bind(metaId)
    .all<CalibrationRow>();
  return results;
}

/** Stores the latest calibration. */
export async function storeCalibration(db: D1Database, id: string, calibration: unknown, now: number): Promise<void> {
  await db
    .prepare(`UPDATE meta_evaluations SET calibration = ?, updated_at = ? WHERE id = ?`)
    .bind(JSON.stringify(calibration), now, id)
    .run();
}
