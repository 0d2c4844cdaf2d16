/**
 * @module
 * What DEBATE's two flows share (`code-flow.ts`, `paper-flow.ts`): the config, the state, the predefined
 * template P, the Commander's forwards and how a reply is read.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../call.js';
import type { CallSpec } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape, resolveAgentParams } from '../../method.js';
import { parseReply } from '../../parsers/parse.js';
import type { ParserSpec } from '../../parsers/spec.js';
import type { JudgedPointwiseTask, JudgedTask } from '../../judged.js';
import { criteriaText, renderWithCriteria, requireOneDigitScale, requireSlots } from '../../slots.js';
import { capitalise, renderTemplate, templateField } from '../../template.js';
import { ASPECT_DESCRIPTIONS, GEVAL_RUBRIC_STEPS, GEVAL_SLOTS, GEVAL_SUMMEVAL_PROMPTS } from '../single/index.js';
import type { TemplateName } from './prompts.js';
import {
  ASPECT_SET_OF,
  COMMANDER_MESSAGE,
  CRITIC_PERSONA_NAMES,
  CRITIC_PERSONAS,
  DEBATE_CODE_TEMPLATES,
  DEBATE_DOMAINS,
  DEBATE_TEMPLATE_PLACEHOLDERS,
  DEBATE_TEMPLATES,
  FRAMES,
  SCORER_SYSTEM,
} from './prompts.js';

/** DEBATE's config. Every field has a default; agents run at temperature 0 (C.1, `debate.py`). */
export const debateConfigSchema = z
  .object({
    method: z.literal('debate'),
    ...CommonConfigShape,
    /** Maximum Critic iterations n, 1-10. Default 2 (`debate.py`; §4 finds a plateau at n = 4). */
    maxIterations: z.number().int().min(1).max(10).default(2),
    /** Benchmark framing for the template's nouns, input layout and aspect texts. Default `generic`. */
    domain: z.enum(DEBATE_DOMAINS).default('generic'),
    /** `code` (default) or `paper`: the loop's turns and where the score is read (see the module note). */
    flow: z.enum(['code', 'paper']).default('code'),
    /** `code` (default) or `paper`: the messages and read rules (see the module note). */
    promptSource: z.enum(['code', 'paper']).default('code'),
    /** What each Critic message shows: the Scorer's `first-reply` (the code) or its `latest-reply` (B.1). Default `first-reply`. */
    criticSees: z.enum(['first-reply', 'latest-reply']).default('first-reply'),
    /** Critic persona (§4 "Persona of the Critic"). Default `strict`, DEBATE's Devil's Advocate. */
    criticPersona: z.enum(CRITIC_PERSONA_NAMES).default('strict'),
    /** Replaces the persona's system message for the Critic. */
    criticSystem: z.string().min(1).max(8_000).optional(),
    /** Replaces the Scorer's system message (default E.1's). */
    scorerSystem: z.string().min(1).max(8_000).optional(),
    /** Replaces the Commander's system message (default E.1's), sent with its LLM replies under `flow: 'code'`. */
    commanderSystem: z.string().min(1).max(8_000).optional(),
    /** Replaces the Commander's message that opens the Scorer's prompt under `promptSource: 'paper'`. */
    commanderMessage: z.string().min(1).max(8_000).optional(),
    /** Run the Tie-breaker when the Critic never says NO_ISSUE within n iterations (C.3; not in the code). Default false. */
    useTieBreaker: z.boolean().default(false),
    /** Replaces the Tie-breaker's system message. */
    tieBreakerSystem: z.string().min(1).max(8_000).optional(),
    /** Template overrides; an omitted template uses the reading's default. */
    templates: z
      .object({
        evaluation: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.evaluation),
        scorer: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.scorer),
        critic: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.critic),
        criticFollowUp: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.criticFollowUp),
        revise: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.revise),
        tieBreaker: templateField(DEBATE_TEMPLATE_PLACEHOLDERS.tieBreaker),
      })
      .strict()
      .default({}),
    scorer: AgentParamsSchema.default({}),
    /** Model settings of the Commander's LLM replies (`flow: 'code'`). */
    commander: AgentParamsSchema.default({}),
    critic: AgentParamsSchema.default({}),
    tieBreaker: AgentParamsSchema.default({}),
  })
  .strict();
/** A resolved DEBATE config. */
export type DebateConfig = z.infer<typeof debateConfigSchema>;

/** One recorded final reply. */
export interface DebateReply {
  content: string;
  /** False when the reply never parsed after all re-asks. */
  parsed: boolean;
  /** The score read from it (Scorer and Tie-breaker replies). */
  score?: number;
}

/** DEBATE's state: final replies by call id; the flow is replayed from them. Plain JSON. */
export interface DebateState {
  replies: Record<string, DebateReply>;
  /** Set when a budget refused the next call: the loop ends with the Scorer's last score (absent otherwise). */
  truncated?: true;
}

