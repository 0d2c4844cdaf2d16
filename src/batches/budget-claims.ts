/**
 * @module
 * A batch's budget (`budget` on `POST /v1/batches`, the same `BudgetSchema` as an evaluation's), on the
 * rules of src/budgets/batch-shares.ts:
 * - at submit (`checkBatchBudget`, ./budget-check.ts): the batch is estimated as `POST /v1/estimates` would (an even
 *   sample scaled to every item); a limit that not even the cheapest run of every item fits is a 400
 *   naming `budget.<limit>`, nothing created;
 * - at launch ({@link claimBudgeted}, the window's claim for a batch with a budget): each item is launched
 *   only while `batchMayLaunch` allows it, with `itemBudget` (a share of what is left) as its own
 *   `config.budget`, which the Durable Object enforces call by call; that grant is added to the batch's
 *   `reserved_*` counters in the same transaction that claims the item;
 * - at each ending ({@link budgetEndTerms}, part of the progress end effect's count): the item's usage joins
 *   `spent_*` and its grant leaves `reserved_*`, once (guarded like every end effect);
 * - once nothing is left and no item runs, the batch is marked `budget_exhausted_at` and its items never
 *   launched end `failed` with `budget_exceeded` (the cancel fan-out, ./pump.ts), so the batch completes.
 * The grants of the items in flight never sum past what is left, so what the batch spends never passes
 * its budget (a cancelled item's calls still in flight when it ended are billed after its release).
 */
import { configSql } from '../evaluations/config-rows.js';
import type { Ending } from '../evaluations/ending.js';
import { bookedSql, bookedValue } from '../evaluations/ending.js';
import { batchMayLaunch, itemBudget, reservationOf } from '../budgets/batch-shares.js';
import type { Budget, BudgetLimit, Spend } from '../engine/budget.js';
import { addSpend, BUDGET_EXCEEDED, BudgetSchema } from '../engine/budget.js';
import type { EvaluationError } from '../evaluations/live-events.js';

/** The error of an item never launched because its batch's budget was used up. */
export const BATCH_BUDGET_ERROR: EvaluationError = {
  code: BUDGET_EXCEEDED,
  message: 'the batch budget was used up before this item was launched',
};

/** The batch row's budget state. */
interface BudgetRow {
  budget: string;
  spent_calls: number;
  spent_tokens: number;
  spent_cost_usd: number;
  reserved_calls: number;
  reserved_tokens: number;
  reserved_cost_usd: number;
  sent: number;
  ended: number;
  items_total: number;
  concurrency: number;
}

/** What a budgeted claim did: the ids it launched, or that it found the budget used up (and marked it). */
export interface BudgetedClaim {
  ids: string[];
  exhausted: boolean;
}

/** Attempts of an optimistic claim before giving up (the next ending or the sweeper pumps again): 5. */
const CLAIM_ATTEMPTS = 5;

/** The grants for up to `free` items: while the batch may launch, each a share of what is left. */
export function grantsFor(
  budget: Budget,
  spent: Spend,
  reserved: Spend,
  free: number,
  parallel: number,
  inFlight: number,
): Budget[] {
  const grants: Budget[] = [];
  let held = reserved;
  for (let i = 0; i < free; i++) {
    if (!batchMayLaunch(budget, spent, held).ok) break;
    let grant = itemBudget(budget, spent, held, 1 / Math.max(1, parallel));
    // Too little left to share: one item at a time, with all of it.
    if (grant === null && inFlight === 0 && grants.length === 0) grant = itemBudget(budget, spent, held, 1);
    if (grant === null) break;
    grants.push(grant);
    held = addSpend(held, reservationOf(grant));
  }
  return grants;
}

/**
 * Claims the items of budgeted batch `batchId` that fit its window and its budget, each with its grant
 * (see the module note). Optimistic: the claim holds only if `sent` did not move since the read.
 */
