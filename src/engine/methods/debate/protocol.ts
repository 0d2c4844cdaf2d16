/**
 * @module
 * DEBATE: Devil's Advocate-Based Assessment and Text Evaluation (Kim et al.; §3, Algorithm 1, Appendix B.1,
 * C.3, E.1-E.2). The loop, one call per wave (ids `score0`, `critic1`, `score1`, `critic2`, `score2`, …,
 * `tiebreaker`): the Scorer scores P; for i = 1..n the Critic reviews, a reply with NO_ISSUE ends the loop,
 * otherwise the Scorer scores again on the feedback; the final score is the Scorer's last reply (or, with
 * the Tie-breaker of C.3 and no NO_ISSUE, the Tie-breaker's). The Commander is deterministic orchestration.
 *
 * Two readings (`promptSource`), because the paper and the authors' `debate.py` differ:
 * - `code` (default): the Scorer receives P alone; every Critic message carries P and the Scorer's **first**
 *   reply (the code forwards `_oai_messages[score_agent][1]`; `criticSees: 'latest-reply'` is B.1's step 6);
 *   the Critic is never told about NO_ISSUE, and the loop stops when its reply contains `NO_ISSUE`; the score
 *   is read as `evalute_score.py` reads it (first digit of the first integer; fluency: last digit of the last
 *   integer) from the Scorer's last reply only.
 * - `paper`: the Commander's E.1 message opens the Scorer's prompt, the Scorer ends with `Score: <n>`, the
 *   Critic is told to say NO_ISSUE (any of NO_ISSUE / NO ISSUE / NO_ISSUES), the last parsed score stands.
 * The code's autogen Commander also auto-replies once per exchange with an LLM of its own; those replies are
 * not reproduced (no text of theirs reaches the score).
 * Under a budget (`truncate`, only when one refuses a call after the first score) the loop ends there and
 * the Scorer's last score stands.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../call.js';
import type { CallSpec, FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape, resolveAgentParams } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import type { PointwiseTask, Task } from '../../task.js';
import { capitalise, renderTemplate, templateField } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { ASPECT_DESCRIPTIONS, GEVAL_SUMMEVAL_PROMPTS } from '../single/index.js';
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
  TIE_BREAKER_BY_DOMAIN,
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
    /** `code` (default) or `paper`: see the module note. */
    promptSource: z.enum(['code', 'paper']).default('code'),
    /** What each Critic message shows: the Scorer's `first-reply` (the code) or its `latest-reply` (B.1). Default `first-reply`. */
    criticSees: z.enum(['first-reply', 'latest-reply']).default('first-reply'),
    /** Critic persona (§4 "Persona of the Critic"). Default `strict`, DEBATE's Devil's Advocate. */
    criticPersona: z.enum(CRITIC_PERSONA_NAMES).default('strict'),
    /** Replaces the persona's system message for the Critic. */
    criticSystem: z.string().min(1).max(8_000).optional(),
    /** Replaces the Scorer's system message (default E.1's). */
    scorerSystem: z.string().min(1).max(8_000).optional(),
    /** Replaces the Commander's message that opens the Scorer's prompt under `paper`. */
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
    critic: AgentParamsSchema.default({}),
    tieBreaker: AgentParamsSchema.default({}),
  })
  .strict();
/** A resolved DEBATE config. */
export type DebateConfig = z.infer<typeof debateConfigSchema>;

/** One recorded reply of the debate. */
export interface DebateTurn {
  role: 'scorer' | 'critic' | 'tiebreaker';
  /** 0 for the first score, i for `critic<i>` / `score<i>`, n + 1 for the tie-breaker. */
  iteration: number;
  content: string;
  parsed: boolean;
  score?: number;
  noIssue?: boolean;
}

/** DEBATE's state: the replies so far, in order. Plain JSON. */
export interface DebateState {
  turns: DebateTurn[];
  /** Set when a budget refused the next call: the loop ends with the Scorer's last score (absent otherwise). */
  truncated?: true;
}

function asPointwise(task: Task): PointwiseTask {
  if (task.kind !== 'pointwise') throw new Error('DEBATE judges pointwise tasks only');
  return task;
}

