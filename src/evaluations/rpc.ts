/**
 * @module
 * The contract of an evaluation's Durable Object as its callers see it (API, queue consumers, sweeper):
 * the RPC methods and their result types, and the header that carries the evaluation id to its
 * `fetch`. It imports no Durable Object, so callers and the object both depend on this module and
 * never on each other; `EvaluationDO` `implements` {@link EvaluationRpc}.
 */
import type { EvaluationWithResultsText } from './rows.js';
import type { StartJob } from './job-rows.js';
import type { HeldAdmission, HeldInsert } from './held-types.js';
import type { TranscriptRow } from './transcript-rows.js';
import type { EvaluationError } from './live-events.js';
import type { EvaluationStatus } from './status.js';

/**
 * Request header carrying the evaluation id to the object's `fetch`: an object addressed by
 * `idFromName` cannot rely on `ctx.id.name` (it may be undefined in production), and on an object that
 * never ran the evaluation the id is needed to look the row up in D1. The object checks it against its
 * own id, so a client-supplied value cannot point it elsewhere; `forwardEvents` always overwrites it.
 */
export const EVALUATION_ID_HEADER = 'X-Tribunal-Evaluation-Id';

/** What `snapshot()` returns for progress (`GET /v1/evaluations/:id`). */
export interface EvaluationSnapshot {
  status: EvaluationStatus;
  /** LLM results stored so far (repairs included). */
  callsDone: number;
  /** Planned first-attempt calls (repairs excluded), so `callsDone` may exceed it. */
  callsPlanned: number;
  /** Epoch ms when the object started the evaluation. */
  startedAt: number;
  /** Epoch ms of the last stored result or status change. */
  updatedAt: number;
  /**
   * The engine version the evaluation runs under, `<engine>/<method>@<version>` (src/engine/version.ts);
   * absent for an evaluation that ended before it ran here.
   */
  engineVersion?: string;
  error?: EvaluationError;
  /**
   * True once the final D1 write (transcript, usage, verdict) has landed, or when there was nothing to
   * write (ended before it ran here). A cancel shows in D1 before it: calls in flight are written after.
   */
  finalized: boolean;
}

/** One stored call with its timing, for benchmarks and debugging (see `timings()`). */
export interface CallTiming {
  callId: string;
  ok: boolean;
  /** Epoch ms just before the LLM function was called. */
  startedAt: number;
  /** Epoch ms when the result was stored. */
  finishedAt: number;
  /** The LLM layer's wall time including its retries, ms (null when it did not report one). */
  latencyMs: number | null;
  /** Attempts the LLM layer made. */
  attempts: number;
}

/** Outcome of `start`, `cancel`, `fail` and `erase`: the status after the call; `not_found` when D1 has no such evaluation. */
export interface StatusResult {
  status: EvaluationStatus | 'not_found';
  /**
   * `awaitEnd` / `startAndAwait` once it ended: the evaluation as D1 had it right after the final write
   * (read in that write's own transaction), so the API answers `Prefer: wait` without reading it again.
   * Absent when the object did not read it (nobody was waiting when it ended here, or it ended elsewhere).
   */
  ended?: EvaluationWithResultsText;
}

/** What the object keeps of an evaluation's content, as JSON text; each null when it holds none (never started here, or erased). */
export interface StoredContent {
  /** The task as submitted. */
  task: string | null;
  /** The verdict (without transcript) once the protocol concluded. */
  verdict: string | null;
}

/** What {@link EvaluationRpc.admitHeld} did: the insert's outcome and, when it started the evaluation, its status. */
export type HeldAdmitted = HeldInsert & { started?: StatusResult };

/** The RPC methods of the evaluation's Durable Object. Every method checks `id` against the object's own id. */
export interface EvaluationRpc {
  /**
   * Starts the evaluation (idempotent). `job` is the row as just inserted (the API's fast start) and
   * saves a D1 read; its status, if any, is ignored.
   */
  start(id: string, job?: StartJob): Promise<StatusResult>;
  /** Cancels: no new LLM calls; calls in flight are stored and billed. No-op once ended. */
  cancel(id: string, reason?: string): Promise<StatusResult>;
  /** Ends as failed with a pipeline reason (e.g. `queue_delivery_failed`) unless already ended. */
  fail(id: string, error: EvaluationError): Promise<StatusResult>;
  /**
   * Waits up to `timeoutMs` for the evaluation to end with its final D1 write done, and returns its
   * status then (a terminal one), or the status at the timeout. For the API's `Prefer: wait`; it starts
   * nothing and changes nothing.
   */
  awaitEnd(id: string, timeoutMs: number): Promise<StatusResult>;
  /**
   * {@link start}, then, when this call started it, its first step right away instead of one alarm hop
   * later, then {@link awaitEnd} up to `timeoutMs`: the API's fast start under `Prefer: wait`, one round
   * trip instead of two. A watchdog alarm resumes the work if the object dies mid-step.
   */
  startAndAwait(id: string, job: StartJob, timeoutMs: number): Promise<StatusResult>;
  /**
   * A new single evaluation's fast start, the object holding its task before D1 knows it (./held-start.ts): stores
   * the job (a watchdog alarm armed), inserts the row without a waiting copy of the task, then, when the insert
   * admitted it, starts it as {@link startAndAwait} does (`started`). A replay of another evaluation's
   * idempotency key leaves nothing here.
   */
  admitHeld(id: string, held: HeldAdmission, timeoutMs: number): Promise<HeldAdmitted>;
  /**
   * Erases the evaluation's data in the object (data retention): cancels it first if it has not ended;
   * config, task and results go once the owed final write (usage for billing) has landed; the terminal
   * status stays. Idempotent.
   */
  erase(id: string): Promise<StatusResult>;
  /** Progress, or null when this object never heard of an evaluation. */
  snapshot(): Promise<EvaluationSnapshot | null>;
  /** Stored calls with their timing, in recording order. */
  timings(): Promise<CallTiming[]>;
  /**
   * The transcript the final write stored here (every reply with its call's usage, in recording order), or null
   * before the final write, after an erase, or on an object that never ran the evaluation.
   */
  transcript(): Promise<TranscriptRow[] | null>;
  /** The task and verdict this object holds: D1 keeps neither once its final write landed (./task-rows.ts). */
  content(): Promise<StoredContent>;
}
