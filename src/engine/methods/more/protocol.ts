/**
 * @module
 * MORE, Multi-Advocate One-Round Evaluation (Bandi et al. §3.1, Algorithm 1), as the public code runs it
 * (abirharrasse/LLM-Judging-Architectures @ 2c4e937 `utils/MORE_architecture.py`, one round as `main.py`):
 *
 * 1. group 1's `k` advocates defend Answer 1 in parallel (`advocate/a/<i>`), its aggregator consolidates
 *    them (`aggregate/a`);
 * 2. group 2's advocates then defend Answer 2, each seeing group 1's aggregate as "Opponent's last argument"
 *    (the code adds it to their memory as `Opponent of <name>`), then group 2's aggregator (`aggregate/b`);
 * 3. the scorer scores the two aggregates on six criteria and ends with `(s1, s2)` (`judge`), read as the
 *    code reads it (the first integer tuple).
 * Every call sends, as MetaGPT does for each `_aask`, the role's prefix as the system message (`You are a ,
 * named AdvocateGroup1_Advocate1, your goal is . `) and the prompt; 4096 tokens, MetaGPT's `max_token`.
 * `groupOrder: 'parallel'` is the paper's reading (Alg. 1: the groups argue independently, in one wave);
 * `promptSource: 'paper'` uses Appendix E's transcriptions (a single user message) and our lenient last-tuple read.
 *
 * The code also calls its feedback judge (`JudgeAnswer`) in the round; in one round its reply is never read,
 * so it is not called here. The higher total wins, equal totals tie; an unreadable tuple (the code's
 * `(0, 0)`) is an explicit tie with confidence 0.
 */
