/**
 * @module
 * FastChat's MT-Bench pairwise judges (lm-sys/FastChat @ 0e6d3e4b, Apache-2.0), as `gen_judgment.py` picks
 * them and `common.py` `run_judge_pair` fills them:
 *
 * - a question whose category is in `NEED_REF_CATS` (math, reasoning, coding, arena-hard-200) is judged
 *   with `pair-math-v1` and GPT-4's reference answer, every other one with `pair-v2`
 *   (`gen_judgment.py:137-149,257-288`, `common.py:31`);
 * - the first turn is judged on its own (single-turn templates, turn 1 only); the second with the multi-turn
 *   templates, `pair-v2-multi-turn` / `pair-math-v1-multi-turn`, which show both turns of both
 *   conversations (and both reference turns) and ask about the second question (`common.py:243-261`).
 *
 * The templates are `fastchat/llm_judge/data/judge_prompts.jsonl` (shipped as
 * `datasets/mt_bench/judge_prompts.jsonl`), verbatim; FastChat's `{x}` slots are written `{{x}}`, and the
 * single-turn templates name theirs as every pairwise template here does (`question`, `answer_a`,
 * `answer_b`, `reference` for `ref_answer_1`). The `fastchat-pair` preset sends the single-turn judges for a
 * question, and the multi-turn judges for a task whose `messages` are two turns ({@link fastChatTurnsOf}):
 * the first user turn, each answer's model's first reply (or one reply both share), the second user turn.
 */
import type { JudgedPairwiseTask } from '../../judged.js';
import { renderTemplate } from '../../template.js';
import {
  FASTCHAT_PAIR_MATH_SYSTEM,
  FASTCHAT_PAIR_MATH_TEMPLATE,
  FASTCHAT_PAIR_V2_SYSTEM,
  FASTCHAT_PAIR_V2_TEMPLATE,
} from './prompts.js';

/** `NEED_REF_CATS` (`common.py:31`): categories judged against GPT-4's reference answer. */
export const FASTCHAT_NEED_REF_CATS: readonly string[] = ['math', 'reasoning', 'coding', 'arena-hard-200'];

/** FastChat `pair-v2-multi-turn` system prompt. */
export const FASTCHAT_PAIR_V2_MT_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user questions. You should choose the assistant that follows the user\'s instructions and answers the user\'s questions better. Your evaluation should consider factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of detail of their responses. You should focus on who provides a better answer to the second user question. Begin your evaluation by comparing the responses of the two assistants and provide a short explanation. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-v2-multi-turn` user template (FastChat's slot names). */
export const FASTCHAT_PAIR_V2_MT_TEMPLATE =
  "<|The Start of Assistant A's Conversation with User|>\n\n### User:\n{{question_1}}\n\n### Assistant A:\n{{answer_a_1}}\n\n### User:\n{{question_2}}\n\n### Assistant A:\n{{answer_a_2}}\n\n<|The End of Assistant A's Conversation with User|>\n\n\n<|The Start of Assistant B's Conversation with User|>\n\n### User:\n{{question_1}}\n\n### Assistant B:\n{{answer_b_1}}\n\n### User:\n{{question_2}}\n\n### Assistant B:\n{{answer_b_2}}\n\n<|The End of Assistant B's Conversation with User|>";

/** FastChat `pair-math-v1-multi-turn` system prompt. */
export const FASTCHAT_PAIR_MATH_MT_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user questions. Your evaluation should consider correctness and helpfulness. You will be given reference answers, the assistant A\'s answers, the assistant B\'s answers. Your job is to determine which assistant provides correct and helpful answers to the second user question. Begin your evaluation by comparing both assistants\' answers with the reference answers. Identify and correct any mistakes. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-math-v1-multi-turn` user template (FastChat's slot names). */
export const FASTCHAT_PAIR_MATH_MT_TEMPLATE =
  "<|The Start of Reference Answer|>\n\n### User:\n{{question_1}}\n\n### Reference answer:\n{{ref_answer_1}}\n\n### User:\n{{question_2}}\n\n### Reference answer:\n{{ref_answer_2}}\n\n<|The End of Reference Answer|>\n\n\n<|The Start of Assistant A's Conversation with User|>\n\n### User:\n{{question_1}}\n\n### Assistant A:\n{{answer_a_1}}\n\n### User:\n{{question_2}}\n\n### Assistant A:\n{{answer_a_2}}\n\n<|The End of Assistant A's Conversation with User|>\n\n\n<|The Start of Assistant B's Conversation with User|>\n\n### User:\n{{question_1}}\n\n### Assistant B:\n{{answer_b_1}}\n\n### User:\n{{question_2}}\n\n### Assistant B:\n{{answer_b_2}}\n\n<|The End of Assistant B's Conversation with User|>";

