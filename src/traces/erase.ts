/**
 * @module
 * `DELETE /v1/traces/{traceId}`: the trace's texts erased everywhere they live. The evaluations made of it (a
 * monitor's, or one created with `source`) hold its texts in their tasks: each is deleted as
 * `DELETE /v1/evaluations/{id}` deletes it; then the trace's object erases its spans, its monitors' records and
 * its index row, and keeps a tombstone (in the object until the retention's deadline the trace had; in D1 for
 * `TOMBSTONE_TTL_MS`, ./index-rows.ts), so a span arriving later is dropped and a repeat answers 204; then the
 * evaluations in D1 whose `source.traceId` is the trace and the object never recorded (a link that failed, or one
 * made around the erase) are deleted too.
 */
import type { Bindings } from '../config/bindings.js';
import { ApiError } from '../http/errors.js';
import { deleteEvaluation, listEvaluationsView } from '../evaluations/list.js';
import { traceStub } from './rpc.js';

/**
 * Erases the tenant's trace (see the module note). Idempotent: a failure part way leaves the rest to a repeat.
 * @throws ApiError 404 when the tenant never had a span of it (nor an evaluation recorded on it).
 */
export async function eraseTrace(env: Bindings, tenant: string, traceId: string): Promise<void> {
  const stub = traceStub(env, tenant, traceId);
  // The evaluations first: the object forgets which they are when it erases itself.
  for (const link of (await stub.links(tenant)) ?? []) {
    try {
      await deleteEvaluation(env, tenant, link.evaluationId);
    } catch (e) {
      // Recorded on the trace before its creation committed: nothing of it to erase.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  if (!(await stub.erase(tenant))) throw new ApiError(404, 'not_found', `no trace ${traceId} for this tenant`);
  // After the tombstone: those the object never linked (a link that failed, or one made around the erase).
  await eraseBySource(env, tenant, traceId);
}

/** Evaluations per page {@link eraseBySource} lists: 100, the listing's largest. */
const SOURCE_PAGE = 100;

/** Deletes the tenant's evaluations (in D1) whose `source.traceId` is `traceId`, page by page. */
async function eraseBySource(env: Bindings, tenant: string, traceId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await listEvaluationsView(env, tenant, { traceId, limit: SOURCE_PAGE, cursor });
    for (const e of page.data) await deleteEvaluation(env, tenant, e.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
