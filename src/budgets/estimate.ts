/**
 * @module
 * Estimates without an LLM call: the protocol is driven to its verdict by the synthetic LLM
 * (./synthetic.ts) through the same runner the CLI uses, counting each prompt with the tokenizer.
 *
 * For one task: every strategy runs with `short` replies; the run with the fewest calls (then fewest
 * tokens) is the shortest path, the one with the most calls (then most tokens) the longest. Then:
 * - `min`: the shortest path, every reply only its format (a lower bound: no judge replies less);
 * - `expected`: the longest path, replies of `EXPECTED_REPLY_TOKENS` (256) tokens (or `maxTokens` when lower);
 * - `max`: the longest path, every reply its full `maxTokens` (an upper bound without repairs);
 * - `callsWithRepairs`: the longest path with every reply a parser can reject re-asked `parseRetries`
 *   times, the most requests the evaluation can make.
 * Fixed-length protocols have one path, so their `calls.min` equals `calls.max`.
 */
import type { AnyMethod } from '../engine/method.js';
import { DEFAULT_PARSE_RETRIES } from '../engine/method.js';
import { rubricStepsConfigSchema, rubricStepsMethod, rubricStepsTask } from '../engine/methods/rubric-steps/index.js';
import type { EngineState } from '../engine/state.js';
import { createEvaluation } from '../engine/protocol.js';
import type { RubricContent } from '../engine/rubric.js';
import { runEvaluation } from '../engine/runner.js';
import type { Task } from '../engine/task.js';
import type { Budget, BudgetLimit } from '../engine/budget.js';
import { BUDGET_EXCEEDED } from '../engine/budget.js';
import { budgetAdmission } from './call-check.js';
import type { CallMeter } from './meter.js';
import type { CountKind, PromptCounter } from './prompt-tokens.js';
import type { ReplyLength, Strategy, SyntheticCall } from './synthetic.js';
import { createSyntheticLlm, STRATEGIES } from './synthetic.js';

/** Calls, tokens and cost of one run (or a sum of runs), for one model or all. */
export interface Figures {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** {@link Figures} of nothing. */
export const NO_FIGURES: Figures = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };

