/**
 * @module
 * Reading and cancelling evaluations behind the thin route handlers: an evaluation as the API shows it (D1 plus
 * the Durable Object's live progress while running, its verdict where D1 or the object keeps it), its task, its
 * transcript, its links, waiting for its end, and cancel. Creating one is ./service.ts.
 */
import type { Bindings } from '../config/bindings.js';
import { evaluationStub } from './stub.js';
import type { EvaluationSnapshot } from './rpc.js';
import { progressOf } from './progress.js';
import type { EvaluationRecord, EvaluationWithResults, EvaluationWithResultsText } from './rows.js';
import { errorOf } from './job-rows.js';
import { parseResults, getEvaluation, getUsageSums, getVerdictJson, readWithResults } from './rows.js';
import type { TranscriptRow } from './transcript-rows.js';
import { listTranscript, transcriptMessageOf } from './transcript-rows.js';
import { objectVerdictJson, readTaskJson } from './content.js';
import { ApiError } from '../http/errors.js';
import type { Evaluation, EvaluationAccepted, EvaluationStatus, EvaluationTaskSchema } from './schemas.js';
import { storedVerdictSummary, TranscriptSchema } from './schemas.js';
import { TaskSchema } from '../engine/task.js';
import { isTerminal } from './status.js';
import { log, messageOf } from '../log/log.js';
import type { z } from 'zod';
import { stabilityOfDetails } from '../metrics/stability.js';
import { certifiedFields } from './certified.js';
import { cacheViewOf } from '../verdict-cache/schemas.js';
import { recordDbOf } from '../config/d1-shards.js';

/** Relative links of an evaluation (every view and the answer that creates it carry them). */
export function linksOf(id: string): EvaluationAccepted['links'] {
  const self = `/v1/evaluations/${id}`;
  return { self, events: `${self}/events`, transcript: `${self}/transcript`, cancel: `${self}/cancel` };
}

/**
 * Waits up to `timeoutMs` for evaluation `id` to end (its Durable Object answers once the final D1 write
 * is done) and returns it as `GET /v1/evaluations/{id}` shows it; null when it has not ended by then or
 * the object could not be asked (the caller answers 202: the evaluation runs on, nothing is lost).
 */
export async function awaitEnded(
  env: Bindings,
  tenant: string,
  id: string,
  timeoutMs: number,
): Promise<Evaluation | null> {
  let ended: EvaluationWithResultsText | undefined;
  try {
    const result = await evaluationStub(env, id).awaitEnd(id, timeoutMs);
    if (result.status === 'not_found' || !isTerminal(result.status)) return null;
    ended = result.ended;
  } catch (err) {
    log('warn', 'api.await_end_failed', { evaluationId: id, error: messageOf(err) });
    return null;
  }
  return await endedView(env, tenant, id, ended);
}

/**
 * The ended evaluation as `GET /v1/evaluations/{id}` shows it; null unless it has ended in D1.
 * @param known the evaluation as the object's final write read it back (`StatusResult.ended`); else read from D1.
 */
export async function endedView(
  env: Bindings,
  tenant: string,
  id: string,
  known?: EvaluationWithResultsText,
): Promise<Evaluation | null> {
  const read =
    known && known.row.id === id && known.row.tenant === tenant
      ? parseResults(known)
      : await readWithResults(recordDbOf(env, tenant, id), tenant, id);
  return read && read.row.deletedAt === null && isTerminal(read.row.status)
    ? viewEvaluation(env, read.row, read)
    : null;
}

/** The evaluation or 404 `not_found` (also once the caller deleted it: `DELETE /v1/evaluations/{id}`). */
export async function requireEvaluation(env: Bindings, tenant: string, id: string): Promise<EvaluationRecord> {
  const row = await getEvaluation(recordDbOf(env, tenant, id), tenant, id);
  if (!row) throw new ApiError(404, 'not_found', `no evaluation "${id}"`);
  if (row.deletedAt !== null) throw new ApiError(404, 'not_found', `evaluation "${id}" was deleted`);
  return row;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * The evaluation as `GET /v1/evaluations/{id}` shows it.
 * @param read its verdict JSON and usage sums when the caller read them with the row ({@link readWithResults})
 * @param snap the object's snapshot when the caller asked it already (./progress.ts `runningSnapshot`: null when it
 *   could not answer); default: asked here while the row says running
 */
