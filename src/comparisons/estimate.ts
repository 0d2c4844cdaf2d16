/**
 * @module
 * A comparison's cost before it runs: its evaluations (items × pairs × evaluations per pair, each the
 * item's task with the slot's two outputs as answers A and B) estimated as `POST /v1/estimates` estimates
 * a batch (src/estimates/service.ts: an even sample of 100, scaled). For `POST /v1/estimates` given a
 * comparison's body (wired in src/app.ts: the estimates feature cannot import this one, which reaches it
 * through the batches), and for the submit's check of a `budget`.
 */
import type { Bindings } from '../config/bindings.js';
import { judgesBothOrders } from '../engine/protocol.js';
import type { EstimateTasks } from '../estimates/service.js';
import { budgetRefusal, estimateTasks } from '../estimates/service.js';
import { resolveJudge } from '../methods/resolve-judge.js';
import type { Layout } from './layout.js';
import { pairsOf, slotsOf } from './layout.js';
import type { CreateComparisonRequest } from './schemas.js';

/** What `POST /v1/estimates` answers. */
type Estimate = Awaited<ReturnType<typeof estimateTasks>>;

/** The layout a comparison body would be stored with (its judge says whether it runs both orders itself). */
export function layoutOfRequest(request: CreateComparisonRequest): Layout {
  const judge = resolveJudge(request.preset, request.config);
  return {
    candidates: request.candidates,
    pairs: pairsOf(request.candidates, request.design),
    orders: judgesBothOrders(judge.method, judge.config) ? 1 : 2,
  };
}

/**
 * Every evaluation of the comparison as the estimator reads them, slot-major (all items of a slot, then the
 * next slot), so that an even sample covers every pair and order in proportion whatever the width.
 */
export function comparisonTasks(request: CreateComparisonRequest, layout: Layout): EstimateTasks {
  const slots = slotsOf(layout);
  const n = request.items.length;
  return {
    count: n * slots.length,
    taskAt: (i) => {
      const item = request.items[i % n];
      const slot = slots[Math.floor(i / n)];
      const outputs = request.candidates.map((c) => item?.outputs[c] ?? '');
      return {
        kind: 'pairwise',
        ...(item?.question !== undefined ? { question: item.question } : {}),
        ...(item?.messages !== undefined ? { messages: item.messages } : {}),
        ...(item?.reference !== undefined ? { reference: item.reference } : {}),
        answerA: outputs[slot?.shownA ?? 0] ?? '',
        answerB: outputs[slot?.shownB ?? 1] ?? '',
      };
    },
  };
}

/**
 * `POST /v1/estimates` for a comparison's body: what its evaluations would spend, per tier, and whether its
 * `budget` fits. Each item is checked with the judge on its first pair, as the submit checks it.
 * @throws ApiError 400 naming `items.N` (or the judge's field), as `POST /v1/comparisons` would.
 */
export async function estimateComparison(
  env: Bindings,
  tenant: string,
  request: CreateComparisonRequest,
  checkItems = true,
): Promise<Estimate> {
  const layout = layoutOfRequest(request);
  const tasks = comparisonTasks(request, layout);
  const e = await estimateTasks(env, tenant, request, tasks, (check) => {
    if (!checkItems) return;
    // An item's pairs differ only in their answers, which the body's schema already bounds.
    request.items.forEach((_, n) => {
      check(tasks.taskAt(n), `items.${String(n)}`);
    });
  });
  const shape =
    `Comparison: ${String(request.items.length)} items × ${String(layout.pairs.length)} pairs × ${String(layout.orders)} ` +
    `evaluation${layout.orders === 1 ? ' (both presentation orders inside each)' : 's (AB and BA)'} per pair = ${String(tasks.count)} evaluations.`;
  return { ...e, assumptions: [...e.assumptions, shape] };
}

/**
 * Refuses, before anything is stored, a comparison `budget` that not even the estimate's floor fits (as a
 * batch's, src/batches/budget-check.ts). The items were checked by the submit already.
 * @throws ApiError 400 `invalid_request` naming `budget.<limit>`, the budget and the estimated least.
 */
export async function checkComparisonBudget(
  env: Bindings,
  tenant: string,
  request: CreateComparisonRequest,
): Promise<void> {
  if (!request.budget) return;
  // The budget is the comparison's own: certified mode's calibration run is not billed to it.
  const { certify: _certify, ...own } = request;
  const e = await estimateComparison(env, tenant, own, false);
  const refusal = budgetRefusal(e, request.budget, `the comparison's ${String(e.evaluations)} evaluations`);
  if (refusal) throw refusal;
}
