/**
 * @module
 * `POST /v1/estimates` behind its route: the body is validated exactly as `POST /v1/evaluations` (or a
 * batch) would validate it, then every task is estimated (./estimate.ts) with the deployment's default
 * model, providers and prices. No LLM call, no row: nothing is stored.
 */
import { checkLlmConfig, judgeProviders, planTask, resolveJudge } from '../methods/resolve-judge.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { configOf } from '../config/vars.js';
import { FLEX_ROUND_SECONDS, STANDARD_ROUND_SECONDS, tierEstimates } from './tiers.js';
import { createCallMeter } from '../budgets/meter.js';
import { checkBudgetPrices, withBudget } from '../budgets/request-budget.js';
import type { Budget, BudgetLimit } from '../engine/budget.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { createPromptCounter, loadTokenizer, O200K_FACTOR, OTHER_MODEL_FACTOR } from '../budgets/prompt-tokens.js';
import type { Bindings } from '../config/bindings.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { budgetFit, range, sampleIndices, scaleEstimate } from '../budgets/aggregate.js';
import { addEstimates, estimateRubricSteps, estimateTask, NO_ESTIMATE } from '../budgets/estimate.js';
import { wantsEvaluationSteps } from '../engine/protocol.js';
import { needsRubricSteps } from '../evaluations/rubric-steps.js';
import { withStoredSteps } from '../rubrics/steps.js';
import type { Task } from '../engine/task.js';
import type { EstimateRequest, EstimateResponse } from './schemas.js';
import { MAX_EXACT_ITEMS } from './schemas.js';
import { EXPECTED_REPLY_TOKENS } from '../budgets/synthetic.js';
import { promptCacheShare } from './prompt-cache-share.js';
import { renderedPrompts } from './prompts.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import { tierPriceWarnings } from '../tiers/resolve.js';
import { withWarnings } from '../http/warnings.js';
import type { Tier } from '../llm/tiers.js';

const ASSUMPTIONS = [
  "The protocol is driven to its verdict by a synthetic LLM (no network) whose replies parse under each call's own rule; three reply strategies (agreeing, disputing, tying) find the shortest and the longest path.",
  'min: the shortest path, every reply only its answer format. expected: the longest path, replies of ' +
    `${EXPECTED_REPLY_TOKENS} completion tokens (or maxTokens when lower). max: the longest path, every reply its full maxTokens.`,
  'No repairs: calls.withRepairs is the longest path with every reply a parser can reject re-asked parseRetries times; tokens and cost leave repairs out.',
  `Prompt tokens: cl100k_base, exact for gpt-4/gpt-3.5 models, times ${O200K_FACTOR} for o200k models (gpt-4o, gpt-4.1, o-series), times ${OTHER_MODEL_FACTOR} for other models; 3 tokens per message and 3 per reply.`,
  'Cost: the price table (defaults and LLM_PRICES), every prompt token at the uncached input price; a model without a price costs 0 (priced: false).',
  `Tiers: the same tokens at each tier's price. Time: rounds of dependent calls (waves) times ${STANDARD_ROUND_SECONDS} s (standard) or ${FLEX_ROUND_SECONDS} s (flex) typically, every attempt to its timeout at worst, items BATCH_CONCURRENCY at a time; batch: the deepest item's waves times the provider's turnaround, at worst times the 24 h completion window.`,
];

/** Said when the estimate counts the `rubric-steps` run of a stored version (G-Eval's auto-CoT). */
const STEPS_ASSUMPTION =
  "G-Eval's auto-CoT: this rubric version has no evaluation steps yet and the judge's templates carry some, so the one rubric-steps run that writes them (one call per criteria without steps) is counted once, not per item; it is stored with the version and never paid again.";

/** Said when the estimate counts certified mode's calibration run. */
function calibrationAssumption(n: number, stored: boolean): string {
  const items = `the rubric version's ${n} labelled item${n === 1 ? '' : 's'}`;
  if (stored)
    return `Certified mode: the calibration run on ${items} with this judge is stored already, so this request reuses it and pays nothing for it (not counted); new labels would start a new one.`;
  return `Certified mode: the calibration run judges ${items} once with this judge (every stage of a cascade), counted here once; a later request with the same judge and labels reuses it and pays nothing.`;
}

/**
 * The tasks certified mode's calibration judges: the labelled items of the stored rubric version (the first
 * {@link MAX_CALIBRATION_ITEMS}), and whether `judge`'s calibration on them is stored already.
 * @throws ApiError 400 naming `rubric` when there is no stored rubric, as the evaluation would.
 */