import { z } from 'zod';
import type { CallSpec, FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import type { JudgedPairwiseTask } from '../../judged.js';
import { renderWithCriteria, requireSlots } from '../../slots.js';
import { renderTemplate, templateField } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { winnerOf } from '../../verdict.js';
import type { RepliesState, Side } from '../bandi/index.js';
import {
  AGENT_FALLBACK,
  AGGREGATE_PROMPT,
  BANDI_SLOTS,
  AGGREGATE_VARS,
  CODE_MORE_AGGREGATE,
  CODE_MORE_DEFEND,
  CODE_MORE_SCORE,
  CODE_PARSERS,
  formatPreviousScores,
  GROUP_ADVOCATE_PROMPT,
  GROUP_ADVOCATE_VARS,
  JUDGE_FALLBACK,
  JUDGE_PARSER,
  JUDGE_SCORE_PROMPT,
  JUDGE_SCORE_VARS,
  metagptPrefix,
  pairwiseOnly,
  pythonStringList,
  scoreGapConfidence,
  sideAnswers,
  sideNumber,
  storeReply,
  TEXT_PARSER,
  userCall,
} from '../bandi/index.js';

/** MORE's prompt templates; unset ones are the code's (or the paper's, per `promptSource`). */
export const moreTemplatesSchema = z
  .object({
    /** Each group advocate. Placeholders: question, answer, opponent_answer, advocate_id (1-based), feedback, opponent_argument, team_arguments. */
    advocate: templateField(GROUP_ADVOCATE_VARS),
    /** Each group's aggregator. Placeholders: question, answer, opponent_answer, defenses (newline-joined), feedback. */
    aggregate: templateField(AGGREGATE_VARS),
    /** The scorer. Placeholders: question, answer1, answer2, total_rounds (1), previous_scores (`[]`), defense1, defense2. */
    judge: templateField(JUDGE_SCORE_VARS),
  })
  .strict();

/** MORE config. Every field is defaulted; `{ method: 'more' }` is the code's run. */
export const moreConfigSchema = z
  .object({
    method: z.literal('more'),
    ...CommonConfigShape,
    /** Advocates per answer, 1-10. Default 3 (§3.1, `main.py`). */
    advocatesPerSide: z.number().int().min(1).max(10).default(3),
    /** `sequential` (the code): group 2 argues after, and against, group 1's aggregate; `parallel` (Alg. 1). Default `sequential`. */
    groupOrder: z.enum(['sequential', 'parallel']).default('sequential'),
    /** Prompts and read rule: the public code's (`code`, default) or Appendix E with a lenient last-tuple read (`paper`). */
    promptSource: z.enum(['code', 'paper']).default('code'),
    /** Model settings of every advocate (default: `defaults`, temperature 0, 4096 tokens). */
    advocates: AgentParamsSchema.default({}),
    /** Model settings of both aggregators. */
    aggregator: AgentParamsSchema.default({}),
    /** Model settings of the scorer. */
    judge: AgentParamsSchema.default({}),
    templates: moreTemplatesSchema.prefault({}),
  })
  .strict();

/** A resolved MORE config. */
export type MoreConfig = z.infer<typeof moreConfigSchema>;

/** MORE's state: final replies by call id. */
export type MoreState = RepliesState;

const advocateId = (side: Side, i: number) => `advocate/${side}/${i}`;
/** The code's role names: `AdvocateGroup1_Advocate1`, …, `AdvocateGroup2_Aggregator`; the scorer is `Scorer`. */
const advocateName = (side: Side, i: number) => `AdvocateGroup${sideNumber(side)}_Advocate${i + 1}`;
const aggregatorName = (side: Side) => `AdvocateGroup${sideNumber(side)}_Aggregator`;

/** The role's MetaGPT system message under the code's prompts; none under the paper's. */
function prefix(config: MoreConfig, name: string): string | undefined {
  return config.promptSource === 'code' ? metagptPrefix(name) : undefined;
}
const aggregateId = (side: Side) => `aggregate/${side}`;
const JUDGE_ID = 'judge';

function templates(config: MoreConfig): { advocate: string; aggregate: string; judge: string; parser: ParserSpec } {
  const code = config.promptSource === 'code';
  return {
    advocate: config.templates.advocate ?? (code ? CODE_MORE_DEFEND : GROUP_ADVOCATE_PROMPT),
    aggregate: config.templates.aggregate ?? (code ? CODE_MORE_AGGREGATE : AGGREGATE_PROMPT),
    judge: config.templates.judge ?? (code ? CODE_MORE_SCORE : JUDGE_SCORE_PROMPT),
    parser: code ? CODE_PARSERS.moreJudge : JUDGE_PARSER,
  };
}

function advocateCall(config: MoreConfig, task: JudgedPairwiseTask, state: MoreState, side: Side, i: number): CallSpec {
  const { answer, opponent } = sideAnswers(task, side);
  const code = config.promptSource === 'code';
  // The code: group 2 sees group 1's aggregate as the opponent's last argument; group 1 sees none yet.
  const opponentArgument =
    config.groupOrder === 'sequential' && side === 'b' ? (state.replies[aggregateId('a')]?.content ?? '') : '';
  const prompt = renderTemplate(templates(config).advocate, {
    question: task.question,
    answer,
    opponent_answer: opponent,
    advocate_id: i + 1,
    feedback: '',
    opponent_argument: opponentArgument,
    // The code formats the list of each advocate's previous argument: all empty in the one round.
    team_arguments: code ? pythonStringList(Array.from({ length: config.advocatesPerSide }, () => '')) : '',
  });
  const fields = {
    id: advocateId(side, i),
    agent: `advocate-${side}-${i}`,
    label: `Advocate ${i + 1} for Answer ${sideNumber(side)}`,
    stage: `advocates ${sideNumber(side)}`,
    parser: TEXT_PARSER,
  };
  return userCall(
    fields,
    prompt,
    config.defaults,
    config.advocates,
    AGENT_FALLBACK,
    prefix(config, advocateName(side, i)),
  );
}

function aggregateCall(config: MoreConfig, task: JudgedPairwiseTask, state: MoreState, side: Side): CallSpec {
  const { answer, opponent } = sideAnswers(task, side);
  const defenses = Array.from(
    { length: config.advocatesPerSide },
    (_, i) => state.replies[advocateId(side, i)]?.content ?? '',
  );
  const prompt = renderTemplate(templates(config).aggregate, {
    question: task.question,
    answer,
    opponent_answer: opponent,
    defenses: defenses.join('\n'),
    feedback: '',
  });
  const fields = {
    id: aggregateId(side),
    agent: `aggregator-${side}`,
    label: `Aggregator for Answer ${sideNumber(side)}`,
    stage: `aggregation ${sideNumber(side)}`,
    parser: TEXT_PARSER,
  };
  return userCall(
    fields,
    prompt,
    config.defaults,
    config.aggregator,
    AGENT_FALLBACK,
    prefix(config, aggregatorName(side)),
  );
}

function judgeCall(config: MoreConfig, task: JudgedPairwiseTask, state: MoreState): CallSpec {
  const t = templates(config);
  // A rubric's criteria stand where the scorer's six criteria do.
  const prompt = renderWithCriteria(
    t.judge,
    {
      question: task.question,
      answer1: task.answerA,
      answer2: task.answerB,
      total_rounds: 1,
      previous_scores: formatPreviousScores([]),
      defense1: state.replies[aggregateId('a')]?.content ?? '',
      defense2: state.replies[aggregateId('b')]?.content ?? '',
    },
    task.criteria,
    BANDI_SLOTS,
  );
  return userCall(
    { id: JUDGE_ID, agent: 'judge', label: 'Judge', stage: 'judgement', parser: t.parser },
    prompt,
    config.defaults,
    config.judge,
    JUDGE_FALLBACK,
    prefix(config, 'Scorer'),
  );
}

function verdictOf(config: MoreConfig, state: MoreState): MethodVerdict {
  const scores = state.replies[JUDGE_ID]?.scores ?? null;
  const vote: Vote = {
    agent: 'judge',
    label: 'Judge',
    parsed: scores !== null,
    ...(scores ? { winner: winnerOf(scores.a, scores.b), scores } : {}),
  };
  const details = {
    advocatesPerSide: config.advocatesPerSide,
    groupOrder: config.groupOrder,
    judgeScores: scores,
    judgeParsed: scores !== null,
  };
  // Never invent a score: without a readable tuple the outcome is an explicit, zero-confidence tie.
  if (!scores) return { winner: 'tie', votes: [vote], confidence: 0, details };
  return {
    winner: winnerOf(scores.a, scores.b),
    scores,
    votes: [vote],
    confidence: scoreGapConfidence(scores),
    details,
  };
}

/** The next wave: the advocates and aggregators in the configured order, then the scorer. */
function nextWave(config: MoreConfig, task: JudgedPairwiseTask, state: MoreState): CallSpec[] {
  const r = state.replies;
  const k = Array.from({ length: config.advocatesPerSide }, (_, i) => i);
  const advocates = (side: Side) =>
    k.filter((i) => !r[advocateId(side, i)]).map((i) => advocateCall(config, task, state, side, i));
  const groups: Side[][] = config.groupOrder === 'sequential' ? [['a'], ['b']] : [['a', 'b']];
  for (const sides of groups) {
    const wave = sides.flatMap(advocates);
    if (wave.length > 0) return wave;
    const aggregates = sides
      .filter((side) => !r[aggregateId(side)])
      .map((side) => aggregateCall(config, task, state, side));
    if (aggregates.length > 0) return aggregates;
  }
  return r[JUDGE_ID] ? [] : [judgeCall(config, task, state)];
}

/** MORE as a pure protocol. Pairwise tasks only. */
export const moreMethod: MethodDefinition<MoreConfig, MoreState> = {
  method: 'more',
  // 2: the code's prompts, group order and read rule.
  // 3: each code prompt after its role's MetaGPT system message; 4096 tokens (MetaGPT's max_token).
  version: 3,
  paper: 'Bandi et al. §3.1, Alg. 1, App. C.2, E.2; LLM-Judging-Architectures utils/MORE_architecture.py',
  taskKinds: ['pairwise'],
  configSchema: moreConfigSchema,
  init(config, task): MoreState {
    requireSlots(task.criteria, [{ field: 'config.templates.judge', template: templates(config).judge }], BANDI_SLOTS);
    return { replies: {} };
  },
  step(config, task, state): StepResult {
    const t = pairwiseOnly(task, 'MORE');
    const calls = nextWave(config, t, state);
    return calls.length > 0 ? { kind: 'calls', calls } : { kind: 'verdict', verdict: verdictOf(config, state) };
  },
  reduce(_config, _task, state, reply: FinalReply): MoreState {
    return storeReply(state, reply);
  },
  plannedCalls(config): number {
    return 2 * config.advocatesPerSide + 2 + 1;
  },
};