/** Sum of two {@link Figures}. */
export function addFigures(a: Figures, b: Figures): Figures {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

/** One model at one provider in an estimate. */
export interface ModelFigures {
  model: string;
  provider: string;
  /** False when the price table has no price for it (its cost counts 0). */
  priced: boolean;
  /** How its tokens are counted (src/budgets/prompt-tokens.ts). */
  tokenCount: CountKind;
  min: Figures;
  expected: Figures;
  max: Figures;
}

/** The estimate of one or more evaluations. */
export interface Estimate {
  /** Evaluations estimated. */
  evaluations: number;
  min: Figures;
  expected: Figures;
  max: Figures;
  /** Requests if every reply a parser can reject were re-asked `parseRetries` times on the longest path. */
  callsWithRepairs: number;
  /** Per model and provider, in the order first called. */
  models: ModelFigures[];
  /**
   * Rounds of dependent calls of one evaluation (a round's calls need only earlier rounds' replies): on the
   * shortest path (`min`) and the longest (`max`); the most over the evaluations summed, since they run side by
   * side. The batch tier sends one round per provider batch (a wave).
   */
  waves: { min: number; max: number };
}

/** An empty estimate: the identity of {@link addEstimates}. */
export const NO_ESTIMATE: Estimate = {
  evaluations: 0,
  min: NO_FIGURES,
  expected: NO_FIGURES,
  max: NO_FIGURES,
  callsWithRepairs: 0,
  models: [],
  waves: { min: 0, max: 0 },
};

/** The sum of two estimates (models merged by model and provider). */
export function addEstimates(a: Estimate, b: Estimate): Estimate {
  const models = new Map(a.models.map((m) => [`${m.provider}\u0000${m.model}`, m]));
  for (const m of b.models) {
    const key = `${m.provider}\u0000${m.model}`;
    const prior = models.get(key);
    models.set(
      key,
      prior
        ? {
            ...prior,
            min: addFigures(prior.min, m.min),
            expected: addFigures(prior.expected, m.expected),
            max: addFigures(prior.max, m.max),
          }
        : m,
    );
  }
  return {
    evaluations: a.evaluations + b.evaluations,
    min: addFigures(a.min, b.min),
    expected: addFigures(a.expected, b.expected),
    max: addFigures(a.max, b.max),
    callsWithRepairs: a.callsWithRepairs + b.callsWithRepairs,
    models: [...models.values()],
    waves: { min: Math.max(a.waves.min, b.waves.min), max: Math.max(a.waves.max, b.waves.max) },
  };
}

/** What the estimator needs besides the judge and the task. */
export interface EstimateDeps {
  meter: CallMeter;
  counter: PromptCounter;
}

interface Run {
  calls: SyntheticCall[];
  total: Figures;
  /** Requests the longest path would make with every rejectable reply re-asked. */
  withRepairs: number;
  /** Rounds of dependent calls. */
  waves: number;
}

function sum(calls: readonly SyntheticCall[]): Figures {
  return calls.reduce<Figures>(
    (f, c) =>
      addFigures(f, {
        calls: 1,
        promptTokens: c.promptTokens,
        completionTokens: c.completionTokens,
        costUsd: c.costUsd,
      }),
    NO_FIGURES,
  );
}

async function drive(
  method: AnyMethod,
  initial: EngineState,
  strategy: Strategy,
  length: ReplyLength,
  deps: EstimateDeps,
): Promise<Run> {
  const synthetic = createSyntheticLlm(strategy, length, deps.counter, deps.meter);
  let withRepairs = 0;
  // A call's round: one past the latest round whose reply was in when it was launched. Every ready call is
  // launched before any synthetic reply comes back, so a round is exactly the calls ready together.
  let latestDone = 0;
  const llm: typeof synthetic.llm = async (request) => {
    const round = latestDone + 1;
    const result = await synthetic.llm(request);
    latestDone = Math.max(latestDone, round);
    return result;
  };
  const { outcome } = await runEvaluation(method, initial, llm, {
    // Every ready call at once, as a wave sends them.
    concurrency: 1_000,
    // The deployment's capability, as the Durable Object passes it: the requests estimated are the ones sent.
    supportsN: (call) => deps.meter.supportsN(call),
    onCall: (request) => {
      // Free text never fails to parse; everything else may be re-asked parseRetries times, each choice of a request with `n` apart.
      const rejectable = request.parser.type !== 'text' && request.parser.type !== 'critique';
      // A cascade has no parseRetries of its own (its stages re-ask): the default stands for its stages'.
      const retries = (initial.config as { parseRetries?: number }).parseRetries ?? DEFAULT_PARSE_RETRIES;
      withRepairs += 1 + (rejectable ? retries * deps.meter.choices(request) : 0);
    },
  });
  if (outcome.status !== 'succeeded')
    throw new Error(`estimate run of "${initial.method}" ended ${outcome.status}: ${outcome.error.message}`);
  return { calls: synthetic.calls, total: sum(synthetic.calls), withRepairs, waves: latestDone };
}

/** Orders runs by calls, then by tokens. */
function compareRuns(a: Run, b: Run): number {
  return (
    a.total.calls - b.total.calls ||
    a.total.promptTokens + a.total.completionTokens - (b.total.promptTokens + b.total.completionTokens)
  );
}

function byModel(runs: Record<'min' | 'expected' | 'max', Run>, deps: EstimateDeps): ModelFigures[] {
  const out = new Map<string, ModelFigures>();
  for (const level of ['min', 'expected', 'max'] as const) {
    for (const c of runs[level].calls) {
      const key = `${c.provider}\u0000${c.model}`;
      const m = out.get(key) ?? {
        model: c.model,
        provider: c.provider,
        priced: deps.meter.price(c.model, c.provider) !== undefined,
        tokenCount: deps.counter.kindOf(c.model),
        min: NO_FIGURES,
        expected: NO_FIGURES,
        max: NO_FIGURES,
      };
      m[level] = addFigures(m[level], {
        calls: 1,
        promptTokens: c.promptTokens,
        completionTokens: c.completionTokens,
        costUsd: c.costUsd,
      });
      out.set(key, m);
    }
  }
  return [...out.values()];
}

/** What an evaluation judges by, beside its task: the rubric, and whether its auto-CoT steps are to be counted. */
export interface EstimateInput {
  /** The rubric (its aspects are one run each where the method scores one at a time). */
  rubric?: RubricContent;
  /** Count the `rubric-steps` call(s) that would write the rubric's missing evaluation steps. Default false. */
  rubricSteps?: boolean;
}

/**
 * Estimates the `rubric-steps` run that writes a rubric's missing evaluation steps (G-Eval's auto-CoT): one
 * call per criteria without steps, none when every step is given. It is not an evaluation (`evaluations: 0`).
 */
export async function estimateRubricSteps(rubric: RubricContent, deps: EstimateDeps): Promise<Estimate> {
  const config = rubricStepsConfigSchema.parse({ method: 'rubric-steps' });
  const method = rubricStepsMethod as unknown as AnyMethod;
  const est = await estimateTask(method, config, rubricStepsTask(rubric), deps, { rubric });
  return { ...est, evaluations: 0 };
}

/**
 * Estimates one evaluation of `task` under a resolved config (see the module notes), with its rubric (each
 * aspect's run counted) and, when asked, the auto-CoT call that completes the rubric's steps.
 * @throws EngineInputError when the method does not take the task or the rubric (as `createEvaluation`).
 */
export async function estimateTask(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  deps: EstimateDeps,
  input: EstimateInput = {},
): Promise<Estimate> {
  const own = await estimateRun(method, config, task, deps, input.rubric);
  return input.rubric && input.rubricSteps ? addEstimates(own, await estimateRubricSteps(input.rubric, deps)) : own;
}

async function estimateRun(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  deps: EstimateDeps,
  rubric: RubricContent | undefined,
): Promise<Estimate> {
  // The estimate is of the run itself: a budget would cut the synthetic run short.
  const { budget: _budget, ...unbudgeted } = config;
  const initial = createEvaluation(method, unbudgeted, task, rubric);
  const short: Run[] = [];
  for (const strategy of STRATEGIES) short.push(await drive(method, initial, strategy, 'short', deps));
  const sorted = short
    .map((run, i) => ({ run, strategy: STRATEGIES[i] ?? 'dispute' }))
    .sort((x, y) => compareRuns(x.run, y.run));
  const shortest = sorted[0];
  const longest = sorted.at(-1);
  if (!shortest || !longest) throw new Error('no estimate run');
  const runs = {
    min: shortest.run,
    expected: await drive(method, initial, longest.strategy, 'expected', deps),
    max: await drive(method, initial, longest.strategy, 'max', deps),
  };
  return {
    evaluations: 1,
    min: runs.min.total,
    expected: runs.expected.total,
    max: runs.max.total,
    callsWithRepairs: runs.max.withRepairs,
    models: byModel(runs, deps),
    waves: { min: runs.min.waves, max: Math.max(runs.expected.waves, runs.max.waves) },
  };
}

/**
 * Whether a budget lets `task` reach a verdict: each strategy's shortest run (`short` replies) is driven
 * under `budget` with the call check the Durable Object applies (./call-check.ts), so a method that
 * concludes from what it has (SAMRE, DEBATE, ChatEval's final turn) counts as reaching one. True when any
 * run does: only a budget no reply could get a verdict from is refused.
 */
export async function budgetReachesVerdict(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  budget: Budget,
  deps: EstimateDeps,
  rubric?: RubricContent,
): Promise<boolean> {
  const initial = createEvaluation(method, { ...config, budget }, task, rubric);
  for (const strategy of STRATEGIES) {
    const synthetic = createSyntheticLlm(strategy, 'short', deps.counter, deps.meter);
    const { outcome } = await runEvaluation(method, initial, synthetic.llm, {
      supportsN: (call) => deps.meter.supportsN(call),
      admit: budgetAdmission(deps.meter),
    });
    if (outcome.status === 'succeeded' || outcome.error.code !== BUDGET_EXCEEDED) return true;
  }
  return false;
}

/**
 * The least value of `limit` alone that lets `task` reach a verdict (see {@link budgetReachesVerdict}),
 * searched between 0 and `upTo` (the unbudgeted run's most, which always does): a whole number for calls
 * and tokens, to 1 % for a cost. Monotone: a larger limit never stops a verdict a smaller one reached.
 */
export async function leastBudget(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  limit: BudgetLimit,
  upTo: number,
  deps: EstimateDeps,
  rubric?: RubricContent,
): Promise<number> {
  const reaches = (v: number) => budgetReachesVerdict(method, config, task, { [limit]: v }, deps, rubric);
  if (limit !== 'maxCostUsd') {
    let [lo, hi] = [0, Math.max(1, Math.ceil(upTo))];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await reaches(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }
  let [lo, hi] = [0, upTo > 0 ? upTo : 1e-6];
  while (hi - lo > hi * 0.01) {
    const mid = (lo + hi) / 2;
    if (await reaches(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
