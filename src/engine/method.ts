/**
 * @module
 * The contract every method implements. A method is pure: from (config, task, its own JSON state) it
 * lists the calls it needs now, folds in each final reply, and eventually concludes. The protocol core
 * ({@link ./protocol.ts}) adds what every method shares: parse-and-repair, the ledger of results,
 * transcript and usage, position calibration and idempotent application of results.
 */
import { z } from 'zod';
import { BudgetSchema } from './budget.js';
import type { LlmCallRequest, Usage } from './call.js';
import type { ParsedValue } from './parsers/spec.js';
import type { JudgedTask } from './judged.js';
import type { MethodVerdict } from './verdict.js';

/** A call a method wants; the core turns it into an {@link LlmCallRequest} (adding repair turns). */
export type CallSpec = LlmCallRequest & {
  /**
   * Names the prompt this call is one independent sample of. Calls of one step with the same `sampleOf`
   * whose requests are identical but for their ids are asked for in one request with `n` where the
   * driver says their provider takes it (`readyCalls`' `supportsN`; else each is its own call, see
   * `samples.ts`); the request never carries this field. Absent: the call stands alone.
   */
  sampleOf?: string;
};

/** A final reply handed to a method: parsed, or unparsed after all repairs. */
export type FinalReply =
  | { callId: string; ok: true; value: ParsedValue; content: string }
  | { callId: string; ok: false; reason: string; content: string };

/** A reply as the LLM sent it, for methods that run other methods' protocols (see {@link MethodDefinition.applyRaw}). */
export interface RawReply {
  /** The request id, re-ask suffix included (`s0/ab/sample0#1`). */
  id: string;
  content: string;
  model: string;
  usage: Usage;
}

/** What a nesting method reports after folding a raw reply: its new state and, for the transcript, how the reply read. */
export interface RawApplied<S> {
  state: S;
  /** Why the reply did not parse (the inner protocol's reader), absent when it parsed. */
  parseError?: string;
  /** True when the inner protocol will not ask this call again (parsed, or out of re-asks). */
  final: boolean;
}

/** What a method says from its current state. */
export type StepResult = { kind: 'calls'; calls: CallSpec[] } | { kind: 'verdict'; verdict: MethodVerdict };

/** Per-agent model settings; anything left out falls back to the method config's `defaults`. */
export const AgentParamsSchema = z
  .object({
    /** Model name at the provider; default: the deployment's default model. */
    model: z.string().min(1).max(200).optional(),
    /** Provider id from the deployment's provider table; default: the deployment's default provider. */
    provider: z.string().min(1).max(64).optional(),
    /** Sampling temperature, 0-2. */
    temperature: z.number().min(0).max(2).optional(),
    /** Completion token limit, 1-16384. */
    maxTokens: z.number().int().min(1).max(16_384).optional(),
  })
  .strict();
export type AgentParams = z.infer<typeof AgentParamsSchema>;

/** How a position-calibrated run combines its two orders (see `calibration.ts`). */
export const COMBINE_RULES = [
  'sum-scores',
  'mean-scores',
  'pooled-mean',
  'per-agent-majority',
  'agree-or-tie',
] as const;

/** How a position-calibrated run combines its two orders. */
export const CalibrationSchema = z
  .object({
    /** Run the pairwise task in both orders (AB and BA). Default false. */
    enabled: z.boolean().default(false),
    /**
     * `sum-scores`: each order's scores added per answer, the higher total wins, equal totals tie (ChatEval's
     * `average` over every agent and both orders); `mean-scores`: the mean of the two orders' scores;
     * `pooled-mean`: the mean over every parsed sample of both orders (FairEval's BPC); `per-agent-majority`:
     * each agent's scores summed over the orders, the agents' winners decide by majority; `agree-or-tie`: a
     * winner only when both orders agree (FastChat). Default `agree-or-tie`; methods without scores always use it.
     */
    combine: z.enum(COMBINE_RULES).default('agree-or-tie'),
  })
  .strict();
export type Calibration = z.infer<typeof CalibrationSchema>;

/**
 * How a reply that does not parse is asked again: `instruct` sends the reply back with an instruction naming
 * the expected format; `resend` sends the identical prompt again, as ChatEval's agents do (`max_retry`).
 */
export const RepairSchema = z.enum(['instruct', 'resend']);
export type Repair = z.infer<typeof RepairSchema>;

/** Re-asks after a reply that does not parse, when a config sets none (3). */
export const DEFAULT_PARSE_RETRIES = 3;

/** Fields every method config has. Method schemas extend this object. */
export const CommonConfigShape = {
  /** Re-asks after a reply that does not parse, 0-5. Default 3. (ChatEval's agents try 3 times in all: 2 re-asks.) */
  parseRetries: z.number().int().min(0).max(5).default(DEFAULT_PARSE_RETRIES),
  /** How a re-ask is sent. Default `instruct`. */
  repair: RepairSchema.default('instruct'),
  /** Model settings for every agent unless an agent overrides them. */
  defaults: AgentParamsSchema.default({}),
  /** Position calibration for pairwise tasks. Default off. */
  calibration: CalibrationSchema.default({ enabled: false, combine: 'agree-or-tie' }),
  /** Spending limits checked before every call (src/budgets/). Default none; the API's top-level `budget` lands here. */
  budget: BudgetSchema.optional(),
};

