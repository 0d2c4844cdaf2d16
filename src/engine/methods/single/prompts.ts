/**
 * @module
 * The single-judge baselines' prompts as data, each with its source:
 * - ChatEval single agent: `CHATEVAL_SINGLE_CODE` (thunlp/ChatEval @ 3bb65ab, see `chateval/prompts.ts`);
 * - FairEval: i-Eval/FairEval @ 453c117a69159fd7b7de2f4e0519bac57bee21f4 `FairEval.py` `gen_prompt` (the
 *   repository has no licence file; the prompt is quoted as the Table 1 baseline's definition);
 * - FastChat `pair-v2` / `pair-math-v1`: lm-sys/FastChat `fastchat/llm_judge/data/judge_prompts.jsonl`;
 * - G-Eval SummEval: `geval-prompts.ts` (verbatim); G-Eval-style generic and Topical-Chat forms: ours;
 * - Bandi et al.'s baseline judge: `bandi/code-prompts.ts` (the code) and `bandi/prompts.ts` (Appendix E.3).
 * Where each states its criteria (src/engine/slots.ts) is `slots.ts`.
 */
import { BASELINE_PROMPT, CODE_BASELINE } from '../bandi/index.js';

/** FairEval's system message (`gen_prompt` `sys_prompt`). */
export const FAIREVAL_SYSTEM = 'You are a helpful and precise assistant for checking the quality of the answer.';

/**
 * FairEval's `default_prompt`: a triple-quoted string inside a function, so every line after the first keeps
 * the source's 4-space indentation; two lines end with a space. Verbatim.
 */
/** FairEval's criteria sentence (its line's 4-space indentation and final space excluded and included). */
export const FAIREVAL_CRITERIA =
  'Please rate the helpfulness, relevance, accuracy, level of details of their responses. ';

const FAIREVAL_DEFAULT_PROMPT = [
  'We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.',
  `    ${FAIREVAL_CRITERIA}`,
  '',
  '    Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.',
  '    Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment. ',
  '    Then, output two lines indicating the scores for Assistant 1 and 2, respectively.',
  '',
  '    Output with the following format:',
  '    Evaluation evidence: <your evluation explanation here>',
  '    Score of the Assistant 1: <score>',
  '    Score of the Assistant 2: <score>',
].join('\n');

/** FairEval's user message: `prompt_template` with `{prompt}` = the default prompt (note the final newline). */
export const FAIREVAL_TEMPLATE = `[Question]
{{question}}

[The Start of Assistant 1's Answer]
{{answer_a}}
[The End of Assistant 1's Answer]

[The Start of Assistant 2's Answer]
{{answer_b}}
[The End of Assistant 2's Answer]

[System]
${FAIREVAL_DEFAULT_PROMPT}
`;

/** FastChat's criteria sentence in `pair-v2` and `pair-v2-multi-turn` (with the space before the next sentence). */
export const FASTCHAT_V2_CRITERIA =
  'Your evaluation should consider factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of detail of their responses. ';

/** FastChat's criteria sentence in `pair-math-v1` and `pair-math-v1-multi-turn`. */
export const FASTCHAT_MATH_CRITERIA = 'Your evaluation should consider correctness and helpfulness. ';

export const FASTCHAT_PAIR_V2_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user question displayed below. You should choose the assistant that follows the user\'s instructions and answers the user\'s question better. Your evaluation should consider factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of detail of their responses. Begin your evaluation by comparing the two responses and provide a short explanation. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-v2` user template, FastChat's `{x}` slots written as `{{x}}`. */
export const FASTCHAT_PAIR_V2_TEMPLATE =
  "[User Question]\n{{question}}\n\n[The Start of Assistant A's Answer]\n{{answer_a}}\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\n{{answer_b}}\n[The End of Assistant B's Answer]";

/** FastChat `pair-math-v1` system prompt (reference-guided). */
export const FASTCHAT_PAIR_MATH_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user question displayed below. Your evaluation should consider correctness and helpfulness. You will be given a reference answer, assistant A\'s answer, and assistant B\'s answer. Your job is to evaluate which assistant\'s answer is better. Begin your evaluation by comparing both assistants\' answers with the reference answer. Identify and correct any mistakes. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-math-v1` user template; FastChat's `{ref_answer_1}` is `{{reference}}`. */
export const FASTCHAT_PAIR_MATH_TEMPLATE =
  "[User Question]\n{{question}}\n\n[The Start of Reference Answer]\n{{reference}}\n[The End of Reference Answer]\n\n[The Start of Assistant A's Answer]\n{{answer_a}}\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\n{{answer_b}}\n[The End of Assistant B's Answer]";

