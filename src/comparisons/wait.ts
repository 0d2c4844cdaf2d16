/**
 * @module
 * `POST /v1/comparisons` with `Prefer: wait`: the answer waits, up to the preference, for the comparison
 * to end, so a CI runner that cannot receive `comparison.completed` gets the gate in the response.
 *
 * A comparison has no object of its own to wait on (its evaluations each have one; the ending that completes
 * its batch marks the `comparisons` row in its transaction), so the wait reads that row's `completed_at`,
 * backing off from 50 ms to 1 s: one small indexed read each time, at most about 70 over the longest wait.
 */
import { backoffDelay } from '../backoff/backoff.js';
import type { Bindings } from '../config/bindings.js';
import { completedAtOf } from './rows.js';
import type { Comparison } from './answer-schemas.js';
import { requireComparison, viewComparison } from './service.js';
import { tenantDb } from '../config/d1-shards.js';

/** The poll's backoff, ms: 50, 100, 200, … up to 1 s. */
const POLL = { base: 50, max: 1_000 } as const;

/**
 * The comparison as `GET /v1/comparisons/{id}` shows it once it has ended (its final statistics and gate,
 * computed and stored here if the after-commit step has not yet), or null when it has not ended within
 * `timeoutMs`.
 */
export async function awaitComparisonEnded(
  env: Bindings,
  tenant: string,
  id: string,
  timeoutMs: number,
): Promise<Comparison | null> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const completedAt = await completedAtOf(tenantDb(env, tenant), tenant, id);
    if (completedAt === undefined) return null;
    if (completedAt !== null) return await viewComparison(env, await requireComparison(env, tenant, id));
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, backoffDelay(attempt, POLL))));
  }
}
