/**
 * @module
 * `rubric-steps`: G-Eval's auto-CoT as a tiny method. One call per criteria writes the evaluation steps of a
 * rubric that has none (`prompts.ts`), read as a numbered list (`steps` parser); a rubric whose steps are
 * given needs no call. A rubric with several aspects gets steps per aspect: the core runs the method once per
 * aspect (src/engine/aspects.ts), each with the aspect's criteria. The verdict carries the steps in its
 * details (`evaluationSteps`; per aspect under `aspectDetails`), and {@link withGeneratedSteps} puts them in
 * the rubric's content, so the API can run this once per rubric version, store the result and never pay for
 * it again. The task only gives the kind: {@link rubricStepsTask} is the one to send.
 */
import { z } from 'zod';
import { EngineInputError } from '../../errors.js';
import type { JudgedTask } from '../../judged.js';
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape, resolveAgentParams } from '../../method.js';
import type { RubricContent } from '../../rubric.js';
import { criteriaText } from '../../slots.js';
import type { Task } from '../../task.js';
import { capitalise, renderTemplate, templateField } from '../../template.js';
import type { Verdict } from '../../verdict.js';
import { RUBRIC_STEPS_PAIRWISE, RUBRIC_STEPS_PLACEHOLDERS, RUBRIC_STEPS_POINTWISE } from './prompts.js';

/** The config of `rubric-steps`: the prompts and the writer's model settings (temperature 0, 512 tokens). */
export const rubricStepsConfigSchema = z
  .object({
    method: z.literal('rubric-steps'),
    ...CommonConfigShape,
    /** The writer's model settings. Default: `defaults`, temperature 0, 512 tokens. */
    writer: AgentParamsSchema.default({}),
    /** The prompts, up to "Evaluation Steps:". Defaults: G-Eval's form (`prompts.ts`). */
    templates: z
      .object({
        pointwise: templateField(RUBRIC_STEPS_PLACEHOLDERS, RUBRIC_STEPS_POINTWISE),
        pairwise: templateField(RUBRIC_STEPS_PLACEHOLDERS, RUBRIC_STEPS_PAIRWISE),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .refine((c) => !c.calibration.enabled, {
    path: ['calibration', 'enabled'],
    message: 'rubric-steps writes steps once per criteria: there are no orders to calibrate',
  });
export type RubricStepsConfig = z.infer<typeof rubricStepsConfigSchema>;

/** The steps written (or given), null until the call's final reply; `unread` when it never parsed. */
export interface RubricStepsState {
  steps: string | null;
  given: boolean;
  unread?: string;
}

const CALL_ID = 'steps';

/** A placeholder task of the rubric's kind: `rubric-steps` reads only the rubric (its texts are not sent). */
export function rubricStepsTask(rubric: Pick<RubricContent, 'kind'>): Task {
  return rubric.kind === 'pairwise'
    ? { kind: 'pairwise', question: '(unused)', answerA: '(unused)', answerB: '(unused)' }
    : { kind: 'pointwise', source: '(unused)', output: '(unused)' };
}

/** `rubric-steps` as a {@link MethodDefinition}. */
export const rubricStepsMethod: MethodDefinition<RubricStepsConfig, RubricStepsState> = {
  method: 'rubric-steps',
  paper: 'G-Eval (Liu et al. 2023) §2, auto chain-of-thought: evaluation steps generated from the criteria',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: rubricStepsConfigSchema,

  init(_config, task): RubricStepsState {
    if (!task.criteria)
      throw new EngineInputError(
        'rubric: rubric-steps writes the evaluation steps of a rubric: give one',
        'invalid_rubric',
      );
    return task.criteria.steps !== undefined
      ? { steps: task.criteria.steps, given: true }
      : { steps: null, given: false };
  },

  step(config, task, state): StepResult {
    if (state.steps !== null || state.unread !== undefined) {
      return {
        kind: 'verdict',
        verdict: {
          votes: [],
          confidence: state.steps !== null ? 1 : 0,
          details: {
            ...(state.steps !== null ? { evaluationSteps: state.steps } : { unread: state.unread }),
            generated: !state.given,
          },
        },
      };
    }
    return {
      kind: 'calls',
      calls: [
        {
          id: CALL_ID,
          agent: 'rubric-steps',
          label: 'Steps writer',
          stage: 'evaluation steps',
          ...resolveAgentParams(config.defaults, config.writer),
          messages: [{ role: 'user', content: promptOf(config, task) }],
          parser: { type: 'steps' },
        },
      ],
    };
  },

  reduce(_config, _task, state, reply: FinalReply): RubricStepsState {
    if (reply.callId !== CALL_ID || state.steps !== null) return state;
    if (reply.ok && reply.value.kind === 'steps') return { ...state, steps: reply.value.steps };
    return { ...state, unread: reply.ok ? 'no steps read' : reply.reason };
  },

  plannedCalls(): number {
    return 1;
  },
};

/** The steps prompt for the task's criteria (pointwise: with its aspect and scale). */
function promptOf(config: RubricStepsConfig, task: JudgedTask): string {
  const criteria = task.criteria ? criteriaText({ ...task.criteria, steps: undefined }, false) : '';
  if (task.kind === 'pairwise')
    return renderTemplate(config.templates.pairwise, { criteria, aspect: '', Aspect: '', min: '', max: '' });
  const { name, scale } = task.aspect;
  return renderTemplate(config.templates.pointwise, {
    criteria,
    aspect: name,
    Aspect: capitalise(name),
    min: scale.min,
    max: scale.max,
  });
}

/** A verdict's details as this method writes them. */
const stepsIn = (details: unknown): string | undefined => {
  const s = (details as { evaluationSteps?: unknown } | undefined)?.evaluationSteps;
  return typeof s === 'string' ? s : undefined;
};

/**
 * The rubric with the steps a `rubric-steps` verdict wrote: the rubric's `evaluationSteps`, or each aspect's
 * (steps given before are kept). Content the verdict has no steps for stays as it was.
 */
export function withGeneratedSteps(rubric: RubricContent, verdict: Pick<Verdict, 'details'>): RubricContent {
  if (rubric.aspects === undefined) {
    const steps = rubric.evaluationSteps ?? stepsIn(verdict.details);
    return steps !== undefined ? { ...rubric, evaluationSteps: steps } : rubric;
  }
  const byAspect = (verdict.details.aspectDetails ?? {}) as Record<string, unknown>;
  return {
    ...rubric,
    aspects: rubric.aspects.map((a) => {
      const steps = a.evaluationSteps ?? stepsIn(byAspect[a.name]);
      return steps !== undefined ? { ...a, evaluationSteps: steps } : a;
    }),
  };
}
