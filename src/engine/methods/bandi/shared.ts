/**
 * @module
 * Helpers MORE and SAMRE share: reply storage, call building, parsers and settings.
 */
import type { AgentParams, CallSpec, FinalReply } from '../../method.js';
import { resolveAgentParams } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import type { JudgedPairwiseTask, JudgedTask } from '../../judged.js';
import { JUDGE_TUPLE_SCALE, MAX_SCORE_GAP } from './prompts.js';

/** The judge's parser: the last `(a, b)` / `[a, b]` in the reply, each in {@link JUDGE_TUPLE_SCALE}. */
export const JUDGE_PARSER: ParserSpec = { type: 'score-tuple', ...JUDGE_TUPLE_SCALE };

/**
 * A juror's parser: the tuple on the last `Vote:` line, `(1, 0)` / `(0, 1)` (§3.2: "a binary tuple"). Only
 * that line is read, and one quoting both options fails (and is re-asked): the prompt's own last line is
 * "Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2", and the last tuple of an
 * echo of it would read as a vote for Answer 2.
 */
export const JUROR_PARSER: ParserSpec = { type: 'score-tuple', min: 0, max: 1, line: 'Vote' };

/** Advocates and aggregators write free text. */
export const TEXT_PARSER: ParserSpec = { type: 'text' };

/**
 * The code's read rules: MORE's scorer takes the first integer tuple, SAMRE's judge and jurors the last
 * (round or square brackets).
 */
export const CODE_PARSERS = {
  moreJudge: { type: 'bandi-tuple', rule: 'first-int' },
  samreJudge: { type: 'bandi-tuple', rule: 'last-int' },
  juror: { type: 'bandi-tuple', rule: 'last-int' },
} as const satisfies Record<string, ParserSpec>;

/** Python's `str()` of a list of strings: `['', '']`, quotes escaped as `repr` does for plain text. */
export function pythonStringList(items: readonly string[]): string {
  const repr = (s: string) => {
    const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    return body.includes("'") && !body.includes('"') ? `"${body}"` : `'${body.replace(/'/g, "\\'")}'`;
  };
  return `[${items.map(repr).join(', ')}]`;
}

/**
 * Sampling defaults for every Bandi agent: temperature 0 (`main.py` passes 0) and 4096 completion tokens, the
 * `max_tokens` every request of the authors' vendored MetaGPT carries (`configs/llm_config.py`: `max_token`
 * defaults to 4096, and `util_adv.initiate_model` sets none).
 */
export const AGENT_FALLBACK = { temperature: 0, maxTokens: 4096 } as const;

/** Sampling defaults for the judge: as {@link AGENT_FALLBACK}. */
export const JUDGE_FALLBACK = { temperature: 0, maxTokens: 4096 } as const;

/**
 * The system message MetaGPT sends before every prompt of a role: its prefix (`roles/role.py` PREFIX_TEMPLATE
 * "You are a {profile}, named {name}, your goal is {goal}. ", set as the LLM's system prompt, which
 * `provider/base_llm.py` `aask` sends first). The code's roles set a name only, so profile and goal are empty:
 * `metagptPrefix('Advocate1')` is `You are a , named Advocate1, your goal is . `.
 */
export function metagptPrefix(name: string): string {
  return `You are a , named ${name}, your goal is . `;
}

/** Which answer an agent speaks for: `a` is the answer shown first (Answer 1), `b` the second. */
export type Side = 'a' | 'b';

/** Both sides, in presentation order. */
export const SIDES: readonly Side[] = ['a', 'b'];

/** A score pair as the verdict records it. */
export interface PairScores {
  a: number;
  b: number;
}

/** What a method keeps of one final reply: its text, and the tuple when the parser read one. */
export interface StoredReply {
  content: string;
  /** The parsed `(a, b)` tuple; null when the reply is free text or never parsed. */
  scores: PairScores | null;
  /** False when the reply never parsed after all repairs. */
  parsed: boolean;
  /** Why it did not parse (only when `parsed` is false). */
  reason?: string;
}

/**
 * State shared by both methods: final replies by call id. Everything else (stage, round, stop) is derived
 * from it, so `reduce` is a plain insert and re-delivering a reply cannot double-count it.
 */
export interface RepliesState {
  replies: Record<string, StoredReply>;
}

/** Folds one final reply into a {@link RepliesState}. */
export function storeReply<S extends RepliesState>(state: S, reply: FinalReply): S {
  const stored: StoredReply = reply.ok
    ? {
        content: reply.content,
        scores: reply.value.kind === 'pair-scores' ? { a: reply.value.a, b: reply.value.b } : null,
        parsed: true,
      }
    : { content: reply.content, scores: null, parsed: false, reason: reply.reason };
  return { ...state, replies: { ...state.replies, [reply.callId]: stored } };
}

/**
 * The task as a pairwise one. The core refuses other kinds before init (`taskKinds`), so this only guards
 * misuse in tests: it throws `<method> judges pairwise tasks only`.
 */
export function pairwiseOnly(task: JudgedTask, method: string): JudgedPairwiseTask {
  if (task.kind !== 'pairwise') throw new Error(`${method} judges pairwise tasks only`);
  return task;
}

/** The answer text a side defends, and its opponent's. */
export function sideAnswers(
  task: { answerA: string; answerB: string },
  side: Side,
): { answer: string; opponent: string } {
  return side === 'a'
    ? { answer: task.answerA, opponent: task.answerB }
    : { answer: task.answerB, opponent: task.answerA };
}

/** 1 for Answer 1 (`a`), 2 for Answer 2 (`b`): the paper's numbering in labels. */
export function sideNumber(side: Side): 1 | 2 {
  return side === 'a' ? 1 : 2;
}

/**
 * Previous scores as the public code shows them to the judge: a Python list of tuples, e.g. `[]` or
 * `[(95, 87), (80, 90)]`.
 */
export function formatPreviousScores(scores: readonly PairScores[]): string {
  return `[${scores.map((s) => `(${s.a}, ${s.b})`).join(', ')}]`;
}

/** Confidence from judge totals: |a − b| / {@link MAX_SCORE_GAP}, capped at 1. */
export function scoreGapConfidence(s: PairScores): number {
  return Math.min(1, Math.abs(s.a - s.b) / MAX_SCORE_GAP);
}

/**
 * One call of a prompt with the agent's resolved model settings: the role's system message when `system` is
 * given (the code: MetaGPT's role prefix, see {@link metagptPrefix}), then the prompt as one user message.
 */
export function userCall(
  fields: Pick<CallSpec, 'id' | 'agent' | 'label' | 'stage' | 'parser'>,
  content: string,
  defaults: AgentParams,
  agent: AgentParams,
  fallback: { temperature: number; maxTokens: number },
  system?: string,
): CallSpec {
  // Why [system, user]: the public code sends each prompt as one `_aask(prompt)`, which MetaGPT sends as the
  // role's prefix and the prompt.
  const messages: CallSpec['messages'] = [
    ...(system !== undefined ? [{ role: 'system' as const, content: system }] : []),
    { role: 'user', content },
  ];
  return { ...fields, ...resolveAgentParams(defaults, agent, fallback), messages };
}