/** The task as a pointwise one (the core refuses other kinds first; this guards tests). */
export function asPointwise(task: JudgedTask): JudgedPointwiseTask {
  if (task.kind !== 'pointwise') throw new Error('DEBATE judges pointwise tasks only');
  return task;
}

/** A template by name: the config's own, else the reading's default. */
export function template(config: DebateConfig, name: TemplateName): string {
  const own = config.templates[name];
  if (own !== undefined) return own;
  if (config.promptSource === 'code' && (name === 'scorer' || name === 'critic' || name === 'revise'))
    return DEBATE_CODE_TEMPLATES[name];
  if (config.promptSource === 'code' && name === 'criticFollowUp') return DEBATE_CODE_TEMPLATES.critic;
  return DEBATE_TEMPLATES[name];
}

/** The evaluation template (P's form when it is assembled). */
const evaluationTemplate = (config: DebateConfig): string => template(config, 'evaluation');

/** The aspect placeholders every template may use. */
export function baseVars(task: JudgedPointwiseTask): Record<string, string | number> {
  return {
    aspect: task.aspect.name,
    Aspect: capitalise(task.aspect.name),
    min: task.aspect.scale.min,
    max: task.aspect.scale.max,
  };
}

/** G-Eval's prompt file that is P for this task (SummEval's four aspects, no evaluation template of the config's own). */
function verbatimP(config: DebateConfig, task: JudgedPointwiseTask): string | undefined {
  return config.domain === 'summeval' && config.templates.evaluation === undefined
    ? GEVAL_SUMMEVAL_PROMPTS[task.aspect.name.toLowerCase()]
    : undefined;
}

/**
 * A rubric's criteria need a slot in P: G-Eval's files have theirs (criteria paragraph, steps), the assembled
 * P its `{{criteria}}` (and `{{steps}}`). @throws EngineInputError for an evaluation template without one.
 */
export function checkCriteriaSlot(config: DebateConfig, task: JudgedPointwiseTask): void {
  const template = verbatimP(config, task) ?? evaluationTemplate(config);
  requireSlots(task.criteria, [{ field: 'config.templates.evaluation', template }], GEVAL_SLOTS, ['criteria']);
  if (config.promptSource === 'code')
    requireOneDigitScale(
      task.criteria,
      task.aspect.scale,
      "promptSource 'code' reads one digit (evalute_score.py; 'paper' reads a Score: line)",
    );
}

/**
 * Step 1 / Alg. 1 line 3: the predefined template P. SummEval's four aspects use G-Eval's prompt file (the
 * code's basis); otherwise P is assembled after E.2 from the domain's frame and the aspect. A rubric's
 * criteria stand in P's criteria line (the file's criteria paragraph), its steps in P's steps.
 */
export function formulatePrompt(config: DebateConfig, task: JudgedPointwiseTask): string {
  const { name, scale } = task.aspect;
  const c = task.criteria;
  const verbatim = verbatimP(config, task);
  if (verbatim !== undefined)
    return renderWithCriteria(verbatim, { Document: task.source, Summary: task.output }, c, GEVAL_SLOTS, {
      aspect: task.aspect,
      fallbackSteps: GEVAL_RUBRIC_STEPS,
    });
  const frame = FRAMES[config.domain];
  const set = ASPECT_SET_OF[config.domain];
  // With a rubric the aspect's known texts are not its criteria: the rubric's are, with its steps or generic ones.
  const known = c ? undefined : set ? ASPECT_DESCRIPTIONS[set][name.toLowerCase()] : undefined;
  const description = c ? criteriaText(c, false) : (task.aspect.description ?? known?.description);
  const criteria = `${capitalise(name)} (${scale.min}-${scale.max})${description ? ` - ${description}` : ''}`;
  const steps = c?.steps
    ? c.steps
    : known
      ? renderTemplate(known.steps, { min: scale.min, max: scale.max, aspect: capitalise(name) })
      : [
          `Read the ${frame.source} carefully and identify the main points.`,
          `Read the ${frame.output} and compare it to the ${frame.source}, with the Evaluation Criteria in mind.`,
          `Assign a score for ${name} on a scale of ${scale.min} to ${scale.max}, where ${scale.min} is the lowest and ${scale.max} is the highest based on the Evaluation Criteria.`,
        ]
          .map((s, i) => `${i + 1}. ${s}`)
          .join('\n');
  const inputs = [
    `${frame.headings.source}:\n\n${task.source}`,
    ...(task.context !== undefined ? [`${frame.headings.context}:\n\n${task.context}`] : []),
    `${frame.headings.output}:\n\n${task.output}`,
  ].join('\n\n');
  return renderTemplate(evaluationTemplate(config), {
    ...baseVars(task),
    intro: frame.intro,
    output_noun: frame.output,
    source_noun: frame.source,
    criteria,
    steps,
    inputs,
    source: task.source,
    context: task.context ?? '',
    output: task.output,
  });
}

