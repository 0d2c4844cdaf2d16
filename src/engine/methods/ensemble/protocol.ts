/**
 * @module
 * The ensemble baseline of ChatEval's arXiv version (§3.2 "Multi-Agent (Ensemble)", Tables 1-2, cost Table
 * 6): each role prompt judges alone with the single-agent prompt, no discussion, all calls in one parallel
 * wave; "we average their scores". Pairwise: each answer's total over the roles (with calibration, over both
 * orders: `sum-scores`), the higher total wins; pointwise: the mean score. The authors publish no ensemble
 * config, so the prompt is ours: the single-agent config's prompt with the role prompt added (`prompts.ts`).
 */
import { z } from 'zod';
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { CommonConfigShape, resolveAgentParams } from '../../method.js';
import type { ParsedValue } from '../../parsers/spec.js';
import type { JudgedTask } from '../../judged.js';
import { renderWithCriteria, requireOneDigitScale, requireSlots } from '../../slots.js';
import { templateField, templateText } from '../../template.js';
import {
  agentsOf,
  CHATEVAL_PAIRWISE_FINAL,
  CHATEVAL_POINTWISE_FINAL,
  CRITERIA_SLOT_PLACEHOLDERS,
  DebaterSchema,
  finalFormat,
  JudgePromptShape,
  pairwiseVerdict,
  pointwiseVerdict,
  requireCriteriaFor,
  resolveAgents,
  TASK_PAIRWISE,
  TASK_POINTWISE,
  taskVars,
  voteOf,
} from '../chateval/index.js';
import { ENSEMBLE_PAIRWISE_TEMPLATE, ENSEMBLE_POINTWISE_TEMPLATE, ENSEMBLE_SLOTS } from './prompts.js';

/** Ensemble config; defaults: General Public, Critic, News Author (the configs' generic order), the single-agent prompt. */
export const ensembleConfigSchema = z
  .object({
    method: z.literal('ensemble'),
    ...CommonConfigShape,
    ...JudgePromptShape,
    /** 1-8 role prompts, each judged once. Default General Public, Critic, News Author (arXiv: 3 single-agent runs). */
    agents: z
      .array(DebaterSchema)
      .min(1)
      .max(8)
      .default([{ role: 'General Public' }, { role: 'Critic' }, { role: 'News Author' }]),
    /** Prompt templates; defaults are ours (see the module note). */
    templates: z
      .object({
        pairwise: templateField(TASK_PAIRWISE, ENSEMBLE_PAIRWISE_TEMPLATE),
        pairwiseFinal: templateField(['aspect', 'scale_min', 'scale_max'], CHATEVAL_PAIRWISE_FINAL),
        pointwise: templateField(TASK_POINTWISE, ENSEMBLE_POINTWISE_TEMPLATE),
        /** Pointwise prompts by lower-case aspect name. Default {}. */
        pointwiseByAspect: z.record(z.string(), templateText(TASK_POINTWISE)).default({}),
        pointwiseFinal: templateField(['aspect', 'scale_min', 'scale_max'], CHATEVAL_POINTWISE_FINAL),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    const r = resolveAgents(c.agents, { group: c.roleGroup, source: c.promptSource });
    if (!r.ok)
      ctx.addIssue({ code: 'custom', path: ['agents', r.missing, 'role'], message: 'this agent needs a role' });
  });
export type EnsembleConfig = z.infer<typeof ensembleConfigSchema>;

/** Ensemble state: each role's parsed reply by agent index (null = never parsed). Plain JSON. */
export interface EnsembleState {
  finals: Record<string, ParsedValue | null>;
}

const callId = (agent: number) => `ensemble/agent${agent}`;

/** The prompt template for a task and the config field it comes from. */
function templateFor(config: EnsembleConfig, task: JudgedTask): { field: string; template: string } {
  if (task.kind === 'pairwise') return { field: 'config.templates.pairwise', template: config.templates.pairwise };
  const name = task.aspect.name.toLowerCase();
  const own = config.templates.pointwiseByAspect[name];
  return own !== undefined
    ? { field: `config.templates.pointwiseByAspect.${name}`, template: own }
    : { field: 'config.templates.pointwise', template: config.templates.pointwise };
}

/** The ensemble baseline as a {@link MethodDefinition}. */
export const ensembleMethod: MethodDefinition<EnsembleConfig, EnsembleState> = {
  method: 'ensemble',
  // 2: the single-agent config's prompt; totals over roles; the authors' read rules.
  version: 2,
  paper: 'ChatEval arXiv §3.2 (Multi-Agent Ensemble), Tables 1-2',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: ensembleConfigSchema,

  init(config, task): EnsembleState {
    const template = templateFor(config, task);
    requireCriteriaFor(task, template);
    requireSlots(task.criteria, [template], ENSEMBLE_SLOTS, CRITERIA_SLOT_PLACEHOLDERS);
    if (task.kind === 'pointwise' && config.pointwiseRead === 'last-char')
      requireOneDigitScale(
        task.criteria,
        task.aspect.scale,
        "pointwiseRead 'last-char' reads the last character (the authors' script; 'labelled' reads more)",
      );
    return { finals: {} };
  },

  step(config, task, state): StepResult {
    const agents = agentsOf(config.agents, { group: config.roleGroup, source: config.promptSource });
    const pending = agents.filter((_, i) => !(String(i) in state.finals));
    if (pending.length > 0) {
      const final = finalFormat(task, config, config.templates);
      return {
        kind: 'calls',
        calls: pending.map((agent) => ({
          id: callId(agents.indexOf(agent)),
          agent: agent.id,
          label: agent.name,
          stage: 'ensemble',
          ...resolveAgentParams(config.defaults, agent.params),
          messages: [
            {
              role: 'user' as const,
              content: renderWithCriteria(
                templateFor(config, task).template,
                taskVars(task, config, agent, final.prompt),
                task.criteria,
                ENSEMBLE_SLOTS,
                task.kind === 'pointwise' ? { aspect: task.aspect } : {},
              ),
            },
          ],
          parser: final.parser,
        })),
      };
    }
    const votes = agents.map((a, i) => voteOf(task, a, state.finals[String(i)]));
    const details = { agents: agents.map((a) => a.name) };
    return {
      kind: 'verdict',
      verdict:
        task.kind === 'pointwise' ? pointwiseVerdict(task, votes, details) : pairwiseVerdict(votes, config, details),
    };
  },

  reduce(config, _task, state, reply: FinalReply): EnsembleState {
    const i = config.agents.findIndex((_, k) => callId(k) === reply.callId);
    if (i < 0) return state;
    return { finals: { ...state.finals, [String(i)]: reply.ok ? reply.value : null } };
  },

  plannedCalls(config): number {
    return config.agents.length;
  },
};