function template(config: DebateConfig, name: TemplateName): string {
  const own = config.templates[name];
  if (own !== undefined) return own;
  if (config.promptSource === 'code' && (name === 'scorer' || name === 'critic' || name === 'revise'))
    return DEBATE_CODE_TEMPLATES[name];
  if (config.promptSource === 'code' && name === 'criticFollowUp') return DEBATE_CODE_TEMPLATES.critic;
  return DEBATE_TEMPLATES[name];
}

function baseVars(task: PointwiseTask): Record<string, string | number> {
  return {
    aspect: task.aspect.name,
    Aspect: capitalise(task.aspect.name),
    min: task.aspect.scale.min,
    max: task.aspect.scale.max,
  };
}

/**
 * Step 1 / Alg. 1 line 3: the predefined template P. SummEval's four aspects use G-Eval's prompt file (the
 * code's basis); otherwise P is assembled after E.2 from the domain's frame and the aspect.
 */
export function formulatePrompt(config: DebateConfig, task: PointwiseTask): string {
  const { name, scale } = task.aspect;
  const verbatim =
    config.domain === 'summeval' && config.templates.evaluation === undefined
      ? GEVAL_SUMMEVAL_PROMPTS[name.toLowerCase()]
      : undefined;
  if (verbatim !== undefined) return renderTemplate(verbatim, { Document: task.source, Summary: task.output });
  const frame = FRAMES[config.domain];
  const set = ASPECT_SET_OF[config.domain];
  const known = set ? ASPECT_DESCRIPTIONS[set][name.toLowerCase()] : undefined;
  const description = task.aspect.description ?? known?.description;
  const criteria = `${capitalise(name)} (${scale.min}-${scale.max})${description ? ` - ${description}` : ''}`;
  const steps = known
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
  return renderTemplate(template(config, 'evaluation'), {
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

const NO_SCORE = 'no readable score';

/** The score of the Scorer turn at or before `index` ("no readable score" when it never parsed). */
function forwardedScore(turns: readonly DebateTurn[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const t = turns[i];
    if (t?.role === 'scorer') return t.score !== undefined ? String(t.score) : NO_SCORE;
  }
  return NO_SCORE;
}

/** The Scorer's parser: `evalute_score.py`'s rule (code) or a `Score:` line (paper). */
function scorerParser(config: DebateConfig, task: PointwiseTask): ParserSpec {
  if (config.promptSource === 'code')
    return { type: 'debate-score', from: task.aspect.name.toLowerCase() === 'fluency' ? 'last' : 'first' };
  return { type: 'labelled-score', label: 'Score', min: task.aspect.scale.min, max: task.aspect.scale.max };
}

function criticLabel(config: DebateConfig): string {
  return config.criticSystem !== undefined ? 'Critic (custom)' : `Critic (${config.criticPersona})`;
}

/** The Scorer's conversation: P, then its replies and the Critic's forwarded feedback. */
function scorerMessages(config: DebateConfig, task: PointwiseTask, state: DebateState, prompt: string): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: config.scorerSystem ?? SCORER_SYSTEM },
    {
      role: 'user',
      content: renderTemplate(template(config, 'scorer'), {
        ...baseVars(task),
        commander: config.commanderMessage ?? COMMANDER_MESSAGE,
        prompt,
      }),
    },
  ];
  state.turns.forEach((t, i) => {
    if (t.role === 'scorer') messages.push({ role: 'assistant', content: t.content });
    else if (t.role === 'critic')
      messages.push({
        role: 'user',
        content: renderTemplate(template(config, 'revise'), {
          ...baseVars(task),
          feedback: t.content,
          score: forwardedScore(state.turns, i),
        }),
      });
  });
  return messages;
}

/** The Critic's conversation: one forward per Scorer turn it reviews, then its own replies. */
function criticMessages(config: DebateConfig, task: PointwiseTask, state: DebateState, prompt: string): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: config.criticSystem ?? CRITIC_PERSONAS[config.criticPersona] },
  ];
  const firstScorer = state.turns.findIndex((t) => t.role === 'scorer');
  let first = true;
  let previous = NO_SCORE;
  state.turns.forEach((t, i) => {
    if (t.role === 'critic') messages.push({ role: 'assistant', content: t.content });
    else if (t.role === 'scorer') {
      const shown = config.criticSees === 'first-reply' ? firstScorer : i;
      const score = forwardedScore(state.turns, shown);
      const vars = {
        ...baseVars(task),
        prompt,
        response: state.turns[shown]?.content ?? '',
        score,
        previous_score: previous,
      };
      messages.push({
        role: 'user',
        content: renderTemplate(template(config, first ? 'critic' : 'criticFollowUp'), vars),
      });
      first = false;
      previous = score;
    }
  });
  return messages;
}

