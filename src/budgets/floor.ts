/**
 * @module
 * A budget that cannot produce a verdict is refused at submit, before anything is stored or spent, for
 * every path that creates an evaluation (`POST /v1/evaluations`, chat completions, trigger hooks): the
 * task is driven by the synthetic LLM under the budget with the Durable Object's own call check
 * (./estimate.ts `budgetReachesVerdict`), so a method that concludes from what it has under a budget
 * (SAMRE, DEBATE, ChatEval's final turn) is accepted down to its own least, and the 400 names that least.
 */
import { ApiError } from '../http/errors.js';
import type { Budget, BudgetLimit } from '../engine/budget.js';
import { BUDGET_LIMITS } from '../engine/budget.js';
import type { RubricContent } from '../engine/rubric.js';
import type { Task } from '../engine/task.js';
import type { LlmEnv } from '../llm/settings.js';
import { settingsFromEnv } from '../llm/settings.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { budgetOf } from './call-check.js';
import { budgetReachesVerdict, estimateTask, leastBudget } from './estimate.js';
import { createCallMeter } from './meter.js';
import { createPromptCounter, loadTokenizer } from './prompt-tokens.js';

const usd = (n: number) => `$${n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;

/**
 * Refuses a budget no run of `task` can get a verdict from (see the module note). Call after
 * `checkLlmConfig` and `checkBudgetPrices`.
 * @param where the budget's path in the request, e.g. `budget` or `config.budget`.
 * @param rubric the rubric the evaluation judges by (its criteria and aspects change what a run sends).
 * @throws ApiError 400 `invalid_request` naming `<where>.<limit>` and the least that limit needs.
 */
export async function checkBudgetFloor(
  env: LlmEnv,
  judge: ResolvedJudge,
  task: Task,
  where: string,
  rubric?: RubricContent,
): Promise<void> {
  const budget = budgetOf(judge.config);
  if (!budget) return;
  const counter = createPromptCounter(await loadTokenizer());
  const deps = { counter, meter: createCallMeter(settingsFromEnv(env), counter) };
  if (await budgetReachesVerdict(judge.method, judge.config, task, budget, deps, rubric)) return;
  // The unbudgeted run's most (every reply its full maxTokens) always reaches a verdict: the search's top.
  const { budget: _unused, ...unbudgeted } = judge.config;
  const most = (await estimateTask(judge.method, unbudgeted, task, deps, rubric ? { rubric } : {})).max;
  const top: Record<BudgetLimit, number> = {
    maxCalls: most.calls,
    maxTokens: most.promptTokens + most.completionTokens,
    maxCostUsd: most.costUsd,
  };
  const given = BUDGET_LIMITS.filter((l) => budget[l] !== undefined);
  for (const limit of given) {
    const least = await leastBudget(judge.method, judge.config, task, limit, top[limit], deps, rubric);
    const value = budget[limit] as number;
    if (value >= least) continue;
    throw refusal(where, limit, value, least);
  }
  // Each limit alone would do; together they do not.
  const first = given[0] ?? 'maxCalls';
  throw refusal(where, first, budget[first] as number, null);
}

function refusal(where: string, limit: BudgetLimit, value: number, least: number | null): ApiError {
  const fmt = limit === 'maxCostUsd' ? usd : String;
  const message =
    least === null
      ? `${fmt(value)} with the budget's other limits cannot produce a verdict for this task; raise one (see POST /v1/estimates)`
      : `${fmt(value)} cannot produce a verdict for this task: the least it needs is ${fmt(least)} (estimated; see POST /v1/estimates)`;
  return new ApiError(400, 'invalid_request', `${where}.${limit}: ${message}`, [
    { path: `${where}.${limit}`, message },
  ]);
}

/** The path of a request's budget: `budget` when given at the top level, else `config.budget`. */
export function budgetPath(request: { budget?: Budget | undefined }): string {
  return request.budget !== undefined ? 'budget' : 'config.budget';
}
