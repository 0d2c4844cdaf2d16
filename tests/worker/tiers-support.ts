/**
 * @module
 * Shared by the tier suites (tiers-flex, tiers-batch): an evaluation's usage rows as billed, and the failed
 * attempts each lists with their tiers.
 */
import type { LlmAttempt } from '../../src/engine/call.js';
import { testEnv } from './helpers.js';

/** A `usage` row's billing columns. */
export interface UsageRow {
  call_id: string;
  tier: string;
  cost_usd: number;
  attempts: number;
  failed_attempts: string | null;
}

/** The evaluation's usage rows, by call id. */
export async function usageRows(id: string): Promise<UsageRow[]> {
  const r = await testEnv.DB.prepare(
    'SELECT call_id, tier, cost_usd, attempts, failed_attempts FROM usage WHERE evaluation_id = ? ORDER BY call_id',
  )
    .bind(id)
    .all<UsageRow>();
  return r.results;
}

/** The failed attempts a usage row lists (before the one that answered). */
export const failedOf = (u: UsageRow): LlmAttempt[] =>
  u.failed_attempts ? (JSON.parse(u.failed_attempts) as LlmAttempt[]) : [];