/** C.3: the Tie-breaker reads P and the whole debate log. */
function tieBreakerMessages(
  config: DebateConfig,
  task: PointwiseTask,
  state: DebateState,
  prompt: string,
): ChatMessage[] {
  const log = state.turns.map((t) => `${t.role === 'scorer' ? 'Scorer' : 'Critic'}: ${t.content}`).join('\n\n');
  return [
    { role: 'system', content: config.tieBreakerSystem ?? TIE_BREAKER_BY_DOMAIN[config.domain] },
    { role: 'user', content: renderTemplate(template(config, 'tieBreaker'), { ...baseVars(task), prompt, log }) },
  ];
}

type Next =
  | { kind: 'score'; iteration: number }
  | { kind: 'critic'; iteration: number }
  | { kind: 'tiebreaker' }
  | { kind: 'done'; stoppedByNoIssue: boolean };

/** What Algorithm 1 does next from the replies so far. */
function nextMove(config: DebateConfig, state: DebateState): Next {
  const last = state.turns.at(-1);
  if (!last) return { kind: 'score', iteration: 0 };
  if (state.truncated) return { kind: 'done', stoppedByNoIssue: false };
  switch (last.role) {
    case 'tiebreaker':
      return { kind: 'done', stoppedByNoIssue: false };
    case 'critic':
      return last.noIssue ? { kind: 'done', stoppedByNoIssue: true } : { kind: 'score', iteration: last.iteration };
    case 'scorer':
      if (last.iteration < config.maxIterations) return { kind: 'critic', iteration: last.iteration + 1 };
      return config.useTieBreaker ? { kind: 'tiebreaker' } : { kind: 'done', stoppedByNoIssue: false };
  }
}

function idOf(next: Exclude<Next, { kind: 'done' }>): string {
  return next.kind === 'tiebreaker' ? 'tiebreaker' : `${next.kind}${next.iteration}`;
}

function callFor(
  config: DebateConfig,
  task: PointwiseTask,
  state: DebateState,
  next: Exclude<Next, { kind: 'done' }>,
): CallSpec {
  const prompt = formulatePrompt(config, task);
  const tieParser: ParserSpec = {
    type: 'labelled-score',
    label: 'Score',
    min: task.aspect.scale.min,
    max: task.aspect.scale.max,
  };
  switch (next.kind) {
    case 'score':
      return {
        id: idOf(next),
        agent: 'scorer',
        label: 'Scorer',
        stage: next.iteration === 0 ? 'initial score' : `iteration ${next.iteration} re-score`,
        ...resolveAgentParams(config.defaults, config.scorer),
        messages: scorerMessages(config, task, state, prompt),
        parser: scorerParser(config, task),
      };
    case 'critic':
      return {
        id: idOf(next),
        agent: 'critic',
        label: criticLabel(config),
        stage: `iteration ${next.iteration} critique`,
        ...resolveAgentParams(config.defaults, config.critic),
        messages: criticMessages(config, task, state, prompt),
        parser: { type: 'critique', ...(config.promptSource === 'code' ? { noIssue: 'code' as const } : {}) },
      };
    case 'tiebreaker':
      return {
        id: idOf(next),
        agent: 'tiebreaker',
        label: 'Tie-breaker',
        stage: 'tie-break',
        ...resolveAgentParams(config.defaults, config.tieBreaker),
        messages: tieBreakerMessages(config, task, state, prompt),
        parser: tieParser,
      };
  }
}

/**
 * The verdict. Final score: the Tie-breaker's when it ran and parsed; else (code) the Scorer's last reply's
 * score, none if it has no number, or (paper) the Scorer's last parsed score. Confidence: 1 − (max − min) /
 * scale width over every parsed score of the debate.
 */