export async function viewEvaluation(
  env: Bindings,
  row: EvaluationRecord,
  read?: Omit<EvaluationWithResults, 'row'>,
  snap?: EvaluationSnapshot | null,
): Promise<Evaluation> {
  const succeeded = row.status === 'succeeded' && row.deletedAt === null;
  const [shownProgress, verdictJson, usage] = await Promise.all([
    progressOf(env, row, snap),
    // D1 keeps a verdict's JSON only where its own queries read it; else the evaluation's object has it.
    (async () => {
      const inD1 = read
        ? read.verdictJson
        : succeeded
          ? await getVerdictJson(recordDbOf(env, row.tenant, row.id), row.id)
          : null;
      return inD1 === null && succeeded ? await objectVerdictJson(env, row.id) : inD1;
    })(),
    read ? read.usage : getUsageSums(recordDbOf(env, row.tenant, row.id), row.id),
  ]);
  const verdict = verdictJson === null ? null : storedVerdictSummary(verdictJson);
  if (verdictJson !== null && verdict === null) log('error', 'api.stored_verdict_invalid', { evaluationId: row.id });
  return {
    id: row.id,
    status: row.status,
    method: row.method,
    preset: row.preset,
    taskKind: row.taskKind,
    metadata: row.metadata,
    progress: shownProgress,
    verdict,
    usage,
    cache: cacheViewOf(row),
    error: errorOf(row.errorCode, row.errorMessage),
    metaId: row.metaId,
    batchId: row.batchId,
    tier: row.tier,
    flexFallback: row.flexFallback,
    rubric: row.rubric,
    stability: verdict ? stabilityOfDetails(verdict.details) : null,
    guarantee: row.certify,
    ...certifiedFields(row.certify, row.status, verdict?.details),
    source: row.source,
    createdAt: iso(row.createdAt) ?? '',
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    links: linksOf(row.id),
  };
}

/**
 * The task as submitted (`GET /v1/evaluations/{id}/task`); null when it is no longer kept or does not parse.
 * @param taskJson the stored task JSON when the caller read it already (the archive's batched reads)
 */
export async function viewTask(
  env: Bindings,
  row: EvaluationRecord,
  taskJson?: unknown,
): Promise<z.infer<typeof EvaluationTaskSchema>> {
  const parsed = TaskSchema.safeParse(
    taskJson === undefined ? await readTaskJson(env, recordDbOf(env, row.tenant, row.id), row.id) : taskJson,
  );
  return { id: row.id, task: parsed.success ? parsed.data : null };
}

/**
 * The stored transcript; `complete` once the pipeline's final write has landed. The object keeps the
 * transcript its final write built; an evaluation that ended before it did has its rows in D1, which win.
 * For an ended evaluation both are read at once, in one round trip (the object holds none before its final
 * write, so a running one is not asked). A success shows in D1 with that write; a cancel or failure shows in D1 first and the calls
 * still in flight follow, so for those the object is asked (an object that is gone has nothing left to write).
 * @param rowsInD1 its rows in D1 when the caller read them already (the archive's batched reads)
 */
export async function viewTranscript(
  env: Bindings,
  row: EvaluationRecord,
  rowsInD1?: TranscriptRow[],
): Promise<z.infer<typeof TranscriptSchema>> {
  if (!isTerminal(row.status))
    return {
      id: row.id,
      status: row.status,
      complete: false,
      messages: await listTranscript(recordDbOf(env, row.tenant, row.id), row.id),
    };
  const stub = evaluationStub(env, row.id);
  const [inD1, kept, complete] = await Promise.all([
    rowsInD1 ?? listTranscript(recordDbOf(env, row.tenant, row.id), row.id),
    stub.transcript(),
    row.status === 'succeeded' ? true : stub.snapshot().then((s) => s?.finalized ?? true),
  ]);
  return {
    id: row.id,
    status: row.status,
    complete,
    messages: inD1.length > 0 ? inD1 : (kept ?? []).map(transcriptMessageOf),
  };
}

/**
 * Cancels through the Durable Object (which marks D1 `cancelled`, also for a job still queued).
 * @throws ApiError 409 `already_ended` when the evaluation ended before the cancel took effect.
 */
export async function cancelEvaluation(
  env: Bindings,
  row: EvaluationRecord,
  reason: string | undefined,
): Promise<{ id: string; status: EvaluationStatus }> {
  if (isTerminal(row.status)) throw alreadyEnded(row.id, row.status);
  const r = await evaluationStub(env, row.id).cancel(row.id, reason);
  if (r.status === 'not_found') throw new ApiError(404, 'not_found', `no evaluation "${row.id}"`);
  if (r.status !== 'cancelled') throw alreadyEnded(row.id, r.status);
  return { id: row.id, status: 'cancelled' };
}

function alreadyEnded(id: string, status: EvaluationStatus): ApiError {
  return new ApiError(409, 'already_ended', `evaluation "${id}" has already ended (${status})`);
}