/** A G-Eval-style SummEval form assembled from aspect parts (ours; for aspects without a verbatim G-Eval prompt). */
export const GEVAL_SUMMEVAL_TEMPLATE = `You will be given one summary written for a news article.

Your task is to rate the summary on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}

Evaluation Steps:

{{evaluation_steps}}

Example:

Source Text:

{{source}}

Summary:

{{output}}

Evaluation Form (scores ONLY):

- {{aspect}}:`;

/** G-Eval-style Topical-Chat form: conversation, the fact the response is conditioned on, the response. */
export const GEVAL_TOPICAL_CHAT_TEMPLATE = `You will be given a conversation between two individuals. You will then be given one potential response for the next turn in the conversation. The response concerns an interesting fact, which will be provided as well.

Your task is to rate the response on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}

Evaluation Steps:

{{evaluation_steps}}

Example:

Conversation History:

{{source}}

Corresponding Fact:

{{context}}

Response:

{{output}}

Evaluation Form (scores ONLY):

- {{aspect}}:`;

/** Bandi et al.'s baseline judge as the code sends it; slots renamed answer1/2 → answer_a/b. */
export const BANDI_BASELINE_TEMPLATE = CODE_BASELINE.replace('{{answer1}}', '{{answer_a}}').replace(
  '{{answer2}}',
  '{{answer_b}}',
);

/** Bandi et al.'s baseline judge as Appendix E.3 prints it (`promptSource: 'paper'` reading). */
export const BANDI_BASELINE_PAPER_TEMPLATE = BASELINE_PROMPT.replace('{{answer1}}', '{{answer_a}}').replace(
  '{{answer2}}',
  '{{answer_b}}',
);

// ---------------------------------------------------------------------------------------------------
// Ours: a generic pointwise form (G-Eval's shape, any source and output) and the one-call form for several
// aspects, for the `rubric-judge` preset and any single judge that names them.

/** A G-Eval-style form for any source and output (ours): the rubric's criteria and steps fill its slots. */
export const GENERIC_POINTWISE_TEMPLATE = `You will be given a source text and one output produced from it.

Your task is to rate the output on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}

Evaluation Steps:

{{evaluation_steps}}

Example:

Source Text:

{{source}}

Context:

{{context}}

Output:

{{output}}

Evaluation Form (scores ONLY):

- {{aspect}}:`;

/**
 * Several aspects in one call (ours): the general criteria, each aspect with its scale and criteria, the
 * inputs, and one JSON object to answer with (read strictly by the `aspect-scores` parser).
 * `{{aspects}}` lists the aspects, `{{json_format}}` the object expected.
 */
export const ASPECTS_JSON_TEMPLATE = `You will be given a source text and one output produced from it.

Your task is to rate the output on several aspects, each on its own scale.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{criteria}}

Aspects:

{{aspects}}

Source Text:

{{source}}

Context:

{{context}}

Output:

{{output}}

Rate the output on every aspect. Answer with one JSON object and nothing else, with one key per aspect holding your reason and your score:
{{json_format}}`;

/**
 * A trajectory's aspects in one call (ours, in the one-call form's layout): the user's request, the agent's
 * numbered steps and final answer, each aspect, and one JSON object that also names the first failing step.
 */
export const TRAJECTORY_JSON_TEMPLATE = `You will be given a user's request and the run of an AI agent that tried to fulfil it: its steps in order (model calls, tool calls with their arguments and results, messages, errors), numbered from 1, and its final answer.

Your task is to rate the run on several aspects, each on its own scale, and to name the first step that went wrong.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{criteria}}

Aspects:

{{aspects}}

User's request:

{{source}}

The agent's run:

{{output}}

Rate the run on every aspect. A step went wrong when it chose the wrong action, passed wrong arguments, ignored or misread a result, or failed without recovery; name the first such step by its number, or null if none did. Answer with one JSON object and nothing else, with one key per aspect holding your reason and your score:
{{json_format}}`;
