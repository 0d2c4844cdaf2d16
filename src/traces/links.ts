/**
 * @module
 * An evaluation made of a trace recorded on the trace's own object, so the trace lists it without a table
 * across tenants (src/evaluations/source.ts holds the source itself, in the evaluation's row).
 */
import type { Bindings } from '../config/bindings.js';
import type { EvaluationSource } from '../evaluations/source.js';
import { traceStub } from './rpc.js';

/** Records evaluation `evaluationId` of `tenant` on the trace its `source` names (idempotent). */
export async function linkToTrace(
  env: Bindings,
  tenant: string,
  evaluationId: string,
  source: EvaluationSource,
): Promise<void> {
  await traceStub(env, tenant, source.traceId).link(tenant, source.traceId, {
    evaluationId,
    spanId: source.spanId,
    monitorId: source.monitorId,
  });
}