/** FastChat's four pairwise judges (`make_judge_pairwise`), by prompt name. */
export const FASTCHAT_PAIR_JUDGES = {
  'pair-v2': { system: FASTCHAT_PAIR_V2_SYSTEM, template: FASTCHAT_PAIR_V2_TEMPLATE },
  'pair-math-v1': { system: FASTCHAT_PAIR_MATH_SYSTEM, template: FASTCHAT_PAIR_MATH_TEMPLATE },
  'pair-v2-multi-turn': { system: FASTCHAT_PAIR_V2_MT_SYSTEM, template: FASTCHAT_PAIR_V2_MT_TEMPLATE },
  'pair-math-v1-multi-turn': { system: FASTCHAT_PAIR_MATH_MT_SYSTEM, template: FASTCHAT_PAIR_MATH_MT_TEMPLATE },
} as const;
/** A FastChat pairwise judge's prompt name. */
export type FastChatPairJudge = keyof typeof FASTCHAT_PAIR_JUDGES;

/** Whether FastChat judges a category against the reference answer (`NEED_REF_CATS`). */
export function fastChatNeedsReference(category: string): boolean {
  return FASTCHAT_NEED_REF_CATS.includes(category);
}

/** The judge FastChat uses for a question's turn 1 or 2: reference-guided for `NEED_REF_CATS`, multi-turn for turn 2. */
export function fastChatJudgeFor(category: string, turn: 1 | 2): FastChatPairJudge {
  const math = fastChatNeedsReference(category);
  if (turn === 1) return math ? 'pair-math-v1' : 'pair-v2';
  return math ? 'pair-math-v1-multi-turn' : 'pair-v2-multi-turn';
}

/** One turn of an MT-Bench pair: the user's question, both assistants' answers and GPT-4's reference answer. */
export interface FastChatTurn {
  question: string;
  answerA: string;
  answerB: string;
  /** GPT-4's reference answer to this turn (FastChat loads it for `NEED_REF_CATS` only). */
  reference?: string;
}

/** The multi-turn templates' values (FastChat's slot names) for two turns; a missing reference is `(none)`. */
export function multiTurnVars(first: FastChatTurn, second: FastChatTurn): Record<string, string> {
  return {
    question_1: first.question,
    question_2: second.question,
    answer_a_1: first.answerA,
    answer_b_1: first.answerB,
    answer_a_2: second.answerA,
    answer_b_2: second.answerB,
    ref_answer_1: first.reference ?? '(none)',
    ref_answer_2: second.reference ?? '(none)',
  };
}

/**
 * FastChat's system and user prompt for turn `turns.length` of a pair (`run_judge_pair`): the first turn
 * alone, or both turns with the multi-turn template. The reference is used when the category needs one.
 */
export function fastChatPairPrompt(
  category: string,
  turns: readonly [FastChatTurn] | readonly [FastChatTurn, FastChatTurn],
): { judge: FastChatPairJudge; system: string; user: string } {
  const [first, second] = turns;
  const judge = fastChatJudgeFor(category, second === undefined ? 1 : 2);
  const { system, template } = FASTCHAT_PAIR_JUDGES[judge];
  const vars =
    second === undefined
      ? {
          question: first.question,
          answer_a: first.answerA,
          answer_b: first.answerB,
          reference: first.reference ?? '(none)',
        }
      : multiTurnVars(first, second);
  return { judge, system, user: renderTemplate(template, vars) };
}

/**
 * A pairwise task as FastChat's two turns, when its `messages` are exactly a user turn, an assistant turn and
 * the user turn the answers reply to: turn 1 is the first question with each answer's model's first reply
 * (`answerA` / `answerB`, or `content` for both) and that message's `reference`; turn 2 the second question,
 * the task's answers and its `reference`. Undefined for any other task (FastChat judges two turns only).
 */
export function fastChatTurnsOf(task: JudgedPairwiseTask): [FastChatTurn, FastChatTurn] | undefined {
  const m = task.messages;
  if (m?.length !== 3) return undefined;
  const [q1, a1, q2] = m;
  if (q1?.role !== 'user' || a1?.role !== 'assistant' || q2?.role !== 'user') return undefined;
  const answerA = a1.answerA ?? a1.content;
  const answerB = a1.answerB ?? a1.content;
  if (answerA === undefined || answerB === undefined) return undefined;
  return [
    { question: q1.content, answerA, answerB, ...(a1.reference !== undefined ? { reference: a1.reference } : {}) },
    {
      question: q2.content,
      answerA: task.answerA,
      answerB: task.answerB,
      ...(task.reference !== undefined ? { reference: task.reference } : {}),
    },
  ];
}

/** The single judge's `multiTurn` templates that send FastChat's multi-turn judges (`fastchat-pair`, `poll-3`). */
export const FASTCHAT_MULTI_TURN = {
  systemPrompt: FASTCHAT_PAIR_V2_MT_SYSTEM,
  template: FASTCHAT_PAIR_V2_MT_TEMPLATE,
  referenceSystemPrompt: FASTCHAT_PAIR_MATH_MT_SYSTEM,
  referenceTemplate: FASTCHAT_PAIR_MATH_MT_TEMPLATE,
} as const;