async function calibrationTasks(
  env: Bindings,
  tenant: string,
  body: EstimateJudge,
  resolved: Awaited<ReturnType<typeof resolveRubricRef>> | undefined,
  judge: ResolvedJudge,
): Promise<CalibrationFound> {
  const stored = typeof body.rubric === 'string' ? resolved?.stored : undefined;
  if (!stored)
    throw invalidRequest([
      {
        path: 'rubric',
        message:
          'certify needs a stored rubric (rb_…, rb_…@n or rb_…#tag): the labelled items of its version are the calibration set',
      },
    ]);
  if (!calibrationOf) throw new Error('estimates: no reader of calibrations was set (src/app.ts sets it)');
  const found = await calibrationOf(
    env,
    tenant,
    { rubricId: stored.rubric.id, version: stored.version.version },
    judge,
  );
  return { tasks: found.tasks.slice(0, MAX_CALIBRATION_ITEMS), stored: found.stored };
}

/** A rubric version's calibration for a judge, as {@link CalibrationReader} answers it. */
export interface CalibrationFound {
  /** The version's human-labelled items as tasks, in calibration order. */
  tasks: Task[];
  /** Whether this judge's calibration run on these labels is stored already (a request reuses it, paying nothing). */
  stored: boolean;
}

/**
 * Reads a rubric version's calibration for a judge. Annotation queues and certified mode sit above estimates
 * (they start meta-evaluations, which submit batches, which estimate), so the composition hands it in.
 */
export type CalibrationReader = (
  env: Bindings,
  tenant: string,
  version: { rubricId: string; version: number },
  judge: ResolvedJudge,
) => Promise<CalibrationFound>;

let calibrationOf: CalibrationReader | null = null;

/** Sets the reader certified mode's calibration estimate uses (once, by the composition in src/app.ts). */
export function useCalibrations(reader: CalibrationReader): void {
  calibrationOf = reader;
}

/** Most labelled items a calibration judges: 500 (as certified mode's, a meta-evaluation's limit). */
const MAX_CALIBRATION_ITEMS = 500;

/** The judge of an estimate: what `POST /v1/evaluations`, a batch or a comparison names. */
export interface EstimateJudge {
  preset?: string | undefined;
  config?: EstimateRequest['config'];
  rubric?: EstimateRequest['rubric'];
  budget?: EstimateRequest['budget'];
  /** The body's tier: every tier is estimated; this one is checked for a missing price (`warnings`). */
  tier?: Tier | undefined;
  /** Extra parts of the answer: `prompts`, the first task's rendered first calls (./prompts.ts). */
  include?: EstimateRequest['include'];
  /** Certified mode: its calibration run is counted once. */
  certify?: EstimateRequest['certify'];
}

/**
 * The evaluations to estimate without holding them all: `count` of them, the `i`-th built by `taskAt(i)`
 * (only the sampled ones are built: a comparison of 10,000 items × 28 pairs is 280,000 tasks).
 */
export interface EstimateTasks {
  count: number;
  taskAt: (i: number) => Task;
}

/**
 * Estimates the body.
 * @throws ApiError 400 for a body `POST /v1/evaluations` (or a batch) would refuse; 503 `llm_not_configured`.
 */
export async function estimate(env: Bindings, tenant: string, body: EstimateRequest): Promise<EstimateResponse> {
  const tasks = body.items ? body.items.map((i) => i.task) : body.task ? [body.task] : [];
  return estimateTasks(env, tenant, body, { count: tasks.length, taskAt: (i) => tasks[i] as Task }, (check) => {
    tasks.forEach((t, i) => {
      check(t, body.items ? `items.${i}.task` : 'task');
    });
  });
}

/**
 * Estimates `tasks` judged by `body`'s judge (and rubric), compared with its budget. `validate` is handed
 * the check of one task (a 400 naming `path`): the caller checks every task it was given (the
 * estimator assumes valid ones). @throws ApiError 400 for a judge, rubric or task the API would refuse; 503
 * `llm_not_configured`.
 */
