/**
 * @module
 * The batch's window in D1: claiming the items that fit (`sent` moved up to the ended items plus `concurrency`,
 * the claimed range's queued items read back with their jobs, in ONE transaction), alone (./pump.ts) or with the
 * ending that counts in the batch row (./progress.ts) or an item's final write. A batch with a budget is claimed
 * by ./budget-claims.ts instead. The batch's own row and its other reads: ./rows.ts.
 */
import type { StartJob } from '../evaluations/job-rows.js';
import { rubricContentSql } from '../evaluations/job-rows.js';
import { configSql } from '../evaluations/config-rows.js';
import { taskSql } from '../evaluations/task-rows.js';
import { admitSelectedStatement, admittedBy, markedRunningBy } from '../evaluations/admission.js';
import { hitColumns, hitOf } from '../verdict-cache/hit.js';
import { cacheEntrySql } from '../verdict-cache/rows.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
/** Whose window to top up: a batch, or the batch of an evaluation that just ended. */
export type PumpTarget = { batchId: string } | { evaluationId: string };

/**
 * Claims the items that fit in the batch's window, in ONE round trip: moves `sent` up to
 * `ended + concurrency` (at most every item), then reads the still-queued items of the claimed range
 * [old sent, new sent). Nothing is claimed when the window is full, the batch has completed or a cancel was
 * asked. Atomic (one transaction): concurrent callers claim disjoint ranges.
 * @returns the batch and the claimed ids in request order, with their jobs (what the object's start needs,
 *   so it need not read them again); empty when nothing was claimed.
 */
export async function claimWindow(db: D1Database, target: PumpTarget): Promise<WindowClaim> {
  const claim = claimWindowStatements(db, target);
  return claim.read(await db.batch(claim.statements)).claim;
}

/** What a window claim handed over: the batch and the claimed ids in request order, with their jobs. */
export interface WindowClaim {
  /** The batch, or null when nothing was claimed. */
  batchId: string | null;
  ids: string[];
  /** What each claimed item's object needs to start (so it need not read it again). */
  jobs: StartJob[];
  /** The batch's id when it has a budget: ./budget-claims.ts claims it instead (nothing was claimed here). */
  budgeted: string | null;
}

/** The end of a batch row's window: every item, or its ended items (`more` endings not counted yet) plus its width. */
const windowEnd = (more: 0 | 1) => `MIN(items_total, succeeded + failed + cancelled + ${more} + concurrency)`;

/** A batch row whose window the claims here top up: open, no cancel asked, no budget (./budget-claims.ts claims those). */
const CLAIMABLE = 'completed_at IS NULL AND cancel_requested_at IS NULL AND budget IS NULL';

/**
 * SET terms (bind `token` once) for the UPDATE that counts an ending in its batch row (./progress.ts): the same
 * write claims the window's next items as {@link claimWindowStatements} would (its UPDATE, run after with
 * `token`, then finds the window full and writes nothing, and its reads find this claim). One row written per
 * ending where the count and the claim were two. SQLite evaluates every term on the row as it was, so the
 * window counts this ending (`more` 1) and `sent_from` takes the old `sent`.
 */
export function claimWithCountTerms(): string {
  const claims = `${CLAIMABLE} AND sent < ${windowEnd(1)}`;
  return `sent_from = CASE WHEN ${claims} THEN sent ELSE sent_from END,
    sent = CASE WHEN ${claims} THEN ${windowEnd(1)} ELSE sent END,
    claim_token = CASE WHEN ${claims} THEN ? ELSE claim_token END`;
}

/** A window claim as statements for any D1 batch, and how to read their results (in their order). */
export interface ClaimStatements {
  statements: D1PreparedStatement[];
  /** The claim, and the claimed item the same transaction admitted to a running slot (null: none, or not asked). */
  read(results: readonly (D1Result | undefined)[]): { claim: WindowClaim; admitted: string | null };
}

/**
 * {@link claimWindow} as statements, to run in any D1 batch (an item's final write claims the next items in its
 * own transaction). With `admit`, one more statement gives the first claimed item a running slot under its
 * tenant's cap and marks it running (src/evaluations/admission.ts): its job says so (`markedRunning`), as the
 * caller starts its object once the transaction committed.
 */
