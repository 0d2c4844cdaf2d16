/**
 * @module
 * DEBATE: Devil's Advocate-Based Assessment and Text Evaluation (Kim et al.; §3, Algorithm 1, Appendix B.1,
 * C.3, E.1-E.2). The Scorer scores the predefined template P, the Critic (the Devil's Advocate) reviews the
 * score, the Commander forwards; a Critic reply with NO_ISSUE ends the loop after at most n iterations.
 *
 * Two control flows (`flow`), because the paper and the authors' `debate.py` differ:
 * - `code` (default): the loop as `debate.py` runs it under pyautogen's reply rules (`autogen.ts`): the
 *   Commander answers the Scorer's first reply with an LLM call of its own (`commander0`), which stays in the
 *   Scorer's conversation; the Scorer answers at most twice in a row, so for n = 2 the calls are `score0`,
 *   `commander0`, `critic1`, `score1`, `critic2`; the score is read from the last-but-one message of the
 *   Scorer's conversation, which is the Commander's feedback text when the second critique says NO_ISSUE.
 * - `paper`: Algorithm 1 and B.1: the Scorer re-scores after every critique (`score0`, `critic1`, `score1`,
 *   `critic2`, `score2`, …) and its last reply is the score.
 *
 * And two prompt readings (`promptSource`):
 * - `code` (default): the Scorer receives P alone; every Critic message carries P and the Scorer's **first**
 *   reply (the code forwards `_oai_messages[score_agent][1]`; `criticSees: 'latest-reply'` is B.1's step 6);
 *   the Critic is never told about NO_ISSUE, and the loop stops when its reply contains `NO_ISSUE`; scores are
 *   read as `evalute_score.py` reads them (first digit of the first integer; fluency: last digit of the last).
 * - `paper`: the Commander's E.1 message opens the Scorer's prompt, the Scorer ends with `Score: <n>`, the
 *   Critic is told to say NO_ISSUE (any of NO_ISSUE / NO ISSUE / NO_ISSUES), the last parsed score stands.
 * The system messages are Appendix E.1's (the repository has no licence, so its own texts are not copied).
 * With the Tie-breaker of C.3 (paper only) and no NO_ISSUE, the Tie-breaker's score is final.
 * Under a budget (`truncate`, only when one refuses a call after the first score) the loop ends there and
 * the Scorer's last score stands.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../call.js';
import type { CallSpec, FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape, resolveAgentParams } from '../../method.js';
import { parseReply } from '../../parsers/parse.js';
import type { ParserSpec } from '../../parsers/spec.js';
import type { PointwiseTask, Task } from '../../task.js';
import { capitalise, renderTemplate, templateField } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { ASPECT_DESCRIPTIONS, GEVAL_SUMMEVAL_PROMPTS } from '../single/index.js';
import type { AutogenAgent, AutogenRun, ConversationMessage } from './autogen.js';
import { finalMessage, replayAutogen } from './autogen.js';
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

/** The Scorer's first message: P alone (code) or the Commander's request around it (paper). */
function scorerOpening(config: DebateConfig, task: PointwiseTask): string {
  return renderTemplate(template(config, 'scorer'), {
    ...baseVars(task),
    commander: config.commanderMessage ?? COMMANDER_MESSAGE,
    prompt: formulatePrompt(config, task),
  });
}

const NO_SCORE = 'no readable score';

/** The Scorer's parser: `evalute_score.py`'s rule (code) or a `Score:` line (paper). */
function scorerParser(config: DebateConfig, task: PointwiseTask): ParserSpec {
  if (config.promptSource === 'code')
    return { type: 'debate-score', from: task.aspect.name.toLowerCase() === 'fluency' ? 'last' : 'first' };
  return { type: 'labelled-score', label: 'Score', min: task.aspect.scale.min, max: task.aspect.scale.max };
}

function critiqueParser(config: DebateConfig): ParserSpec {
  return { type: 'critique', ...(config.promptSource === 'code' ? { noIssue: 'code' as const } : {}) };
}