export async function estimateTasks(
  env: Bindings,
  tenant: string,
  body: EstimateJudge,
  tasks: EstimateTasks,
  validate: (check: (task: Task, path: string) => void) => void = () => undefined,
): Promise<EstimateResponse> {
  const judge = resolveJudge(body.preset, withBudget(body.config, body.budget));
  const llmEnv = llmEnvOf(env);
  checkLlmConfig(llmEnv, judge);
  checkBudgetPrices(llmEnv, judge);
  const resolved = body.rubric === undefined ? undefined : await resolveRubricRef(env, tenant, body.rubric);
  // G-Eval's auto-CoT: written once per stored version, so its run counts once, not per item; once written,
  // a G-Eval style judge's prompts carry the stored steps.
  const stepsRun = needsRubricSteps(judge, resolved);
  const rubric =
    resolved?.stored && wantsEvaluationSteps(judge.method, judge.config)
      ? withStoredSteps(resolved, resolved.stored.version).content
      : resolved?.content;
  validate((task, path) => planTask(judge, task, path, rubric));
  const settings = settingsFromEnv(llmEnv);
  const counter = createPromptCounter(await loadTokenizer());
  const deps = { counter, meter: createCallMeter(settings, counter) };
  const picked = sampleIndices(tasks.count, MAX_EXACT_ITEMS);
  let sum = NO_ESTIMATE;
  for (const i of picked) {
    const task = tasks.taskAt(i);
    sum = addEstimates(sum, await estimateTask(judge.method, judge.config, task, deps, rubric ? { rubric } : {}));
  }
  const judged = picked.length < tasks.count ? scaleEstimate(sum, tasks.count / picked.length) : sum;
  const withSteps = stepsRun && rubric ? addEstimates(judged, await estimateRubricSteps(rubric, deps)) : judged;
  const found = body.certify ? await calibrationTasks(env, tenant, body, resolved, judge) : null;
  // A calibration already stored for this judge and these labels is reused: the request pays none of it.
  const calibration = found && !found.stored ? found.tasks : null;
  let calibrated = NO_ESTIMATE;
  if (calibration) {
    const { budget: _budget, ...config } = judge.config;
    const runAll = config.method === 'cascade' ? { ...config, runAllStages: true } : config;
    const sample = sampleIndices(calibration.length, MAX_EXACT_ITEMS);
    for (const i of sample)
      calibrated = addEstimates(
        calibrated,
        await estimateTask(judge.method, runAll, calibration[i] as Task, deps, rubric ? { rubric } : {}),
      );
    if (sample.length < calibration.length) calibrated = scaleEstimate(calibrated, calibration.length / sample.length);
  }
  const total = calibration ? addEstimates(withSteps, calibrated) : withSteps;
  const first = tasks.count > 0 ? tasks.taskAt(0) : undefined;
  const cache = first ? await promptCacheShare(judge.method, judge.config, first, deps, rubric) : null;
  const prompts =
    first && body.include?.includes('prompts')
      ? await renderedPrompts(judge.method, judge.config, first, deps, rubric)
      : undefined;
  const budget = judge.config.budget as Budget | undefined;
  return {
    method: judge.method.method,
    preset: body.preset ?? null,
    evaluations: tasks.count,
    sampled: picked.length < tasks.count ? { items: picked.length, of: tasks.count } : null,
    adaptive: sum.min.calls < sum.max.calls,
    calls: { ...range(total, 'calls'), withRepairs: total.callsWithRepairs },
    promptTokens: range(total, 'promptTokens'),
    completionTokens: range(total, 'completionTokens'),
    costUsd: range(total, 'costUsd'),
    models: total.models.map((m) => ({
      model: m.model,
      provider: m.provider,
      priced: m.priced,
      tokenCount: m.tokenCount,
      calls: range(m, 'calls'),
      promptTokens: range(m, 'promptTokens'),
      completionTokens: range(m, 'completionTokens'),
      costUsd: range(m, 'costUsd'),
    })),
    budget: budget ? budgetFit(budget, total) : null,
    waves: total.waves,
    tiers: tierEstimates({
      estimate: total,
      settings,
      meter: deps.meter,
      providers: judgeProviders(judge, settings.defaultProvider),
      concurrency: configOf(env).BATCH_CONCURRENCY,
    }),
    promptCache: {
      promptTokens: cache?.promptTokens ?? 0,
      cacheableTokens: cache?.cacheableTokens ?? 0,
      cacheableShare: cache && cache.promptTokens > 0 ? cache.cacheableTokens / cache.promptTokens : 0,
    },
    assumptions: [
      ...ASSUMPTIONS,
      ...(picked.length < tasks.count
        ? [`Sampled: ${picked.length} of ${tasks.count} items, evenly spaced, scaled to all.`]
        : []),
      ...(stepsRun ? [STEPS_ASSUMPTION] : []),
      ...(found ? [calibrationAssumption(found.tasks.length, found.stored)] : []),
    ],
    ...(prompts ? { prompts } : {}),
    ...withWarnings(body.tier === undefined ? [] : tierPriceWarnings(env, judge, body.tier)),
  };
}

/**
 * The refusal of a budget that not even the estimate's floor fits (its shortest path, shortest replies),
 * or null when every limit may be met: a 400 `invalid_request` naming `budget.<limit>`, with the budget
 * and the floor it is below. `what` names the work in the message, e.g. "the batch's 12 items".
 */
export function budgetRefusal(e: EstimateResponse, budget: Budget, what: string): ApiError | null {
  const lowest: Record<BudgetLimit, number> = {
    maxCostUsd: e.costUsd.min,
    maxCalls: e.calls.min,
    maxTokens: e.promptTokens.min + e.completionTokens.min,
  };
  for (const [limit, fit] of Object.entries(e.budget ?? {}) as [BudgetLimit, string][]) {
    if (fit !== 'no') continue;
    const message = `${String(budget[limit])} is below the least ${what} need (estimated ${String(lowest[limit])}; see POST /v1/estimates)`;
    return new ApiError(400, 'invalid_request', `budget.${limit}: ${message}`, [{ path: `budget.${limit}`, message }]);
  }
  return null;
}