export function claimWindowStatements(
  db: D1Database,
  target: PumpTarget,
  admit?: { defaultMaxRunning: number; now: number },
  token: string = crypto.randomUUID(),
): ClaimStatements {
  const key = 'batchId' in target ? target.batchId : target.evaluationId;
  // The batch's id, from its key bound as parameter `p` (`?`, or a numbered `?1`).
  const whichAt = (p: string) => ('batchId' in target ? p : `(SELECT batch_id FROM evaluations WHERE id = ${p})`);
  const which = whichAt('?');
  // The claimed range's queued items of batch `b`.
  const inRange = `e.batch_id = b.id AND e.batch_seq >= b.sent_from AND e.batch_seq < b.sent AND e.status = 'queued'`;
  // The claim's own token: the read finds the range only if this UPDATE (or the ending's count with the same
  // token, ./progress.ts) wrote it, not an older claim.
  const claimed = `FROM batches b JOIN evaluations e ON ${inRange}
         WHERE b.id = ${which} AND b.claim_token = ?
         ORDER BY e.batch_seq`;
  const statements = [
    db
      .prepare(
        `UPDATE batches SET sent_from = sent, sent = ${windowEnd(0)}, claim_token = ?
         WHERE id = ${which} AND ${CLAIMABLE} AND sent < ${windowEnd(0)}`,
      )
      .bind(token, key),
    // The claimed items, and whether the batch has a budget: ./budget-claims.ts claims such a batch (each item
    // with its grant) instead. One read for both (a row with no item for an open batch with a budget), where
    // they were two statements of every claim.
    db
      .prepare(
        `SELECT b.id AS batch_id, b.budget IS NOT NULL AND b.completed_at IS NULL AS budgeted, e.id, e.tenant, e.method,
           ${configSql('e')} AS config, ${taskSql('e')} AS task, e.tier, e.flex_fallback,
           ${rubricContentSql('e')} AS rubric, ${hitColumns('e')}, ${cacheEntrySql('e')} AS cache_entry
         FROM batches b LEFT JOIN evaluations e ON b.claim_token = ?2 AND ${inRange}
         WHERE b.id = ${whichAt('?1')} AND (b.claim_token = ?2 OR b.budget IS NOT NULL AND b.completed_at IS NULL)
         ORDER BY e.batch_seq`,
      )
      .bind(key, token),
    ...(admit
      ? [admitSelectedStatement(db, `SELECT e.id ${claimed} LIMIT 1`, [key, token], admit.defaultMaxRunning, admit.now)]
      : []),
  ];
  return {
    statements,
    read: (results) => {
      const claim = claimOf(results);
      const admitted = admit ? admittedBy(results[2]) : null;
      // The admission marked it running too (./pump.ts starts it now): its object writes no mark of its own.
      if (admitted !== null && markedRunningBy(results[2]))
        claim.jobs = claim.jobs.map((j) => (j.id === admitted ? { ...j, markedRunning: true } : j));
      return { claim, admitted };
    },
  };
}

/** The claim in the results of the first two {@link claimWindowStatements}. */
function claimOf([, claimed]: readonly (D1Result | undefined)[]): WindowClaim {
  const read = (claimed?.results ?? []) as {
    batch_id: string;
    budgeted: number;
    id: string | null;
    tenant: string;
    method: string;
    config: string;
    task: string | null;
    cache_from: string | null;
    cached_verdict: string | null;
    cache_entry: number;
    tier: Tier;
    flex_fallback: FlexFallback;
    rubric: string | null;
  }[];
  const rows = read.flatMap((r) => (r.id === null ? [] : [{ ...r, id: r.id }]));
  const first = read[0];
  const budgetedId = first?.budgeted === 1 ? first.batch_id : null;
  return {
    batchId: rows[0]?.batch_id ?? null,
    ids: rows.map((r) => r.id),
    jobs: rows.map((r) => ({
      id: r.id,
      tenant: r.tenant,
      method: r.method,
      config: r.config,
      // A queued item's task waits in D1 (src/evaluations/task-rows.ts); none reads as a failed start.
      task: r.task ?? 'null',
      batchId: r.batch_id,
      cached: hitOf(r),
      cacheEntry: r.cache_entry === 1,
      tier: r.tier,
      flexFallback: r.flex_fallback,
      rubric: r.rubric,
    })),
    budgeted: budgetedId,
  };
}
