/**
 * @module
 * An evaluation's progress while it runs: the Durable Object counts its calls (D1's `calls_done` is written
 * lazily), so `GET /v1/evaluations/{id}` asks it.
 */
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import type { EvaluationSnapshot } from './rpc.js';
import type { EvaluationRecord } from './rows.js';
import type { Evaluation } from './schemas.js';
import { evaluationStub } from './stub.js';

/**
 * The object's snapshot of running evaluation `id`, or null when it cannot answer (logged) or never started it.
 */
export async function runningSnapshot(env: Bindings, id: string): Promise<EvaluationSnapshot | null> {
  try {
    return await evaluationStub(env, id).snapshot();
  } catch (err) {
    log('warn', 'api.snapshot_failed', { evaluationId: id, error: messageOf(err) });
    return null;
  }
}

/**
 * Progress while running comes from the Durable Object (D1's `calls_done` is written lazily, `snap` when the
 * caller asked it already); when the object cannot answer, D1's figures are shown rather than failing the read.
 */
export async function progressOf(
  env: Bindings,
  row: EvaluationRecord,
  snap?: EvaluationSnapshot | null,
): Promise<Evaluation['progress']> {
  const fromD1 = { callsDone: row.callsDone, callsPlanned: row.callsPlanned };
  if (row.status !== 'running') return fromD1;
  const s = snap === undefined ? await runningSnapshot(env, row.id) : snap;
  return s ? { callsDone: s.callsDone, callsPlanned: s.callsPlanned } : fromD1;
}
