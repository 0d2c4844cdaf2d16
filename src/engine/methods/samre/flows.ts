/**
 * @module
 * SAMRE's two readings of a round, as a function from the recorded replies to the next wave:
 *
 * - `code` (abirharrasse/LLM-Judging-Architectures @ 2c4e937 `utils/SAMRE_architecture.py`): Advocate 1
 *   defends (`round<r>/advocate/a`) and its defence is summarised (`round<r>/summary/a`) — the summary is
 *   the message everyone else sees; Advocate 2 then defends seeing that summary as the opponent's last
 *   argument (`…/advocate/b`, `…/summary/b`); the judge scores the two summaries (`round<r>/judge`), and its
 *   whole reply plus `\n\nScores: (a, b)` is the feedback of the next round. The code also summarises the
 *   judge's reply into the judge's own memory, where it is never read: that call is not made. Every code
 *   call sends its role's MetaGPT prefix as the system message before the prompt, as `_aask` does.
 * - `paper` (Alg. 2, Appendix E.1): both advocates argue in parallel on the previous round (`M_{r-1}`), the
 *   judge scores the two full defences.
 */
import type { CallSpec } from '../../method.js';
import type { JudgedPairwiseTask } from '../../judged.js';
import { renderWithCriteria } from '../../slots.js';
import { renderTemplate } from '../../template.js';
import type { PairScores, Side } from '../bandi/index.js';
import {
  AGENT_FALLBACK,
  BANDI_SLOTS,
  JUDGE_FALLBACK,
  formatPreviousScores,
  metagptPrefix,
  sideAnswers,
  sideNumber,
  TEXT_PARSER,
  userCall,
} from '../bandi/index.js';
import type { SamreConfig, SamreState, SamreTemplates } from './config.js';

/**
 * The role's MetaGPT system message under the code's flow (the code's roles are `Advocate1`, `Advocate2`,
 * whose summaries go through their own role, `Judge` and `Jury1`, `Jury2`, …); none under the paper's.
 */
export function rolePrefix(config: SamreConfig, name: string): string | undefined {
  return config.flow === 'code' ? metagptPrefix(name) : undefined;
}

export const advocateId = (round: number, side: Side) => `round${round}/advocate/${side}`;
export const summaryId = (round: number, side: Side) => `round${round}/summary/${side}`;
export const judgeId = (round: number) => `round${round}/judge`;
export const jurorId = (i: number) => `juror/${i}`;

/** A round's judge scores as the flow counts them: the parsed tuple, `(0, 0)` for an unreadable one (`unparsedRound: 'zero'`), or null. */
export function roundScores(config: SamreConfig, state: SamreState, round: number): PairScores | null {
  const reply = state.replies[judgeId(round)];
  if (!reply) return null;
  if (reply.scores) return reply.scores;
  return config.unparsedRound === 'zero' ? { a: 0, b: 0 } : null;
}

/** The scores of rounds 1..upTo that count (see {@link roundScores}). */
export function countedScores(config: SamreConfig, state: SamreState, upTo: number): PairScores[] {
  return Array.from({ length: upTo }, (_, i) => roundScores(config, state, i + 1)).filter(
    (s): s is PairScores => s !== null,
  );
}

/** What an advocate of side `side` says in round `round` as others see it: the code's summary, or the defence. */
export function spoken(config: SamreConfig, state: SamreState, round: number, side: Side): string {
  return state.replies[config.flow === 'code' ? summaryId(round, side) : advocateId(round, side)]?.content ?? '';
}

/** The judge's message as the code stores it: the reply, then `\n\nScores: (a, b)` (`(0, 0)` when unreadable). */
export function judgeMessage(state: SamreState, round: number): string {
  const reply = state.replies[judgeId(round)];
  if (!reply) return '';
  const s = reply.scores ?? { a: 0, b: 0 };
  return `${reply.content}\n\nScores: (${s.a}, ${s.b})`;
}

function advocateCall(
  config: SamreConfig,
  t: SamreTemplates,
  task: JudgedPairwiseTask,
  state: SamreState,
  round: number,
  side: Side,
): CallSpec {
  const { answer, opponent } = sideAnswers(task, side);
  const other: Side = side === 'a' ? 'b' : 'a';
  const prev = round - 1;
  const code = config.flow === 'code';
  // Code: Advocate 2 answers Advocate 1's summary of this round; Advocate 1 answers Advocate 2's of the last.
  const opponentRound = code && side === 'b' ? round : prev;
  // A rubric's criteria stand where the advocate's five criteria do.
  const prompt = renderWithCriteria(
    t.advocate,
    {
      question: task.question,
      answer,
      opponent_answer: opponent,
      feedback: prev > 0 ? (code ? judgeMessage(state, prev) : (state.replies[judgeId(prev)]?.content ?? '')) : '',
      opponent_argument: opponentRound > 0 ? spoken(config, state, opponentRound, other) : '',
    },
    task.criteria,
    BANDI_SLOTS,
  );
  const fields = {
    id: advocateId(round, side),
    agent: `advocate-${side}`,
    label: `Advocate for Answer ${sideNumber(side)}`,
    stage: `round ${round} defence`,
    parser: TEXT_PARSER,
  };
  const name = `Advocate${sideNumber(side)}`;
  return userCall(fields, prompt, config.defaults, config.advocates, AGENT_FALLBACK, rolePrefix(config, name));
}

