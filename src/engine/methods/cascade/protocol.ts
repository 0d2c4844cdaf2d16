/**
 * @module
 * A cascade (Jung et al. 2024, "Trust or Escalate", cascaded selective evaluation): stages of other methods,
 * cheapest first; each stage's verdict decides unless its escalation rules fire (`rules.ts`: orders disagree,
 * votes split, tie, unparsed, confidence below a threshold), and then the next stage judges the item afresh.
 * The last stage decides whatever it finds.
 *
 * Nesting: the cascade's state holds each stage's own {@link EngineState}, and the core hands the cascade
 * raw replies (`MethodDefinition.applyRaw`): stage k's requests are its protocol's own, ids prefixed `s<k>/`
 * (`s0/ab/sample0`, `s1/ba/turn2/agent1#1`), so each stage parses, re-asks and calibrates by its own config,
 * ids stay stable and deterministic, and a duplicate result changes nothing at either level.
 * A stage's samples go as separate calls (no `supportsN` given to its `readyCalls`), never one request with
 * `n`: the cascade records one reply per request.
 *
 * Stage configs are resolved when the cascade's config is (`{ preset, config }` → the full config, the
 * cascade's `defaults` under each stage's own), so a stored evaluation replays the stages it started with.
 * A stage cannot be a cascade. With `runAllStages` every stage runs on every item (a calibration run: the
 * meta-evaluation can then price any threshold, src/metrics/cascade.ts); the verdict is still the stage the
 * rules pick.
 */
import { z } from 'zod';
import type { LlmCallRequest } from '../../call.js';
import { addUsage, ZERO_USAGE } from '../../call.js';
import type { AnyMethod, MethodDefinition, RawApplied, StepResult } from '../../method.js';
import { AgentParamsSchema } from '../../method.js';
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
import { usageOf } from '../../ledger.js';
import type { JudgedTask } from '../../judged.js';
import type { MethodVerdict, Verdict } from '../../verdict.js';
import type { CascadeDetails, CascadeSavings, EscalationReason, StageReport } from './rules.js';
import { CalibratedSchema, DEFAULT_ESCALATE, EscalateSchema, escalationReasons, signalsOf } from './rules.js';

/** The cascade's own protocol version (its `version` adds the stage methods', see {@link createCascade}). */
const CASCADE_PROTOCOL_VERSION = 2;

/** One stage: a preset and/or a config (as a request's `preset` and `config`), a label and its escalation rules. */
export const CascadeStageSchema = z
  .object({
    /** Display name in votes, transcripts and reports. Default: the preset id, else the method. */
    label: z.string().min(1).max(64).optional(),
    /** Preset the stage runs (GET /v1/methods); its config is the base `config` overrides. */
    preset: z.string().min(1).max(64).optional(),
    /** The stage's config, or overrides over `preset` (objects merge, arrays replace). Stored fully resolved. */
    config: z.record(z.string(), z.unknown()).optional(),
    /** When the stage hands the item on. Every stage but the last; default {@link DEFAULT_ESCALATE}. */
    escalate: EscalateSchema.optional(),
  })
  .strict();
export type CascadeStage = z.infer<typeof CascadeStageSchema>;

/** What the cascade needs from the registry (injected, so the registry can list the cascade without an import cycle). */
export interface StageCatalogue {
  /** A preset and overrides resolved into a full config (the registry's `resolveMethodConfig`). @throws EngineInputError */
  resolve(preset: string | undefined, overrides: Record<string, unknown> | undefined): EngineState['config'];
  /** The method with this id. @throws EngineInputError */
  method(id: string): AnyMethod;
}

/** A stage with its full config and method. */
interface ResolvedStage {
  label: string;
  config: EngineState['config'];
  method: AnyMethod;
}

/** A stage as a running cascade sees it: its label, method and own engine state. */
interface LiveStage {
  label: string;
  method: AnyMethod;
  state: EngineState;
}

/** Cascade state: each stage's own engine state, created up front (so every stage has checked the task). */
export interface CascadeState {
  stages: EngineState[];
}

const prefixOf = (k: number) => `s${k}/`;

/** Splits `s1/ab/turn1/agent0#1` into stage 1 and the stage's own id `ab/turn1/agent0#1`. */
function stageOf(id: string): { k: number; inner: string } | undefined {
  const m = /^s(\d+)\/(.+)$/.exec(id);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { k: Number(m[1]), inner: m[2] };
}

