/**
 * @module
 * The plain data of a single evaluation's held fast start (./held-start.ts): what the API hands the object and what
 * the object's insert answers. Types alone, so the RPC interface (./rpc.ts) names them without importing the
 * insert's statements (and, through them, the stub).
 */
import type { InsertDecisions, NewEvaluation } from './insert-rows.js';
import type { EvaluationRecord } from './rows.js';
import type { StartJob } from './job-rows.js';
import type { EvaluationStatus } from './status.js';
import type { hitOf } from '../verdict-cache/hit.js';

/** The row a fast start's insert admitted, read back (`admittedRowStatement`): its status and its verdict cache hit. */
export type AdmittedRow = Parameters<typeof hitOf>[0] & { status: EvaluationStatus };

/** What the API hands the object of a new single evaluation: plain data (it crosses the RPC). */
export interface HeldAdmission {
  /** What the object runs; its `cached` and `markedRunning` come from the insert's admitted row. */
  job: StartJob;
  /**
   * The row to insert, without the task and config `job` carries as JSON text (sent once: ./held-start.ts
   * `heldAdmissionOf`); its task goes into the object alone.
   */
  row: Omit<NewEvaluation, 'task' | 'config'>;
  /**
   * The task's kind, the one thing of the task the row keeps (`task_kind`); null without one. Absent when an API
   * from before it was sent (it sent the row whole): for a deploy's overlap, when a Worker and its objects run
   * different versions, the object reads the kind from the job's task.
   */
  taskKind?: string | null;
  /** The slot and the verdict cache hit the insert decides (./insert-rows.ts). */
  decisions: InsertDecisions;
  /** The row that already counts it against the monthly cap (`CreatorInfo.countedBy`, ./service.ts); absent: none. */
  countedBy?: string;
}

/**
 * What the object's insert did: inserted (with the row it admitted to a running slot, or null at the cap) or not
 * (`existing`: the row holding the idempotency key, or the row of this id inserted earlier).
 */
export type HeldInsert =
  { inserted: true; admitted: AdmittedRow | null } | { inserted: false; existing: EvaluationRecord | null };
