/**
 * @module
 * ChatEval's prompts as data. Each constant names its source; `${x}` slots of the authors' YAML configs are
 * written `{{x}}` (the only change), and the YAML block rules are applied (`|-` drops the final newline,
 * `|` keeps one). Sources:
 * - CODE = thunlp/ChatEval @ 3bb65abce14abec01f7431c0fdd62919f3075231 ("before push", 2023-08-14), under
 *   `agentverse/tasks/llm_eval/`; PAPER = Chan et al., conference version (seeds/000), Table 6 and §4.1.
 * The Topical-Chat prompts are in `topical-chat.ts`. Each template's criteria slot (where a rubric's criteria
 * stand, src/engine/slots.ts) is {@link CHATEVAL_SLOTS}.
 */
import type { SlotTable } from '../../slots.js';
import { slotTable } from '../../slots.js';

/**
 * FairEval multi-agent prompt, CODE `multi_role/only_static_assign/faireval/two_turns_sequential/
 * two_different_role/calc_score_comparison/gpt_4/config.yaml` — the run behind Table 1 (GPT-4). The same text
 * is in the gpt_35_0301, three_different_role, same-role, concurrent and summary configs.
 */
export const CHATEVAL_PAIRWISE_CODE = `[Question]
{{source_text}}
[The Start of Assistant 1’s Answer]
{{compared_text_one}}
[The End of Assistant 1’s Answer]
[The Start of Assistant 2’s Answer]
{{compared_text_two}}
[The End of Assistant 2’s Answer]
[System]
We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
Please consider the helpfulness, relevance, accuracy, and level of detail of their responses.
There are a few other referee assigned the same task, it's your responsibility to discuss with them and think critically before you make your final judgement.
Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.

Here is your discuss history:
{{chat_history}}

{{role_description}}

Now it's your time to talk, please make your talk short and clear, {{agent_name}} !

{{final_prompt}}`;

/**
 * PAPER Table 6 (FairEval template), with the configs' `{{final_prompt}}` slot appended (Table 6 does not
 * show the last turn's instruction). The `promptSource: 'paper'` option.
 */
export const CHATEVAL_PAIRWISE_PAPER = `[Question]
{{question}}
[The Start of Assistant 1’s Answer]
{{answer_1}}
[The End of Assistant 1’s Answer]
[The Start of Assistant 2’s Answer]
{{answer_2}}
[The End of Assistant 2’s Answer]
[System]
We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
Please consider the helpfulness, relevance, accuracy, and level of detail of their responses. Each assistant receives an overall score on a scale of {{scale_min}} to {{scale_max}}, where a higher score indicates better overall performance.
There are a few other referees assigned the same task, it’s your responsibility to discuss with them and think critically before you make your final judgment.
Here is your discussion history:
{{chat_history}}
{{role_description}}
Now it’s your time to talk, please make your talk short and clear, {{agent_name}} !

{{final_prompt}}`;

/** The last turn's instruction (`final_prompt_to_use`), CODE, every FairEval multi-agent config. */
export const CHATEVAL_PAIRWISE_FINAL = `Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
Then, output two lines indicating the scores for Assistant 1 and 2, respectively.

Remember that you are not required to output the same value as other referees !
Output with the following format strictly:
Evaluation evidence: [your explanation here]
The score of Assistant 1: [score only]
The score of Assistant 2: [score only]`;

/**
 * The single-agent prompt, CODE `single_role/faireval/calc_score_comparison/gpt_4/config.yaml` (Table 1,
 * GPT-4 Single-Agent): no discussion, no role, no "short and clear", no "not required to output the same
 * value". Slots renamed for the single method: source_text → question, compared_text_one/two → answer_a/b.
 */
export const CHATEVAL_SINGLE_CODE = `[Question]
{{question}}
[The Start of Assistant 1’s Answer]
{{answer_a}}
[The End of Assistant 1’s Answer]
[The Start of Assistant 2’s Answer]
{{answer_b}}
[The End of Assistant 2’s Answer]
[System]
We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.
Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.
Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
Then, output two lines indicating the scores for Assistant 1 and 2, respectively.

Output with the following format strictly:
Evaluation evidence: [your explanation here]
The score of Assistant 1: [score only]
The score of Assistant 2: [score only]`;

/**
 * The summarizer prompt (`summary_prompt`, a `|` block: one final newline), CODE
 * `faireval/two_turns_summary/three_different_role/calc_score_comparison/gpt_35_0301/config.yaml` (Table 4).
 * "New lines ," with its space is the config's text.
 */
export const CHATEVAL_SUMMARY_CODE = `Summarize the lines of the new lines which contains the currently observed chat history with other people.
Based on the Current summary, you need to summarize from the New lines , add it onto the previous summary, and eventually return a New summary.

Now, try to summarize the following record.

Current summary:
{{summary}}

New lines:
{{new_lines}}

New summary:
`;

/** A debater's persona: its name (chat history, vote label) and role prompt. */
export interface RoleText {
  name: string;
  description: string;
}

