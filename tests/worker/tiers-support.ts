/**
 * @module
 * Shared by the tier suites (tiers-flex, tiers-batch): an evaluation's calls as billed (kept by its object), and the failed
 * attempts each lists with their tiers.
 */
import type { LlmAttempt } from '../../src/engine/call.js';
import type { BilledCallRow } from './helpers.js';
import { billedCalls } from './helpers.js';

/** A billed call's billing columns (kept by the evaluation's object). */
export type UsageRow = BilledCallRow;

/** The evaluation's billed calls, by call id. */
export const usageRows = (id: string): Promise<UsageRow[]> => billedCalls(id);

/** The failed attempts a billed call lists (before the one that answered). */
export const failedOf = (u: UsageRow): LlmAttempt[] =>
  u.failed_attempts ? (JSON.parse(u.failed_attempts) as LlmAttempt[]) : [];