/** The score a text reads as under the Scorer's rule, if any. */
function readScore(config: DebateConfig, task: PointwiseTask, text: string): number | undefined {
  const r = parseReply(scorerParser(config, task), text);
  return r.ok && r.value.kind === 'score' ? r.value.score : undefined;
}

/** Whether a text ends the loop: `NO_ISSUE` in it (code), or the paper's NO ISSUE variants. */
function saysNoIssue(config: DebateConfig, text: string): boolean {
  const r = parseReply(critiqueParser(config), text);
  return r.ok && r.value.kind === 'critique' && r.value.noIssue;
}

function criticLabel(config: DebateConfig): string {
  return config.criticSystem !== undefined ? 'Critic (custom)' : `Critic (${config.criticPersona})`;
}

const scoreText = (score: number | undefined): string => (score !== undefined ? String(score) : NO_SCORE);

/** The Commander's forward to the Critic: P and the Scorer reply it shows, with that reply's score. */
function forwardText(
  config: DebateConfig,
  task: PointwiseTask,
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
function reviseText(config: DebateConfig, task: PointwiseTask, feedback: string, reviewed: string): string {
  return renderTemplate(template(config, 'revise'), { ...baseVars(task), feedback, score: reviewed });
}

// ---------------------------------------------------------------------------------------------------
// flow: 'code' (debate.py under autogen's reply rules)
// ---------------------------------------------------------------------------------------------------

/** The Scorer reply a forward shows: the conversation's second message (the code) or the latest reply (B.1). */
function shownReply(config: DebateConfig, scorer: readonly ConversationMessage[]): string {
  if (config.criticSees === 'first-reply') return scorer[1]?.content ?? '';
  return scorer.findLast((m) => m.from === 'scorer')?.content ?? '';
}

/** Replays `debate.py`'s loop from the replies recorded so far. */
function replayCode(config: DebateConfig, task: PointwiseTask, state: DebateState): AutogenRun {
  const prompt = formulatePrompt(config, task);
  const shownScores: string[] = [];
  return replayAutogen({
    iterations: config.maxIterations,
    prompt: scorerOpening(config, task),
    forward: (i, scorer) => {
      const shown = shownReply(config, scorer);
      const text = forwardText(config, task, prompt, i, shown, shownScores.at(-1) ?? NO_SCORE);
      shownScores.push(scoreText(readScore(config, task, shown)));
      return text;
    },
    feedback: (critique) => reviseText(config, task, critique, shownScores.at(-1) ?? NO_SCORE),
    noIssue: (text) => saysNoIssue(config, text),
    reply: (id) => state.replies[id]?.content,
  });
}

/** A conversation as one agent sees it: its own messages are `assistant`, the other's `user`. */
function asSeenBy(agent: AutogenAgent, conversation: readonly ConversationMessage[]): ChatMessage[] {
  return conversation.map((m) => ({ role: m.from === agent ? 'assistant' : 'user', content: m.content }));
}

function codeCall(config: DebateConfig, task: PointwiseTask, run: AutogenRun): CallSpec | undefined {
  const pending = run.pending;
  if (!pending) return undefined;
  const { agent, callId, iteration } = pending;
  switch (agent) {
    case 'scorer':
      return {
        id: callId,
        agent: 'scorer',
        label: 'Scorer',
        stage: iteration === 0 ? 'initial score' : `iteration ${iteration} re-score`,
        ...resolveAgentParams(config.defaults, config.scorer),
        messages: [
          { role: 'system', content: config.scorerSystem ?? SCORER_SYSTEM },
          ...asSeenBy('scorer', run.scorer),
        ],
        parser: scorerParser(config, task),
      };
    case 'commander':
      return {
        id: callId,
        agent: 'commander',
        label: 'Commander',
        stage: iteration === 0 ? 'commander reply' : `iteration ${iteration} commander reply`,
        ...resolveAgentParams(config.defaults, config.commander),
        messages: [
          { role: 'system', content: config.commanderSystem ?? COMMANDER_MESSAGE },
          ...asSeenBy('commander', run.scorer),
        ],
        parser: { type: 'text' },
      };
    case 'critic':
      return {
        id: callId,
        agent: 'critic',
        label: criticLabel(config),
        stage: `iteration ${iteration} critique`,
        ...resolveAgentParams(config.defaults, config.critic),
        messages: [
          { role: 'system', content: config.criticSystem ?? CRITIC_PERSONAS[config.criticPersona] },
          ...asSeenBy('critic', run.critic),
        ],
        parser: critiqueParser(config),
      };
  }
}

/** The Scorer and Critic replies of the code loop, in the order they were made. */
function codeLog(run: AutogenRun): { role: 'scorer' | 'critic'; content: string }[] {
  const out: { role: 'scorer' | 'critic'; content: string }[] = [];
  for (let i = 0; i <= run.iterations; i++) {
    for (const m of run.critic)
      if (m.iteration === i && m.from === 'critic') out.push({ role: 'critic', content: m.content });
    for (const m of run.scorer)
      if (m.iteration === i && m.from === 'scorer') out.push({ role: 'scorer', content: m.content });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// flow: 'paper' (Algorithm 1, B.1)
// ---------------------------------------------------------------------------------------------------

/** One reply of the paper loop, in order. */
interface PaperTurn {
  role: 'scorer' | 'critic';
  iteration: number;
  id: string;
  reply: DebateReply;
}

/** The paper loop's replies so far: `score0`, then `critic<i>`, `score<i>` for i = 1, 2, … */
function paperTurns(config: DebateConfig, state: DebateState): PaperTurn[] {
  const turns: PaperTurn[] = [];
  const ids = ['score0'];
  for (let i = 1; i <= config.maxIterations; i++) ids.push(`critic${i}`, `score${i}`);
  for (const id of ids) {
    const reply = state.replies[id];
    if (!reply) break;
    const critic = id.startsWith('critic');
    turns.push({ role: critic ? 'critic' : 'scorer', iteration: Number(id.replace(/\D+/, '')), id, reply });
  }
  return turns;
}

/** The paper loop's next call id, or whether it stopped on NO_ISSUE. */
function paperNext(
  config: DebateConfig,
  turns: readonly PaperTurn[],
): { id: string; iteration: number } | { stoppedByNoIssue: boolean } {
  const last = turns.at(-1);
  if (!last) return { id: 'score0', iteration: 0 };
  if (last.role === 'critic')
    return saysNoIssue(config, last.reply.content)
      ? { stoppedByNoIssue: true }
      : { id: `score${last.iteration}`, iteration: last.iteration };
  if (last.iteration < config.maxIterations)
    return { id: `critic${last.iteration + 1}`, iteration: last.iteration + 1 };
  return { stoppedByNoIssue: false };
}

/** The score of the Scorer turn at or before `index` ("no readable score" when it never parsed). */
function forwardedScore(turns: readonly PaperTurn[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const t = turns[i];
    if (t?.role === 'scorer') return scoreText(t.reply.score);
  }
  return NO_SCORE;
}

/** The Scorer's conversation in the paper loop: its opening, then its replies and the forwarded feedback. */
function paperScorerMessages(config: DebateConfig, task: PointwiseTask, turns: readonly PaperTurn[]): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: config.scorerSystem ?? SCORER_SYSTEM },
    { role: 'user', content: scorerOpening(config, task) },
  ];
  turns.forEach((t, i) => {
    if (t.role === 'scorer') messages.push({ role: 'assistant', content: t.reply.content });
    else messages.push({ role: 'user', content: reviseText(config, task, t.reply.content, forwardedScore(turns, i)) });
  });
  return messages;
}