export async function claimBudgeted(db: D1Database, batchId: string, now = Date.now()): Promise<BudgetedClaim> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const b = await db
      .prepare(
        `SELECT budget, spent_calls, spent_tokens, spent_cost_usd, reserved_calls, reserved_tokens, reserved_cost_usd, sent,
           succeeded + failed + cancelled AS ended, items_total, concurrency FROM batches
         WHERE id = ? AND budget IS NOT NULL AND completed_at IS NULL AND cancel_requested_at IS NULL AND budget_exhausted_at IS NULL`,
      )
      .bind(batchId)
      .first<BudgetRow>();
    if (!b) return { ids: [], exhausted: false };
    const free = Math.min(b.items_total, b.ended + b.concurrency) - b.sent;
    if (free <= 0) return { ids: [], exhausted: false };
    const budget = BudgetSchema.parse(JSON.parse(b.budget));
    const spent: Spend = { calls: b.spent_calls, tokens: b.spent_tokens, costUsd: b.spent_cost_usd };
    const reserved: Spend = { calls: b.reserved_calls, tokens: b.reserved_tokens, costUsd: b.reserved_cost_usd };
    const inFlight = b.sent - b.ended;
    const grants = grantsFor(budget, spent, reserved, free, Math.min(b.concurrency, b.items_total - b.ended), inFlight);
    if (grants.length === 0) {
      if (inFlight > 0) return { ids: [], exhausted: false };
      const r = await db
        .prepare(
          'UPDATE batches SET budget_exhausted_at = ?, updated_at = ? WHERE id = ? AND sent = ? AND budget_exhausted_at IS NULL AND completed_at IS NULL',
        )
        .bind(now, now, batchId, b.sent)
        .run();
      if (r.meta.changes > 0) return { ids: [], exhausted: true };
      continue;
    }
    const add = grants.map(reservationOf).reduce(addSpend);
    const token = crypto.randomUUID();
    const mine = 'EXISTS (SELECT 1 FROM batches WHERE id = ? AND claim_token = ?)';
    const results = await db.batch([
      db
        .prepare(
          `UPDATE batches SET sent_from = sent, sent = sent + ?, claim_token = ?, reserved_calls = reserved_calls + ?,
             reserved_tokens = reserved_tokens + ?, reserved_cost_usd = reserved_cost_usd + ?, updated_at = ?
           WHERE id = ? AND sent = ? AND completed_at IS NULL AND cancel_requested_at IS NULL AND budget_exhausted_at IS NULL`,
        )
        .bind(grants.length, token, add.calls, add.tokens, add.costUsd, now, batchId, b.sent),
      ...grants.map((g, i) =>
        db
          .prepare(
            // The grant is the item's own column (its config is stored once by hash: src/evaluations/config-rows.ts);
            // a row from before that keeps its config inline and takes the grant there too.
            `UPDATE evaluations SET budget = json(?1),
               config = CASE WHEN config_hash IS NULL THEN json_set(config, '$.budget', json(?1)) ELSE config END
             WHERE batch_id = ?2 AND batch_seq = ?3 AND status = 'queued' AND EXISTS (SELECT 1 FROM batches WHERE id = ?2 AND claim_token = ?4)`,
          )
          .bind(JSON.stringify(g), batchId, b.sent + i, token),
      ),
      db
        .prepare(
          `SELECT e.id FROM evaluations e WHERE e.batch_id = ? AND e.batch_seq >= ? AND e.batch_seq < ? AND e.status = 'queued' AND ${mine}
           ORDER BY e.batch_seq`,
        )
        .bind(batchId, b.sent, b.sent + grants.length, batchId, token),
    ]);
    if ((results[0]?.meta.changes ?? 0) === 0) continue;
    const rows = (results[results.length - 1]?.results ?? []) as { id: string }[];
    return { ids: rows.map((r) => r.id), exhausted: false };
  }
  return { ids: [], exhausted: false };
}

/**
 * SET terms of the update that counts an ending in its batch row (./progress.ts), with their binds (the ending
 * evaluation's id among them): for a batch with a budget, the item's usage (the sums its ending books, `bookedSql`)
 * joins `spent_*` and its grant (its `config.budget`) leaves `reserved_*`; a batch without one keeps its columns
 * (SQLite's `CASE` evaluates only the branch it takes, so nothing more is read). Terms of the count's own update,
 * where they were an update of the same row of their own (one statement and its reads per ending fewer), so they
 * share its guard: once per ending.
 */
export function budgetEndTerms(ending: Ending): { sql: string; binds: unknown[] } {
  const { id } = ending;
  const ifBudget = (column: string, change: string) =>
    `${column} = CASE WHEN budget IS NULL THEN ${column} ELSE ${column} ${change} END`;
  const grant = (limit: BudgetLimit) =>
    `COALESCE((SELECT json_extract(${configSql('e')}, '$.budget.${limit}') FROM evaluations e WHERE e.id = ?), 0)`;
  return {
    sql: [
      ifBudget('spent_calls', `+ ${bookedSql('billed_calls')}`),
      ifBudget('spent_tokens', `+ ${bookedSql('prompt_tokens + completion_tokens')}`),
      ifBudget('spent_cost_usd', `+ ${bookedSql('cost_usd')}`),
      ifBudget('reserved_calls', `- ${grant('maxCalls')}`),
      ifBudget('reserved_tokens', `- ${grant('maxTokens')}`),
      ifBudget('reserved_cost_usd', `- ${grant('maxCostUsd')}`),
    ].join(', '),
    binds: [
      bookedValue(ending, (u) => u.calls),
      id,
      bookedValue(ending, (u) => u.promptTokens + u.completionTokens),
      id,
      bookedValue(ending, (u) => u.costUsd),
      id,
      id,
      id,
      id,
    ],
  };
}