/** The overrides a stage is resolved with: its own config, the cascade's `defaults` under its `defaults`. */
function stageOverrides(stage: CascadeStage, defaults: Record<string, unknown>): Record<string, unknown> {
  const own = stage.config ?? {};
  const ownDefaults = typeof own.defaults === 'object' && own.defaults !== null ? own.defaults : {};
  return Object.keys(defaults).length === 0 ? own : { ...own, defaults: { ...defaults, ...ownDefaults } };
}

/**
 * The cascade method and its config schema, bound to a stage catalogue.
 * @param catalogue how stage presets and methods are found (the registry).
 * @param stageVersions the sum of the versions of every method a stage may run: part of the cascade's
 *   `version`, so a stage method's new version also retires running cascades (versions only grow, so the sum
 *   moves whenever one does).
 */
export function createCascade(catalogue: StageCatalogue, stageVersions: number) {
  function resolveStage(stage: CascadeStage, defaults: Record<string, unknown>): ResolvedStage {
    const config = catalogue.resolve(stage.preset, stageOverrides(stage, defaults));
    if (config.method === 'cascade')
      throw new EngineInputError('a cascade stage cannot be a cascade', 'invalid_config');
    return { label: stage.label ?? stage.preset ?? config.method, config, method: catalogue.method(config.method) };
  }

  const configSchema = z
    .object({
      method: z.literal('cascade'),
      /** Model settings under every stage's own `defaults` (e.g. one model for the whole cascade). Default {}. */
      defaults: AgentParamsSchema.default({}),
      /** 2-4 stages, cheapest first; one stage only with `calibrated` (trust it above its threshold, else abstain). */
      stages: z.array(CascadeStageSchema).min(1).max(4),
      /** Run every stage on every item (a calibration run); the verdict is still the stage the rules pick. Default false. */
      runAllStages: z.boolean().default(false),
      /**
       * Calibrated thresholds (Trust or Escalate): they replace every stage's escalation rules, and an item
       * no stage trusts comes back without a winner (`details.cascade.abstained`). Default: none.
       */
      calibrated: CalibratedSchema.optional(),
    })
    .strict()
    .superRefine((c, ctx) => {
      if (c.stages.length < 2 && !c.calibrated)
        ctx.addIssue({
          code: 'custom',
          path: ['stages'],
          message: 'a cascade needs 2-4 stages; one stage only with `calibrated` thresholds (trust or abstain)',
        });
      if (c.calibrated && c.calibrated.thresholds.length !== c.stages.length)
        ctx.addIssue({
          code: 'custom',
          path: ['calibrated', 'thresholds'],
          message: `one threshold per stage: ${c.stages.length} stages, ${c.calibrated.thresholds.length} thresholds`,
        });
      c.stages.forEach((stage, i) => {
        if (i === c.stages.length - 1 && stage.escalate !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['stages', i, 'escalate'],
            message: 'the last stage decides every item it gets: it has no escalation rules',
          });
        }
        if (stage.preset === undefined && typeof stage.config?.method !== 'string') {
          ctx.addIssue({
            code: 'custom',
            path: ['stages', i],
            message: 'give the stage a "preset" or a config with a "method"',
          });
          return;
        }
        try {
          resolveStage(stage, c.defaults);
        } catch (e) {
          if (!(e instanceof EngineInputError)) throw e;
          // The stage's own issues at their full path (`stages.0.config.turns`), else the whole error at the stage.
          const nested = e.issues ?? [{ path: e.code === 'unknown_preset' ? 'preset' : 'config', message: e.message }];
          for (const issue of nested) {
            ctx.addIssue({ code: 'custom', path: ['stages', i, ...issue.path.split('.')], message: issue.message });
          }
        }
      });
    })
    // Stored resolved: each stage's full config, label and rules (parsing a resolved config again is a no-op).
    .overwrite((c) => {
      try {
        return {
          ...c,
          stages: c.stages.map((stage, i) => {
            const r = resolveStage(stage, c.defaults);
            const last = i === c.stages.length - 1;
            return {
              label: r.label,
              ...(stage.preset !== undefined ? { preset: stage.preset } : {}),
              config: r.config,
              ...(last ? {} : { escalate: stage.escalate ?? DEFAULT_ESCALATE }),
            };
          }),
        };
      } catch {
        // Only reached for a config the refinement has already refused.
        return c;
      }
    });
  type CascadeConfig = z.infer<typeof configSchema>;

  /** The stages of a running cascade: each stage's engine state holds its resolved config. */
  const liveStages = (config: CascadeConfig, state: CascadeState): LiveStage[] =>
    state.stages.map((inner, k) => ({
      label: config.stages[k]?.label ?? config.stages[k]?.preset ?? inner.method,
      method: catalogue.method(inner.method),
      state: inner,
    }));

  /** What stage `k` reports; `verdict` once it concluded, `decides` whether its rules let it decide. */
  function reportOf(
    config: CascadeConfig,
    stages: readonly LiveStage[],
    k: number,
  ): { report: StageReport; verdict: Verdict | null; decides: boolean } {
    const s = stages[k];
    if (!s) throw new Error(`cascade: no stage ${k}`);
    const inner = s.state;
    const { calls, usage } = usageOf(inner);
    const preset = config.stages[k]?.preset;
    const base = {
      stage: k,
      label: s.label,
      method: inner.method,
      ...(preset !== undefined ? { preset } : {}),
      calls,
      plannedCalls: plannedCalls(s.method, inner),
      usage,
    };
    const o = outcome(s.method, inner);
    const verdict = o?.status === 'succeeded' ? o.verdict : null;
    if (!verdict) return { report: { ...base, ran: calls > 0 }, verdict: null, decides: false };
    const signals = signalsOf(verdict);
    const last = k === stages.length - 1;
    const rules = config.stages[k]?.escalate ?? DEFAULT_ESCALATE;
    const threshold = config.calibrated?.thresholds[k];
    // Calibrated: trust exactly the verdicts at or above the stage's threshold, the last stage too.
    const because: EscalationReason[] = config.calibrated
      ? threshold !== null && threshold !== undefined && verdict.confidence >= threshold
        ? []
        : ['below-threshold']
      : last
        ? []
        : escalationReasons(signals, rules);
    const report: StageReport = {
      ...base,
      ran: true,
      ...(verdict.winner !== undefined ? { winner: verdict.winner } : {}),
      ...(verdict.score !== undefined ? { score: verdict.score } : {}),
      confidence: verdict.confidence,
      positionFlip: verdict.positionFlip,
      split: signals.split,
      unparsed: signals.unparsed,
      ...(config.calibrated ? { escalatedBecause: because } : last ? {} : { rules, escalatedBecause: because }),
    };
    return { report, verdict, decides: because.length === 0 };
  }

  /** Against the last stage alone: its cost minus what the cascade spends up to the deciding stage. */
  function savingsOf(reports: readonly StageReport[], decided: number): CascadeSavings {
    const last = reports.at(-1);
    const spent = reports
      .slice(0, decided + 1)
      .reduce((t, r) => ({ calls: t.calls + r.calls, usage: addUsage(t.usage, r.usage) }), {
        calls: 0,
        usage: ZERO_USAGE,
      });
    if (!last?.ran)
      return {
        basis: 'planned',
        calls: (last?.plannedCalls ?? 0) - spent.calls,
        promptTokens: null,
        completionTokens: null,
        costUsd: null,
      };
    return {
      basis: 'measured',
      calls: last.calls - spent.calls,
      promptTokens: last.usage.promptTokens - spent.usage.promptTokens,
      completionTokens: last.usage.completionTokens - spent.usage.completionTokens,
      costUsd: last.usage.costUsd - spent.usage.costUsd,
    };
  }

  function prefixed(k: number, label: string, r: LlmCallRequest): LlmCallRequest {
    return { ...r, id: prefixOf(k) + r.id, agent: prefixOf(k) + r.agent, stage: `${label}: ${r.stage}` };
  }

  const method: MethodDefinition<CascadeConfig, CascadeState> = {
    method: 'cascade',
    version: CASCADE_PROTOCOL_VERSION * 1000 + stageVersions,
    paper: 'Jung et al. 2024, Trust or Escalate (cascaded selective evaluation), arXiv 2407.18370 §3-4',
    taskKinds: ['pairwise', 'pointwise'],
    configSchema,

    init(config, task: JudgedTask): CascadeState {
      return {
        stages: config.stages
          .map((stage) => resolveStage(stage, config.defaults))
          .map((s) => createEvaluation(s.method, s.config, task)),
      };
    },

    step(config, _task, state): StepResult {
      const stages = liveStages(config, state);
      const reports: StageReport[] = [];
      let decided: { k: number; verdict: Verdict } | undefined;
      for (const [k, s] of stages.entries()) {
        const r = reportOf(config, stages, k);
        if (decided && !config.runAllStages) {
          reports.push(r.report);
          continue;
        }
        if (!r.verdict)
          return { kind: 'calls', calls: readyCalls(s.method, s.state).map((c) => prefixed(k, s.label, c)) };
        reports.push(r.report);
        if (!decided && (r.decides || (k === stages.length - 1 && !config.calibrated)))
          decided = { k, verdict: r.verdict };
      }
      if (!decided) {
        const last = stages.length - 1;
        const lastReport = reports[last];
        const lastStage = stages[last];
        if (!config.calibrated || !lastReport || !lastStage) return { kind: 'calls', calls: [] };
        const v = reportOf(config, stages, last).verdict;
        if (!v) return { kind: 'calls', calls: [] };
        // Below every calibrated threshold: no winner, never the last stage's guess.
        const details: CascadeDetails = {
          decidedBy: { stage: last, label: lastStage.label },
          abstained: {
            stage: last,
            label: lastStage.label,
            reason: "no stage's confidence reached its calibrated threshold",
          },
          runAllStages: config.runAllStages,
          stages: reports,
          savings: savingsOf(reports, last),
        };
        const verdict: MethodVerdict = {
          votes: v.votes.map((x) => ({ ...x, agent: prefixOf(last) + x.agent })),
          confidence: v.confidence,
          positionFlip: v.positionFlip,
          details: { cascade: details, decidingStage: v.details },
        };
        return { kind: 'verdict', verdict };
      }
      const { k, verdict: v } = decided;
      const details: CascadeDetails = {
        decidedBy: { stage: k, label: stages[k]?.label ?? '' },
        runAllStages: config.runAllStages,
        stages: reports,
        savings: savingsOf(reports, k),
      };
      const verdict: MethodVerdict = {
        ...(v.winner !== undefined ? { winner: v.winner } : {}),
        ...(v.scores ? { scores: v.scores } : {}),
        ...(v.score !== undefined ? { score: v.score } : {}),
        votes: v.votes.map((x) => ({ ...x, agent: prefixOf(k) + x.agent })),
        confidence: v.confidence,
        positionFlip: v.positionFlip,
        details: { cascade: details, decidingStage: v.details },
      };
      return { kind: 'verdict', verdict };
    },

    reduce(_config, _task, state): CascadeState {
      // Never called: the core hands a nesting method raw replies (applyRaw).
      return state;
    },

    applyRaw(config, _task, state, reply): RawApplied<CascadeState> {
      const at = stageOf(reply.id);
      const s = at ? liveStages(config, state)[at.k] : undefined;
      if (!at || !s) return { state, final: true };
      const applied = applyInnerReply(s.method, s.state, at.inner, reply);
      return { ...applied, state: { stages: state.stages.map((x, i) => (i === at.k ? applied.state : x)) } };
    },

    usesEvaluationSteps(config): boolean {
      // Stages are stored resolved: each has its full config.
      return config.stages.some(
        (s) =>
          typeof s.config?.method === 'string' &&
          (catalogue.method(s.config.method).usesEvaluationSteps?.(s.config as EngineState['config']) ?? false),
      );
    },

    judgesBothOrders(config): boolean {
      // Every stage, since any of them may decide an item; stages are stored resolved.
      return config.stages.every((s) => {
        const c = s.config as EngineState['config'] | undefined;
        return c !== undefined && judgesBothOrders(catalogue.method(c.method), c);
      });
    },

    plannedCalls(config, task): number {
      // Every stage: the most a cascade can make (the progress bar ends early when a stage decides).
      return config.stages
        .map((stage) => resolveStage(stage, config.defaults))
        .reduce((n, s) => n + plannedCalls(s.method, createEvaluation(s.method, s.config, task)), 0);
    },
  };
  return { configSchema, method };
}