/** The Scorer's first message: P alone (code) or the Commander's request around it (paper). */
export function scorerOpening(config: DebateConfig, task: JudgedPointwiseTask): string {
  return renderTemplate(template(config, 'scorer'), {
    ...baseVars(task),
    commander: config.commanderMessage ?? COMMANDER_MESSAGE,
    prompt: formulatePrompt(config, task),
  });
}

/** What a forward says for a Scorer reply without a readable score. */
export const NO_SCORE = 'no readable score';

/** The Scorer's parser: `evalute_score.py`'s rule (code) or a `Score:` line (paper). */
export function scorerParser(config: DebateConfig, task: JudgedPointwiseTask): ParserSpec {
  if (config.promptSource === 'code')
    return { type: 'debate-score', from: task.aspect.name.toLowerCase() === 'fluency' ? 'last' : 'first' };
  return { type: 'labelled-score', label: 'Score', min: task.aspect.scale.min, max: task.aspect.scale.max };
}

/** The Critic's parser: NO_ISSUE as the code tests it, or the paper's variants. */
export function critiqueParser(config: DebateConfig): ParserSpec {
  return { type: 'critique', ...(config.promptSource === 'code' ? { noIssue: 'code' as const } : {}) };
}

/** The score a text reads as under the Scorer's rule, if any. */
export function readScore(config: DebateConfig, task: JudgedPointwiseTask, text: string): number | undefined {
  const r = parseReply(scorerParser(config, task), text);
  return r.ok && r.value.kind === 'score' ? r.value.score : undefined;
}

/** Whether a text ends the loop: `NO_ISSUE` in it (code), or the paper's NO ISSUE variants. */
export function saysNoIssue(config: DebateConfig, text: string): boolean {
  const r = parseReply(critiqueParser(config), text);
  return r.ok && r.value.kind === 'critique' && r.value.noIssue;
}

/** The Critic's display label: its persona, or `custom`. */
export function criticLabel(config: DebateConfig): string {
  return config.criticSystem !== undefined ? 'Critic (custom)' : `Critic (${config.criticPersona})`;
}

/** A score as forwards show it, {@link NO_SCORE} when there is none. */
export const scoreText = (score: number | undefined): string => (score !== undefined ? String(score) : NO_SCORE);

/** The Commander's forward to the Critic: P and the Scorer reply it shows, with that reply's score. */
export function forwardText(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  prompt: string,
  iteration: number,
  shown: string,
  previous: string,
): string {
  const vars = {
    ...baseVars(task),
    prompt,
    response: shown,
    score: scoreText(readScore(config, task, shown)),
    previous_score: previous,
  };
  return renderTemplate(template(config, iteration === 1 ? 'critic' : 'criticFollowUp'), vars);
}

/** The Commander's forward of a critique to the Scorer, with the score the Critic reviewed. */
export function reviseText(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  feedback: string,
  reviewed: string,
): string {
  return renderTemplate(template(config, 'revise'), { ...baseVars(task), feedback, score: reviewed });
}

/** Where the debate stands: the next call, or what the verdict is made of. */
export interface Position {
  next?: CallSpec;
  stoppedByNoIssue: boolean;
  iterations: number;
  /** Scores of the Scorer's replies, in order (null when one has none). */
  scoreHistory: (number | null)[];
  /** The debate's own result before any Tie-breaker. */
  result: {
    score?: number;
    from: 'scorer' | 'feedback' | 'prompt' | 'commander' | 'none';
    message?: string;
    /** False when the message the result stands on did not read (the paper reading then keeps an earlier score). */
    parsed: boolean;
  };
  /** Calls made, in order. */
  calls: string[];
}

/** No result yet, or none readable. */
export const NO_RESULT = { from: 'none', parsed: false } as const;

/** A Scorer call (`score<i>`) on its conversation, after its system message. */
export function scorerCall(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  id: string,
  iteration: number,
  conversation: readonly ChatMessage[],
): CallSpec {
  return {
    id,
    agent: 'scorer',
    label: 'Scorer',
    stage: iteration === 0 ? 'initial score' : `iteration ${iteration} re-score`,
    ...resolveAgentParams(config.defaults, config.scorer),
    messages: [{ role: 'system', content: config.scorerSystem ?? SCORER_SYSTEM }, ...conversation],
    parser: scorerParser(config, task),
  };
}

/** A Critic call (`critic<i>`) on its conversation, after its persona's system message. */
export function criticCall(
  config: DebateConfig,
  id: string,
  iteration: number,
  conversation: readonly ChatMessage[],
): CallSpec {
  return {
    id,
    agent: 'critic',
    label: criticLabel(config),
    stage: `iteration ${iteration} critique`,
    ...resolveAgentParams(config.defaults, config.critic),
    messages: [
      { role: 'system', content: config.criticSystem ?? CRITIC_PERSONAS[config.criticPersona] },
      ...conversation,
    ],
    parser: critiqueParser(config),
  };
}