/** The Critic's conversation in the paper loop: one forward per Scorer turn it reviews, then its own replies. */
function paperCriticMessages(config: DebateConfig, task: PointwiseTask, turns: readonly PaperTurn[]): ChatMessage[] {
  const prompt = formulatePrompt(config, task);
  const messages: ChatMessage[] = [
    { role: 'system', content: config.criticSystem ?? CRITIC_PERSONAS[config.criticPersona] },
  ];
  const first = turns.find((t) => t.role === 'scorer');
  let previous = NO_SCORE;
  let iteration = 0;
  turns.forEach((t) => {
    if (t.role === 'critic') messages.push({ role: 'assistant', content: t.reply.content });
    else {
      iteration += 1;
      const shown = config.criticSees === 'first-reply' ? (first ?? t) : t;
      messages.push({
        role: 'user',
        content: forwardText(config, task, prompt, iteration, shown.reply.content, previous),
      });
      previous = scoreText(shown.reply.score);
    }
  });
  return messages;
}

function paperCall(
  config: DebateConfig,
  task: PointwiseTask,
  turns: readonly PaperTurn[],
  id: string,
  iteration: number,
): CallSpec {
  if (id.startsWith('critic'))
    return {
      id,
      agent: 'critic',
      label: criticLabel(config),
      stage: `iteration ${iteration} critique`,
      ...resolveAgentParams(config.defaults, config.critic),
      messages: paperCriticMessages(config, task, turns),
      parser: critiqueParser(config),
    };
  return {
    id,
    agent: 'scorer',
    label: 'Scorer',
    stage: iteration === 0 ? 'initial score' : `iteration ${iteration} re-score`,
    ...resolveAgentParams(config.defaults, config.scorer),
    messages: paperScorerMessages(config, task, turns),
    parser: scorerParser(config, task),
  };
}

