/**
 * @module
 * A batch's budget at submit: the batch is estimated as `POST /v1/estimates` would (an even sample scaled to
 * every item), and a limit that not even the cheapest run of every item fits is refused before anything is
 * stored. Apart from ./budget-claims.ts (the claims and the ending's booking) so that what every ending
 * runs does not carry the estimator.
 */
import type { Bindings } from '../config/bindings.js';
import { budgetRefusal, estimate } from '../estimates/service.js';
import { invalidRequest } from '../http/errors.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import type { CreateBatchRequest } from './schemas.js';

/**
 * Refuses a batch budget that cannot be met (see the module note), before anything is stored.
 * @throws ApiError 400 `invalid_request` naming `budget` (given twice) or `budget.<limit>` (too small);
 *   400 `budget.maxCostUsd` for an unpriced model (as `POST /v1/evaluations`).
 */
export async function checkBatchBudget(
  env: Bindings,
  tenant: string,
  request: CreateBatchRequest,
  judge: ResolvedJudge,
): Promise<void> {
  const budget = request.budget;
  if (!budget) return;
  if (judge.config.budget !== undefined) {
    throw invalidRequest([
      { path: 'budget', message: 'a batch budget and a per-item `config.budget` cannot be combined: give one of them' },
    ]);
  }
  const e = await estimate(env, tenant, {
    ...(request.preset ? { preset: request.preset } : {}),
    ...(request.rubric !== undefined ? { rubric: request.rubric } : {}),
    ...(request.config ? { config: request.config } : {}),
    items: request.items,
    budget,
  });
  const refusal = budgetRefusal(e, budget, `the batch's ${String(e.evaluations)} items`);
  if (refusal) throw refusal;
}
