/**
 * @module
 * Repeats: one judge run N times on the same task inside one evaluation (a stability report: does the judge
 * give the same verdict when asked again?).
 *
 * Nesting, as the cascade's stages (`MethodDefinition.applyRaw`): the state holds one {@link EngineState} per
 * run, run k's requests are its protocol's own with ids prefixed `r<k>/` (`r0/ab/sample0`, `r2/turn1/agent0#1`),
 * so every run is a separate, separately stored call with an id of its own (a redelivered result changes
 * nothing at either level), and each run parses, re-asks and calibrates by the judge's config. Runs go out
 * together, in one wave. A failed call fails the evaluation: a provider error is never a verdict.
 *
 * The verdict: pairwise the majority winner of the runs (a shared top count is a tie), confidence the share of
 * runs that gave it; pointwise the mean score, confidence the runs' mean. `details.repeat.runs` lists each run's
 * winner, score and confidence: the stability report (src/metrics/stability.ts) is computed from them.
 */
import { z } from 'zod';
import type { LlmCallRequest } from '../../call.js';
import type { AnyMethod, MethodDefinition, RawApplied, StepResult } from '../../method.js';
import type { EngineState } from '../../state.js';
import {
  applyInnerReply,
  createEvaluation,
  judgesBothOrders,
  outcome,
  plannedCalls,
  readyCalls,
} from '../../protocol.js';
import { EngineInputError } from '../../errors.js';
import { BudgetSchema } from '../../budget.js';
import type { JudgedTask } from '../../judged.js';
import type { MethodVerdict, Verdict, Winner } from '../../verdict.js';
import { majority, mean, meanPair } from '../../verdict.js';

/** Fewest and most runs of one task: 2 and 10. */
export const REPEAT_MIN = 2;
export const REPEAT_MAX = 10;

/** What the repeat method needs from the registry (injected, as the cascade's catalogue). */
export interface RepeatCatalogue {
  /** A full config resolved again (a no-op for one already resolved). @throws EngineInputError */
  resolve(config: Record<string, unknown>): EngineState['config'];
  /** The method with this id. @throws EngineInputError */
  method(id: string): AnyMethod;
}

/** One run as the verdict's `details.repeat.runs` lists it. */
export interface RepeatRun {
  winner?: Winner;
  score?: number;
  confidence: number;
  positionFlip: boolean | null;
}

/** `details.repeat` of a repeat verdict. */
export interface RepeatDetails {
  n: number;
  runs: RepeatRun[];
}

/** Repeat state: each run's own engine state, created up front. */
export interface RepeatState {
  runs: EngineState[];
}

const prefixOf = (k: number) => `r${k}/`;

/** Splits `r1/ab/sample0#1` into run 1 and the run's own id. */
function runOf(id: string): { k: number; inner: string } | undefined {
  const m = /^r(\d+)\/(.+)$/.exec(id);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { k: Number(m[1]), inner: m[2] };
}

/** Methods a repeat cannot wrap: itself, and the rubric's auto-CoT (it judges nothing). */
const NOT_REPEATABLE = new Set(['repeat', 'rubric-steps']);

/**
 * The repeat method and its config schema, bound to the registry.
 * @param catalogue how the judge's config and method are found.
 * @param judgeVersions the sum of the versions of every method a run may use: part of `version`, so a judge
 *   method's new version also retires running repeats.
 */