// ---------------------------------------------------------------------------------------------------
// Both flows
// ---------------------------------------------------------------------------------------------------

/** C.3: the Tie-breaker reads P and the whole debate log. */
function tieBreakerCall(
  config: DebateConfig,
  task: PointwiseTask,
  log: readonly { role: 'scorer' | 'critic'; content: string }[],
): CallSpec {
  const text = log.map((t) => `${t.role === 'scorer' ? 'Scorer' : 'Critic'}: ${t.content}`).join('\n\n');
  const prompt = formulatePrompt(config, task);
  return {
    id: 'tiebreaker',
    agent: 'tiebreaker',
    label: 'Tie-breaker',
    stage: 'tie-break',
    ...resolveAgentParams(config.defaults, config.tieBreaker),
    messages: [
      { role: 'system', content: config.tieBreakerSystem ?? TIE_BREAKER_BY_DOMAIN[config.domain] },
      {
        role: 'user',
        content: renderTemplate(template(config, 'tieBreaker'), { ...baseVars(task), prompt, log: text }),
      },
    ],
    parser: { type: 'labelled-score', label: 'Score', min: task.aspect.scale.min, max: task.aspect.scale.max },
  };
}

/** Where the debate stands: the next call, or what the verdict is made of. */
interface Position {
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

const NO_RESULT = { from: 'none', parsed: false } as const;

function codePosition(config: DebateConfig, task: PointwiseTask, state: DebateState): Position {
  const run = replayCode(config, task, state);
  const scorerReplies = run.scorer.filter((m) => m.from === 'scorer');
  const scoreHistory = scorerReplies.map((m) => state.replies[m.callId ?? '']?.score ?? null);
  const base = { stoppedByNoIssue: run.stoppedByNoIssue, iterations: run.iterations, scoreHistory, calls: run.calls };
  if (state.truncated) {
    const last = scorerReplies.at(-1);
    const score = last ? state.replies[last.callId ?? '']?.score : undefined;
    const result =
      score !== undefined ? { score, from: 'scorer' as const, message: last?.callId, parsed: true } : NO_RESULT;
    return { ...base, result };
  }
  const next = codeCall(config, task, run);
  if (next) return { ...base, next, result: NO_RESULT };
  // `score_agent._oai_messages[commander][-2]`, read by `evalute_score.py`'s rule whatever message it is.
  const final = finalMessage(run);
  if (!final) return { ...base, result: NO_RESULT };
  const message = final.callId ?? (final.kind === 'feedback' ? `feedback${final.iteration}` : 'prompt');
  const score = readScore(config, task, final.content);
  const from =
    final.kind === 'feedback'
      ? 'feedback'
      : final.kind === 'prompt'
        ? 'prompt'
        : final.from === 'scorer'
          ? 'scorer'
          : 'commander';
  return {
    ...base,
    result: score !== undefined ? { score, from, message, parsed: true } : { from: 'none', message, parsed: false },
  };
}

function paperPosition(config: DebateConfig, task: PointwiseTask, state: DebateState): Position {
  const turns = paperTurns(config, state);
  const scorers = turns.filter((t) => t.role === 'scorer');
  const iterations = turns.filter((t) => t.role === 'critic').length;
  const scoreHistory = scorers.map((t) => t.reply.score ?? null);
  const calls = turns.map((t) => t.id);
  const next = state.truncated ? { stoppedByNoIssue: false } : paperNext(config, turns);
  const base = { iterations, scoreHistory, calls };
  if ('id' in next)
    return {
      ...base,
      stoppedByNoIssue: false,
      next: paperCall(config, task, turns, next.id, next.iteration),
      result: NO_RESULT,
    };
  // Code reading: the last reply's score; paper reading: the last parsed score.
  const lastReply = scorers.at(-1);
  const last = config.promptSource === 'code' ? lastReply : scorers.findLast((t) => t.reply.score !== undefined);
  const score = last?.reply.score;
  const parsed = lastReply?.reply.parsed ?? false;
  return {
    ...base,
    stoppedByNoIssue: next.stoppedByNoIssue,
    result: score !== undefined ? { score, from: 'scorer', message: last?.id, parsed } : NO_RESULT,
  };
}

function position(config: DebateConfig, task: PointwiseTask, state: DebateState): Position {
  return config.flow === 'code' ? codePosition(config, task, state) : paperPosition(config, task, state);
}

/** The Tie-breaker's call when it is due: C.3, no NO_ISSUE within n iterations. */
function tieBreakerDue(
  config: DebateConfig,
  task: PointwiseTask,
  state: DebateState,
  p: Position,
): CallSpec | undefined {
  if (!config.useTieBreaker || state.truncated || p.stoppedByNoIssue || state.replies.tiebreaker) return undefined;
  const log =
    config.flow === 'code'
      ? codeLog(replayCode(config, task, state))
      : paperTurns(config, state).map((t) => ({ role: t.role, content: t.reply.content }));
  return tieBreakerCall(config, task, log);
}

/**
 * The verdict. Final score: the Tie-breaker's when it ran and parsed; else the debate's own result (see
 * the module note). Confidence: 1 − (max − min) / scale width over every score of the debate.
 */
function conclude(config: DebateConfig, task: PointwiseTask, state: DebateState, p: Position): MethodVerdict {
  const tie = state.replies.tiebreaker;
  const score = tie?.score ?? p.result.score;
  const votes: Vote[] = [];
  if (p.scoreHistory.length > 0)
    votes.push({
      agent: 'scorer',
      label: 'Scorer',
      ...(p.result.score !== undefined ? { score: p.result.score } : {}),
      parsed: p.result.parsed,
    });
  if (tie)
    votes.push({
      agent: 'tiebreaker',
      label: 'Tie-breaker',
      ...(tie.score !== undefined ? { score: tie.score } : {}),
      parsed: tie.parsed,
    });
  const all = [
    ...p.scoreHistory.flatMap((s) => (s !== null ? [s] : [])),
    ...(p.result.score !== undefined ? [p.result.score] : []),
    ...(tie?.score !== undefined ? [tie.score] : []),
  ];
  const range = task.aspect.scale.max - task.aspect.scale.min;
  const confidence =
    score === undefined || all.length === 0 ? 0 : Math.max(0, 1 - (Math.max(...all) - Math.min(...all)) / range);
  return {
    ...(score !== undefined ? { score } : {}),
    votes,
    confidence,
    details: {
      flow: config.flow,
      promptSource: config.promptSource,
      iterations: p.iterations,
      stoppedByNoIssue: p.stoppedByNoIssue,
      tieBreakerUsed: tie !== undefined,
      scoreHistory: p.scoreHistory,
      ...(tie ? { tieBreakerScore: tie.score ?? null } : {}),
      finalFrom: tie?.score !== undefined ? 'tiebreaker' : p.result.from,
      ...(p.result.message !== undefined ? { finalMessage: p.result.message } : {}),
    },
    ...(state.truncated
      ? {
          truncation: {
            iterationsRun: p.iterations,
            iterationsPlanned: config.maxIterations,
            scorerTurns: p.scoreHistory.length,
            tieBreakerCut: config.useTieBreaker && !tie,
          },
        }
      : {}),
  };
}

/** The call the debate waits for now, if any. */
function pendingCall(config: DebateConfig, task: PointwiseTask, state: DebateState): CallSpec | undefined {
  const p = position(config, task, state);
  return p.next ?? tieBreakerDue(config, task, state, p);
}

/** The calls of the longest run: every reply is read, no critique says NO_ISSUE, none ends with TERMINATE. */
function longestRun(config: DebateConfig): number {
  if (config.flow === 'paper') return 1 + 2 * config.maxIterations;
  const run = replayAutogen({
    iterations: config.maxIterations,
    prompt: 'P',
    forward: () => 'M',
    feedback: () => 'F',
    noIssue: () => false,
    reply: () => 'R',
  });
  return run.calls.length;
}

/** DEBATE as a protocol: one call per wave, pointwise tasks only. */
export const debateMethod: MethodDefinition<DebateConfig, DebateState> = {
  method: 'debate',
  // 2: the code reading (P alone, the first reply shown to the Critic, evalute_score.py's read).
  // 3: `flow: 'code'`, the loop under autogen's reply rules (the Commander's reply, the Scorer's two turns,
  //    the score from the last-but-one message); G-Eval's P with LF line endings; `int()` before the digit.
  version: 3,
  paper: 'DEBATE (Kim et al.) §3, Algorithm 1, Appendix B.1, C.3, E.1-E.2',
  // The paper evaluates pointwise aspects only and gives no pairwise template.
  taskKinds: ['pointwise'],
  configSchema: debateConfigSchema,
  init(): DebateState {
    return { replies: {} };
  },
  step(config, task, state): StepResult {
    const t = asPointwise(task);
    const p = position(config, t, state);
    const next = p.next ?? tieBreakerDue(config, t, state, p);
    if (next) return { kind: 'calls', calls: [next] };
    return { kind: 'verdict', verdict: conclude(config, t, state, p) };
  },
  reduce(config, task, state, reply: FinalReply): DebateState {
    const next = pendingCall(config, asPointwise(task), state);
    if (!next || reply.callId !== next.id) return state;
    const value = reply.ok ? reply.value : undefined;
    const stored: DebateReply = {
      content: reply.content,
      parsed: reply.ok,
      ...(value?.kind === 'score' ? { score: value.score } : {}),
    };
    return { ...state, replies: { ...state.replies, [reply.callId]: stored } };
  },
  plannedCalls(config): number {
    return longestRun(config) + (config.useTieBreaker ? 1 : 0);
  },
  // A budget refused a call: the loop ends as if the Critic had no more turns, and the Scorer's last score
  // stands (a refused re-score leaves the last critique unanswered). Nothing stands before the first score.
  truncate(_config, _task, state, refused): DebateState | null {
    return refused.callId === 'score0' ? null : { ...state, truncated: true };
  },
};