function summaryCall(config: SamreConfig, t: SamreTemplates, state: SamreState, round: number, side: Side): CallSpec {
  const prompt = renderTemplate(t.summarizer, { content: state.replies[advocateId(round, side)]?.content ?? '' });
  const fields = {
    id: summaryId(round, side),
    agent: 'summarizer',
    label: `Summarizer (Advocate ${sideNumber(side)})`,
    stage: `round ${round} summary`,
    parser: TEXT_PARSER,
  };
  // The code's summarizer is an action of the advocate's own role: its prefix names the advocate.
  const name = `Advocate${sideNumber(side)}`;
  return userCall(fields, prompt, config.defaults, config.summarizer, AGENT_FALLBACK, rolePrefix(config, name));
}

function judgeCall(
  config: SamreConfig,
  t: SamreTemplates,
  task: JudgedPairwiseTask,
  state: SamreState,
  round: number,
): CallSpec {
  // A rubric's criteria stand where the judge's six criteria do.
  const prompt = renderWithCriteria(
    t.judge,
    {
      question: task.question,
      answer1: task.answerA,
      answer2: task.answerB,
      current_round: round,
      max_rounds: config.maxRounds,
      previous_scores: formatPreviousScores(countedScores(config, state, round - 1)),
      defense1: spoken(config, state, round, 'a'),
      defense2: spoken(config, state, round, 'b'),
    },
    task.criteria,
    BANDI_SLOTS,
  );
  return userCall(
    { id: judgeId(round), agent: 'judge', label: 'Judge', stage: `round ${round} judgement`, parser: t.judgeParser },
    prompt,
    config.defaults,
    config.judge,
    JUDGE_FALLBACK,
    rolePrefix(config, 'Judge'),
  );
}

/** The debate as the jurors see it: `Advocate1: …`, `Advocate2: …`, `Judge: …` per round. */
export function debateTranscript(config: SamreConfig, state: SamreState, roundsRun: number): string {
  const lines: string[] = [];
  for (let r = 1; r <= roundsRun; r++) {
    lines.push(`Advocate1: ${spoken(config, state, r, 'a')}`);
    lines.push(`Advocate2: ${spoken(config, state, r, 'b')}`);
    lines.push(
      `Judge: ${config.flow === 'code' ? judgeMessage(state, r) : (state.replies[judgeId(r)]?.content ?? '')}`,
    );
  }
  return lines.join('\n');
}

/** The waves of one round, in order, for the flow. */
function roundWaves(
  config: SamreConfig,
  t: SamreTemplates,
  task: JudgedPairwiseTask,
  state: SamreState,
  round: number,
): (() => CallSpec[])[] {
  const missing = (id: string) => !state.replies[id];
  const one = (id: string, make: () => CallSpec) => () => (missing(id) ? [make()] : []);
  if (config.flow === 'code') {
    return [
      one(advocateId(round, 'a'), () => advocateCall(config, t, task, state, round, 'a')),
      one(summaryId(round, 'a'), () => summaryCall(config, t, state, round, 'a')),
      one(advocateId(round, 'b'), () => advocateCall(config, t, task, state, round, 'b')),
      one(summaryId(round, 'b'), () => summaryCall(config, t, state, round, 'b')),
      one(judgeId(round), () => judgeCall(config, t, task, state, round)),
    ];
  }
  return [
    () =>
      (['a', 'b'] as const)
        .filter((side) => missing(advocateId(round, side)))
        .map((side) => advocateCall(config, t, task, state, round, side)),
    one(judgeId(round), () => judgeCall(config, t, task, state, round)),
  ];
}

function sign(s: PairScores | null): number {
  return s ? Math.sign(s.a - s.b) : 0;
}

/** Where the debate stands: the next wave, or the rounds run and why it stopped. */
export type Progress =
  | { kind: 'calls'; calls: CallSpec[] }
  | { kind: 'done'; roundsRun: number; stopReason: 'sign-agreement' | 'max-rounds' | 'budget' };

/** Runs the rounds over the recorded replies (Alg. 2 line 5's early stop only when `earlyStop`; a budget cut keeps `cut.rounds`). */
export function progress(
  config: SamreConfig,
  t: SamreTemplates,
  task: JudgedPairwiseTask,
  state: SamreState,
): Progress {
  // A cut keeps the complete rounds before the refused call; an early stop would have ended the loop before it.
  const cut = state.cut?.rounds;
  if (cut !== undefined) return { kind: 'done', roundsRun: cut, stopReason: 'budget' };
  for (let round = 1; round <= config.maxRounds; round++) {
    for (const wave of roundWaves(config, t, task, state, round)) {
      const calls = wave();
      if (calls.length > 0) return { kind: 'calls', calls };
    }
    const agree = sign(roundScores(config, state, round)) * sign(roundScores(config, state, round - 1)) > 0;
    if (config.earlyStop && round > 1 && agree) return { kind: 'done', roundsRun: round, stopReason: 'sign-agreement' };
  }
  return { kind: 'done', roundsRun: config.maxRounds, stopReason: 'max-rounds' };
}

/** The round a round call belongs to (`round3/judge` → 3), or null for a juror's call. */
export function roundOf(callId: string): number | null {
  const m = /^round(\d+)\//.exec(callId);
  return m ? Number(m[1]) : null;
}
