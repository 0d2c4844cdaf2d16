/**
 * @module
 * `GET /v1/traces/{traceId}`: the trace's object asked for its spans in tree order and the evaluations recorded
 * on it; their statuses and verdicts read from the tenant's D1 by id (src/evaluations/source.ts).
 */
import type { z } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { ApiError } from '../http/errors.js';
import type { TraceEvaluation } from '../evaluations/source.js';
import { traceEvaluations } from '../evaluations/source.js';
import { traceStub } from './rpc.js';
import type { TraceSchema } from './schemas.js';
import type { StoredTrace } from './store.js';

/**
 * The tenant's trace.
 * @throws ApiError 404 when the tenant has no span of it (yet: spans are stored a moment after the export).
 */
export async function readTrace(env: Bindings, tenant: string, traceId: string): Promise<z.infer<typeof TraceSchema>> {
  const text = await traceStub(env, tenant, traceId).read(tenant);
  const stored = text === null ? null : (JSON.parse(text) as StoredTrace);
  if (!stored || stored.spans.length === 0) throw new ApiError(404, 'not_found', `no trace ${traceId} for this tenant`);
  const evaluations = await traceEvaluations(
    env,
    tenant,
    stored.evaluations.map((l) => l.evaluationId),
  );
  const bySpan = new Map<string | null, TraceEvaluation[]>();
  for (const e of evaluations) bySpan.set(e.spanId, [...(bySpan.get(e.spanId) ?? []), e]);
  return {
    traceId,
    rootSpanId: stored.rootSpanId,
    spanCount: stored.spans.length,
    spans: stored.spans.map((s) => ({ ...s, evaluations: bySpan.get(s.spanId) ?? [] })),
    evaluations: bySpan.get(null) ?? [],
  };
}