/** The FairEval role prompts of the CODE configs (identical in every FairEval config). */
export const CODE_ROLES = {
  'General Public':
    "You are now General Public, one of the referees in this task. You are interested in the story and looking for updates on the investigation. Please think critically by yourself and note that it's your responsibility to choose one of which is the better first.",
  Critic:
    'You are now Critic, one of the referees in this task. You will check fluent writing, clear sentences, and good wording in summary writing. Your job is to question others judgement to make sure their judgement is well-considered and offer an alternative solution if two responses are at the same level.',
  'News Author':
    'You are News Author, one of the referees in this task. You will focus on the consistency with the original article. Please help other people to determine which response is the better one.',
} as const satisfies Record<string, string>;

/** PAPER Appendix A, verbatim (curly apostrophes as printed). */
export const PAPER_ROLES = {
  'General Public':
    'You are now General Public, one of the referees in this task. You are interested in the story and looking for updates on the investigation. Please think critically by yourself and note that it’s your responsibility to choose one of which is the better first.',
  Critic:
    'You are now Critic, one of the referees in this task. You will check fluent writing, clear sentences, and good wording in summary writing. Your job is to question others judgment to make sure their judgment is well-considered and offer an alternative solution if two responses are at the same level.',
  'News Author':
    'You are News Author, one of the referees in this task. You will focus on the consistency with the original article. Please help other people to determine which response is the better one.',
  Psychologist:
    'You are Psychologist, one of the referees in this task. You will study human behavior and mental processes in order to understand and explain human behavior. Please help other people to determine which response is the better one.',
  Scientist:
    'You are Scientist, one of the referees in this task. You are a professional engaged in systematic study who possesses a strong background in the scientific method, critical thinking, and problem-solving abilities. Please help other people to determine which response is the better one.',
} as const satisfies Record<string, string>;

/**
 * Same-role ablation, CODE `faireval/two_turns_sequential/two_same_role/calc_score_comparison/gpt_35_0301/
 * config.yaml`: agent k is named `Annotator<k>` and told "You are Annotator<k>, one of the referees in this task.".
 */
export function sameRoleCode(k: number): RoleText {
  return { name: `Annotator${k}`, description: `You are Annotator${k}, one of the referees in this task.` };
}

/** Same-role ablation, PAPER §4.1: every role prompt replaced by this sentence (names numbered `Annotator 1`, ...). */
export const SAME_ROLE_PAPER = 'You are now an Annotator, one of the referees in the text evaluation task.';

// ---------------------------------------------------------------------------------------------------
// Ours: a generic pointwise prompt for aspects the authors' configs do not cover (in the shape of their
// Topical-Chat prompt), and its final instruction.

/** The task, criteria and inputs of the generic pointwise prompt (shared with the ensemble). */
export const POINTWISE_HEAD = `You will be given a source text and an output produced from it. Your task is to rate the output on one metric.

Evaluation Criteria:

{{aspect}} ({{scale_min}}-{{scale_max}}) {{aspect_description}}

Source:

{{source}}

{{context}}

Output:

{{output}}`;

/** Generic pointwise discussion prompt (ours). */
export const CHATEVAL_POINTWISE_GENERIC = `${POINTWISE_HEAD}

There are a few other referees assigned the same task, it’s your responsibility to discuss with them and think critically before you make your final judgment.
Here is your discussion history:
{{chat_history}}

{{role_description}}

Now, what is your opinion, {{agent_name}} ?

{{final_prompt}}`;

/** Generic pointwise final instruction (ours, G-Eval's form line); read as `<Aspect>: <score>`. */
export const CHATEVAL_POINTWISE_FINAL = `Evaluation Form (scores ONLY):

- {{aspect}}:`;

// ---------------------------------------------------------------------------------------------------
// Criteria slots (src/engine/slots.ts): the sentence where each pairwise prompt states its criteria.

/** The FairEval configs' criteria sentence (code and Table 6 alike). */
const CONSIDER = 'Please consider the helpfulness, relevance, accuracy, and level of detail of their responses.';
/** The single-agent config's criteria sentence. */
export const SINGLE_RATE = 'Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.';

/**
 * ChatEval's criteria slots: the criteria sentence of the discussion prompt (code and paper) and of the
 * single-agent prompt. The generic pointwise prompt's slot is its `{{aspect_description}}`; the Topical-Chat
 * prompts' criteria block is in `topical-chat.ts`.
 */
export const CHATEVAL_SLOTS: SlotTable = slotTable([
  [CHATEVAL_PAIRWISE_CODE, [{ text: CONSIDER, with: 'Please consider the following criteria:\n{{criteria}}' }]],
  [CHATEVAL_PAIRWISE_PAPER, [{ text: CONSIDER, with: 'Please consider the following criteria:\n{{criteria}}' }]],
  [
    CHATEVAL_SINGLE_CODE,
    [{ text: SINGLE_RATE, with: 'Please rate their responses by the following criteria:\n{{criteria}}' }],
  ],
]);