/** Resolves an agent's model settings against the method defaults (temperature 0, 512 tokens when unset). */
export function resolveAgentParams(
  defaults: AgentParams,
  agent: AgentParams | undefined,
  fallback: { temperature: number; maxTokens: number } = { temperature: 0, maxTokens: 512 },
): Pick<LlmCallRequest, 'model' | 'provider' | 'temperature' | 'maxTokens'> {
  const model = agent?.model ?? defaults.model;
  const provider = agent?.provider ?? defaults.provider;
  return {
    ...(model !== undefined ? { model } : {}),
    ...(provider !== undefined ? { provider } : {}),
    temperature: agent?.temperature ?? defaults.temperature ?? fallback.temperature,
    maxTokens: agent?.maxTokens ?? defaults.maxTokens ?? fallback.maxTokens,
  };
}

/** A named configuration that reproduces a paper's setup. */
export interface Preset {
  /** Stable id, e.g. `chateval-faireval`. */
  id: string;
  /** One line on what it reproduces. */
  description: string;
  /** The paper and section it follows, e.g. `ChatEval §3, Appendix B Alg. 1`. */
  paper: string;
  /** Task kind it is meant for (a `trajectory` preset also judges pointwise tasks: methods see trajectories so). */
  taskKind: JudgedTask['kind'] | 'trajectory';
  /** The method config (a partial, completed by the method's schema defaults). */
  config: { method: string } & Record<string, unknown>;
}

/**
 * A judge method as a pure protocol over its own state `S` and resolved config `C`.
 * Implementations must be deterministic: the same (config, task, state) always gives the same calls,
 * with the same ids, messages and parameters.
 */
export interface MethodDefinition<C extends { method: string }, S> {
  /** Method id as used in configs (`method` field). */
  readonly method: C['method'];
  /** The paper section the implementation follows. */
  readonly paper: string;
  /**
   * Version of this method's protocol, a positive integer. Bump it with any change that, for the same
   * stored results, alters the calls it lists (ids, order, messages, parameters) or how it folds replies:
   * running evaluations are pinned to the version they started with (src/engine/version.ts). Default 1.
   */
  readonly version?: number;
  /** Task kinds the method accepts. */
  readonly taskKinds: readonly JudgedTask['kind'][];
  /** zod schema of the full config (defaults filled). */
  readonly configSchema: z.ZodType<C>;
  /**
   * Initial state for a task, as the method sees it (`judged.ts`: the question or source always set, one
   * aspect, a rubric's `criteria` for the method's slot). Throws EngineInputError for a task or rubric the
   * config cannot judge (e.g. a template without a criteria slot).
   */
  init(config: C, task: JudgedTask): S;
  /** Calls that are ready now (all of them, so a driver can run them in parallel), or the verdict. */
  step(config: C, task: JudgedTask, state: S): StepResult;
  /** Folds one final reply into the state. Only called for ids the last `step` listed. */
  reduce(config: C, task: JudgedTask, state: S, reply: FinalReply): S;
  /** Upper bound of first-attempt calls for progress reporting (repairs excluded). */
  plannedCalls(config: C, task: JudgedTask): number;
  /**
   * Only for methods that run other methods' protocols inside their state (the cascade): those inner
   * protocols parse, re-ask and calibrate by their own configs, so the core hands such a method raw replies.
   * When present, `step` lists complete requests (ids and messages as sent, re-asks included), the core
   * records each reply for the transcript and passes it here instead of parsing it, `reduce` is never called,
   * and the config has no `parseRetries`, `repair` or `calibration` of its own (the core reads none).
   */
  applyRaw?(config: C, task: JudgedTask, state: S, reply: RawReply): RawApplied<S>;
  /**
   * Optional: a budget refused `refused.callId`, a call the last `step` listed (src/budgets/). Returns the
   * state to go on from: its `step` gives the verdict from what was recorded (its `truncation` saying what
   * was cut), or the calls of a later stage (e.g. SAMRE's jury), which the budget checks in turn; null when
   * nothing can be concluded. Without it, or on null, or when the returned state lists the refused call
   * again, the evaluation fails with `budget_exceeded`. Never called without a budget, so it must not change
   * what an untruncated run does.
   */
  truncate?(config: C, task: JudgedTask, state: S, refused: { callId: string }): S | null;
  /**
   * Optional: true when this config scores every aspect of a pointwise task with several aspects in one
   * call (its template asks for all of them at once). Then `init` and `step` see the task with its
   * `aspects`, and the verdict lists each aspect's score (`MethodVerdict.aspects`). Otherwise (the default)
   * the core runs the method once per aspect, each run seeing one aspect (src/engine/aspects.ts).
   */
  aspectsAtOnce?(config: C): boolean;
  /**
   * Optional: true when this config's templates carry G-Eval style evaluation steps, so a rubric without
   * `evaluationSteps` is worth completing by the `rubric-steps` method (auto-CoT) before it is used.
   */
  usesEvaluationSteps?(config: C): boolean;
  /**
   * Optional, for a method with `applyRaw`: true when this config judges a pairwise task in both
   * presentation orders (its inner protocols calibrate), so its verdict measures `positionFlip`. Other
   * methods answer by their `calibration` (see `judgesBothOrders` in ./protocol.ts).
   */
  judgesBothOrders?(config: C): boolean;
}

/** A method definition with its types erased, for the registry. */
// The registry stores heterogeneous methods; each is only ever called with its own config and state.
export type AnyMethod = MethodDefinition<{ method: string }, unknown>;