export function createRepeat(catalogue: RepeatCatalogue, judgeVersions: number) {
  const configSchema = z
    .object({
      method: z.literal('repeat'),
      /** Runs of the judge, 2-10. */
      n: z.number().int().min(REPEAT_MIN).max(REPEAT_MAX),
      /** The judge's full config (any method but `repeat`), stored resolved. */
      judge: z.record(z.string(), z.unknown()),
      /** Spending limits over every run's calls (src/budgets/). Default none. */
      budget: BudgetSchema.optional(),
    })
    .strict()
    .superRefine((c, ctx) => {
      const m = c.judge.method;
      if (typeof m !== 'string' || NOT_REPEATABLE.has(m)) {
        ctx.addIssue({
          code: 'custom',
          path: ['judge', 'method'],
          message: 'the judge must be a method other than repeat',
        });
        return;
      }
      try {
        catalogue.resolve(c.judge);
      } catch (e) {
        if (!(e instanceof EngineInputError)) throw e;
        ctx.addIssue({ code: 'custom', path: ['judge'], message: e.message });
      }
    })
    .overwrite((c) => {
      try {
        return { ...c, judge: catalogue.resolve(c.judge) };
      } catch {
        // Only reached for a config the refinement has already refused.
        return c;
      }
    });
  type RepeatConfig = z.infer<typeof configSchema>;

  const judgeOf = (config: RepeatConfig) => {
    const c = config.judge as EngineState['config'];
    return { config: c, method: catalogue.method(c.method) };
  };

  function prefixed(k: number, r: LlmCallRequest): LlmCallRequest {
    return { ...r, id: prefixOf(k) + r.id, agent: prefixOf(k) + r.agent, stage: `run ${k + 1}: ${r.stage}` };
  }

  function verdictOf(task: JudgedTask, verdicts: readonly Verdict[]): MethodVerdict {
    const runs: RepeatRun[] = verdicts.map((v) => ({
      ...(v.winner !== undefined ? { winner: v.winner } : {}),
      ...(v.score !== undefined ? { score: v.score } : {}),
      confidence: v.confidence,
      positionFlip: v.positionFlip,
    }));
    const details: { repeat: RepeatDetails } = { repeat: { n: runs.length, runs } };
    const votes = verdicts.flatMap((v, k) => v.votes.map((x) => ({ ...x, agent: prefixOf(k) + x.agent })));
    const flips = runs.map((r) => r.positionFlip).filter((f): f is boolean => f !== null);
    const positionFlip = flips.length === 0 ? null : flips.some(Boolean);
    if (task.kind === 'pointwise') {
      const scores = runs.flatMap((r) => (r.score === undefined ? [] : [r.score]));
      return {
        ...(scores.length > 0 ? { score: mean(scores) } : {}),
        votes,
        confidence: mean(runs.map((r) => r.confidence)),
        positionFlip,
        details,
      };
    }
    const winners = runs.flatMap((r) => (r.winner === undefined ? [] : [r.winner]));
    const scores = meanPair(verdicts.flatMap((v) => (v.scores ? [v.scores] : [])));
    const top = winners.length === 0 ? undefined : majority(winners).winner;
    return {
      ...(top !== undefined ? { winner: top } : {}),
      ...(scores && verdicts.every((v) => v.scores) ? { scores } : {}),
      votes,
      confidence: top === undefined ? 0 : winners.filter((w) => w === top).length / runs.length,
      positionFlip,
      details,
    };
  }

  const method: MethodDefinition<RepeatConfig, RepeatState> = {
    method: 'repeat',
    version: 1000 + judgeVersions,
    paper: 'Tribunal: test-retest of one judge (no paper)',
    taskKinds: ['pairwise', 'pointwise'],
    configSchema,

    init(config, task: JudgedTask): RepeatState {
      const j = judgeOf(config);
      const run = createEvaluation(j.method, j.config, task);
      return { runs: Array.from({ length: config.n }, () => run) };
    },

    step(config, task, state): StepResult {
      const j = judgeOf(config);
      const verdicts: Verdict[] = [];
      const calls: LlmCallRequest[] = [];
      for (const [k, run] of state.runs.entries()) {
        const o = outcome(j.method, run);
        if (o?.status === 'succeeded') verdicts.push(o.verdict);
        else calls.push(...readyCalls(j.method, run).map((c) => prefixed(k, c)));
      }
      if (verdicts.length < state.runs.length) return { kind: 'calls', calls };
      return { kind: 'verdict', verdict: verdictOf(task, verdicts) };
    },

    reduce(_config, _task, state): RepeatState {
      // Never called: the core hands a nesting method raw replies (applyRaw).
      return state;
    },

    applyRaw(config, _task, state, reply): RawApplied<RepeatState> {
      const at = runOf(reply.id);
      const run = at ? state.runs[at.k] : undefined;
      if (!at || !run) return { state, final: true };
      const j = judgeOf(config);
      const applied = applyInnerReply(j.method, run, at.inner, reply);
      return { ...applied, state: { runs: state.runs.map((x, i) => (i === at.k ? applied.state : x)) } };
    },

    usesEvaluationSteps(config): boolean {
      const j = judgeOf(config);
      return j.method.usesEvaluationSteps?.(j.config) ?? false;
    },

    judgesBothOrders(config): boolean {
      const j = judgeOf(config);
      return judgesBothOrders(j.method, j.config);
    },

    plannedCalls(config, task): number {
      const j = judgeOf(config);
      return config.n * plannedCalls(j.method, createEvaluation(j.method, j.config, task));
    },
  };
  return { configSchema, method };
}
