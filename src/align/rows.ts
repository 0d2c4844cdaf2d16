/**
 * @module
 * D1 access for alignments (migrations/0024_alignments.sql). Callers pass the tenant's database (`tenantDb`);
 * every read is scoped to the tenant. Times are epoch milliseconds.
 */
import type { Task } from '../engine/task.js';
import type { RubricThresholds } from '../engine/thresholds.js';
import type { AlignMethod } from './schemas.js';
import type { HeldOut } from './core.js';

/**
 * A labelled item as the job snapshots it: the queue's item id, the task, the human label (pairwise: the winner;
 * pointwise: the score, null when only aspects were labelled, and the aspects' scores).
 */
export interface AlignItem {
  itemId: string;
  task: Task;
  human: 'A' | 'B' | 'tie' | number | null;
  /** Pointwise: the human's score per aspect, by name; absent or null without. */
  humanAspects?: Record<string, number> | null;
}

/** The judge of every run of a job. */
export interface AlignJudge {
  preset: string | null;
  config: Record<string, unknown> | null;
}

/** A candidate criteria (with `thresholds`: its cut-offs) and, for `auto`, its validation run and κ. */
export interface Candidate {
  method: AlignMethod;
  criteria: string;
  thresholds?: RubricThresholds;
  run?: string;
  kappa?: number | null;
}

/** What the job has made so far, each step's product (see the migration's note). */
export interface AlignSteps {
  /** The meta-evaluation that judged every item with the base version. */
  baseRun?: string;
  /** `instructions`: the `rubric-steps` evaluation that wrote the rules (per learning set: `train` or `learn`). */
  rewrites?: Partial<Record<'train' | 'learn', string>>;
  /** The candidates (`auto`: each method that fits, judged on the validation items). */
  candidates?: Candidate[];
  /** The candidate kept. */
  chosen?: Candidate;
  /** The version created from it. */
  version?: number;
  /** The meta-evaluation that judged the held-out items with the new version. */
  heldOutRun?: string;
}

/** What a succeeded job found. */
export interface AlignResult {
  heldOut: HeldOut;
  tagMoved: boolean;
  tagReason: string;
}

/** An `alignments` row. */
export interface AlignmentRecord {
  id: string;
  tenant: string;
  rubricId: string;
  baseVersion: number;
  queueId: string;
  method: AlignMethod;
  holdout: number;
  tag: string;
  judge: AlignJudge;
  keyId: string | null;
  items: AlignItem[];
  status: 'running' | 'succeeded' | 'failed';
  steps: AlignSteps;
  result: AlignResult | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: string;
  tenant: string;
  rubric_id: string;
  base_version: number;
  queue_id: string;
  method: AlignMethod;
  holdout: number;
  tag: string;
  judge: string;
  key_id: string | null;
  items: string;
  status: AlignmentRecord['status'];
  steps: string;
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

function toRecord(r: Row): AlignmentRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    rubricId: r.rubric_id,
    baseVersion: r.base_version,
    queueId: r.queue_id,
    method: r.method,
    holdout: r.holdout,
    tag: r.tag,
    judge: JSON.parse(r.judge) as AlignJudge,
    keyId: r.key_id,
    items: JSON.parse(r.items) as AlignItem[],
    status: r.status,
    steps: JSON.parse(r.steps) as AlignSteps,
    result: r.result === null ? null : (JSON.parse(r.result) as AlignResult),
    errorCode: r.error_code,
    errorMessage: r.error_message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A new job, `running` with no step done. */
export type NewAlignment = Pick<
  AlignmentRecord,
  'id' | 'tenant' | 'rubricId' | 'baseVersion' | 'queueId' | 'method' | 'holdout' | 'tag' | 'judge' | 'keyId' | 'items'
> & { now: number };

/** Inserts a job. */
export async function insertAlignment(db: D1Database, a: NewAlignment): Promise<void> {
  await db
    .prepare(
      `INSERT INTO alignments (id, tenant, rubric_id, base_version, queue_id, method, holdout, tag, judge, key_id, items,
         status, steps, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', '{}', ?, ?)`,
    )
    .bind(
      a.id,
      a.tenant,
      a.rubricId,
      a.baseVersion,
      a.queueId,
      a.method,
      a.holdout,
      a.tag,
      JSON.stringify(a.judge),
      a.keyId,
      JSON.stringify(a.items),
      a.now,
      a.now,
    )
    .run();
}

/** The tenant's job `id` of rubric `rubricId`, or null. */
export async function getAlignment(
  db: D1Database,
  tenant: string,
  rubricId: string,
  id: string,
): Promise<AlignmentRecord | null> {
  const row = await db
    .prepare('SELECT * FROM alignments WHERE id = ? AND tenant = ? AND rubric_id = ?')
    .bind(id, tenant, rubricId)
    .first<Row>();
  return row ? toRecord(row) : null;
}

/** The tenant's job `id`, or null. */
export async function getAlignmentById(db: D1Database, tenant: string, id: string): Promise<AlignmentRecord | null> {
  const row = await db.prepare('SELECT * FROM alignments WHERE id = ? AND tenant = ?').bind(id, tenant).first<Row>();
  return row ? toRecord(row) : null;
}

/** Records a running job's steps; false when it has ended meanwhile. */
export async function storeSteps(db: D1Database, id: string, steps: AlignSteps, now: number): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE alignments SET steps = ?, updated_at = ? WHERE id = ? AND status = 'running'`)
    .bind(JSON.stringify(steps), now, id)
    .run();
  return r.meta.changes > 0;
}

/** Ends a running job: `succeeded` with its result, or `failed` with its cause; false when it had ended. */
export async function endAlignment(
  db: D1Database,
  id: string,
  end: { result: AlignResult } | { code: string; message: string },
  now: number,
): Promise<boolean> {
  const r =
    'result' in end
      ? await db
          .prepare(
            `UPDATE alignments SET status = 'succeeded', result = ?, updated_at = ? WHERE id = ? AND status = 'running'`,
          )
          .bind(JSON.stringify(end.result), now, id)
          .run()
      : await db
          .prepare(
            `UPDATE alignments SET status = 'failed', error_code = ?, error_message = ?, updated_at = ?
             WHERE id = ? AND status = 'running'`,
          )
          .bind(end.code, end.message, now, id)
          .run();
  return r.meta.changes > 0;
}

/** Touches a running job (a read that re-queued it), so the next read waits its grace again. */
export async function touchAlignment(db: D1Database, id: string, now: number): Promise<void> {
  await db.prepare(`UPDATE alignments SET updated_at = ? WHERE id = ? AND status = 'running'`).bind(now, id).run();
}

/**
 * Records what a running job waits on (a meta-evaluation's id, or an evaluation's), before it looks whether that
 * ended, so an ending committed after the look finds it (see {@link alignmentsResumedBy}).
 */
export async function markWaiting(db: D1Database, id: string, on: string, now: number): Promise<void> {
  await db
    .prepare(`UPDATE alignments SET waiting_on = ?, updated_at = ? WHERE id = ? AND status = 'running'`)
    .bind(on, now, id)
    .run();
}

/** The running jobs the ending of evaluation `evaluationId` woke (see ./queue.ts). */
export async function alignmentsWokenBy(
  db: D1Database,
  evaluationId: string,
): Promise<{ id: string; tenant: string }[]> {
  const { results } = await db
    .prepare(`SELECT id, tenant FROM alignments WHERE woken_by = ? AND status = 'running'`)
    .bind(evaluationId)
    .all<{ id: string; tenant: string }>();
  return results;
}