function conclude(
  config: DebateConfig,
  task: PointwiseTask,
  state: DebateState,
  stoppedByNoIssue: boolean,
): MethodVerdict {
  const scorers = state.turns.filter((t) => t.role === 'scorer');
  const lastScorer = scorers.at(-1);
  const scorerScore =
    config.promptSource === 'code'
      ? lastScorer?.score
      : [...scorers].reverse().find((t) => t.score !== undefined)?.score;
  const tie = state.turns.find((t) => t.role === 'tiebreaker');
  const score = tie?.score ?? scorerScore;
  const votes: Vote[] = [];
  if (lastScorer)
    votes.push({
      agent: 'scorer',
      label: 'Scorer',
      ...(scorerScore !== undefined ? { score: scorerScore } : {}),
      parsed: lastScorer.parsed,
    });
  if (tie)
    votes.push({
      agent: 'tiebreaker',
      label: 'Tie-breaker',
      ...(tie.score !== undefined ? { score: tie.score } : {}),
      parsed: tie.parsed,
    });
  const all = state.turns.flatMap((t) => (t.score !== undefined ? [t.score] : []));
  const range = task.aspect.scale.max - task.aspect.scale.min;
  const confidence =
    score === undefined || all.length === 0 ? 0 : Math.max(0, 1 - (Math.max(...all) - Math.min(...all)) / range);
  return {
    ...(score !== undefined ? { score } : {}),
    votes,
    confidence,
    details: {
      promptSource: config.promptSource,
      iterations: state.turns.filter((t) => t.role === 'critic').length,
      stoppedByNoIssue,
      tieBreakerUsed: tie !== undefined,
      scoreHistory: scorers.map((t) => t.score ?? null),
      ...(tie ? { tieBreakerScore: tie.score ?? null } : {}),
      finalFrom: tie?.score !== undefined ? 'tiebreaker' : score !== undefined ? 'scorer' : 'none',
    },
    ...(state.truncated
      ? {
          truncation: {
            iterationsRun: state.turns.filter((t) => t.role === 'critic').length,
            iterationsPlanned: config.maxIterations,
            scorerTurns: scorers.length,
            tieBreakerCut: config.useTieBreaker && !tie,
          },
        }
      : {}),
  };
}

/** DEBATE as a protocol: one call per wave, pointwise tasks only. */
export const debateMethod: MethodDefinition<DebateConfig, DebateState> = {
  method: 'debate',
  // 2: the code reading (P alone, the first reply shown to the Critic, evalute_score.py's read).
  version: 2,
  paper: 'DEBATE (Kim et al.) §3, Algorithm 1, Appendix B.1, C.3, E.1-E.2',
  // The paper evaluates pointwise aspects only and gives no pairwise template.
  taskKinds: ['pointwise'],
  configSchema: debateConfigSchema,
  init(): DebateState {
    return { turns: [] };
  },
  step(config, task, state): StepResult {
    const t = asPointwise(task);
    const next = nextMove(config, state);
    if (next.kind === 'done') return { kind: 'verdict', verdict: conclude(config, t, state, next.stoppedByNoIssue) };
    return { kind: 'calls', calls: [callFor(config, t, state, next)] };
  },
  reduce(config, _task, state, reply: FinalReply): DebateState {
    const next = nextMove(config, state);
    if (next.kind === 'done' || reply.callId !== idOf(next)) return state;
    const value = reply.ok ? reply.value : undefined;
    const turn: DebateTurn =
      next.kind === 'critic'
        ? {
            role: 'critic',
            iteration: next.iteration,
            content: reply.content,
            parsed: reply.ok,
            noIssue: value?.kind === 'critique' ? value.noIssue : false,
          }
        : {
            role: next.kind === 'tiebreaker' ? 'tiebreaker' : 'scorer',
            iteration: next.kind === 'tiebreaker' ? config.maxIterations + 1 : next.iteration,
            content: reply.content,
            parsed: reply.ok && value?.kind === 'score',
            ...(value?.kind === 'score' ? { score: value.score } : {}),
          };
    return { turns: [...state.turns, turn] };
  },
  plannedCalls(config): number {
    return 1 + 2 * config.maxIterations + (config.useTieBreaker ? 1 : 0);
  },
  // A budget refused a call: the loop ends as if the Critic had no more turns, and the Scorer's last score
  // stands (a refused re-score leaves the last critique unanswered). Nothing stands before the first score.
  truncate(_config, _task, state, refused): DebateState | null {
    return refused.callId === 'score0' ? null : { ...state, truncated: true };
  },
};
