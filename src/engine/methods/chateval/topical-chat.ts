/**
 * @module
 * ChatEval's Topical-Chat setup as data: the run behind Table 2's GPT-4 (MA) row, whose outputs are
 * `outputs/llm_eval/gpt4_yjx/topical/three/<aspect>/thought/` and whose correlations
 * (`three/roleless_correlation_results.json`: naturalness ρ 0.630 τ 0.571, …) are Table 2's. Prompts from
 * thunlp/ChatEval @ 3f7612f56ecb71045e7a52cb29d659c0d0222f6f,
 * `agentverse/tasks/llm_eval/multi_role/only_static_assign/topical_chat/two_turns_sequential/<aspect>/thought/config.yaml`:
 * three agents (Critic, General Public, News Author), 6 speaking turns (2 each), 256 completion tokens.
 * `${x}` slots are written `{{x}}`; the prompt is otherwise verbatim ("Crieteria", "Explaination" included).
 */
import type { CriteriaSlot, SlotTable } from '../../slots.js';
import { slotTable } from '../../slots.js';
import type { RoleText } from './prompts.js';

/** Per aspect, the two parts of the config prompt that differ: the criteria block and evaluation step 2. */
const ASPECTS = {
  naturalness: {
    criteria: `Naturalness (1-3) Is the degree to which the response sounds natural and similar to how a human would naturally express the information in a conversation.

- A score of 1 : means that the response is totally different from that of humans (unnatural).
- A score of 2 : means the response is similar to that of humans to a certain degree (somewhat natural).
- A score of 3 : means the response is very similar to how a human would naturally express the information in a conversation (natural).`,
    step2: '2. Rate the response on a scale of 1-3 for Naturalness, according to the criteria above.',
  },
  coherence: {
    criteria: `Coherence (1-3) - the collective quality of all sentences. We align this dimension with the DUC quality question of structure and coherence whereby "the response should be well-structured and well-organized, and it should maintain context. The response should not just be a heap of related information, but should build from sentence to a coherent body of information about a topic."

- A score of 1 : means that the response is just a heap of related information, and it does not maintain context (disorganized).
- A score of 2 : means the response is reasonably organized, and it maintain context to a certain degree (somewhat well-organized).
- A score of 3 : means the response is very well-structured and well-organized, and it maintains context very well (well-organized).`,
    step2: '2. Rate the response on a scale of 1-3 for Coherence, according to the criteria above.',
  },
  engagingness: {
    criteria: `Engagingness (1-3) Is the response dull/interesting?

- A score of 1 : means that the response is generic and dull (dull).
- A score of 2 : means the response is somewhat interesting and could engage you in the conversation (e.g., an opinion, thought).
- A score of 3 : means the response is very interesting or presents an interesting fact (interesting).`,
    step2: '2. Rate the response on a scale of 1-3 for engagingness, according to the criteria above.',
  },
  groundedness: {
    criteria: `Groundedness (0 or 1) Is whether the response is based on the corresponding fact and knowledge.

- A score of 0 : means that the response partly conflicts with the corresponding fact, or the response has little to do with the corresponding fact (ungrounded).
- A score of 1 : means the response is well based on the corresponding fact and knowledge (grounded).`,
    step2: '2. Rate the response on a scale of 0 or 1 for Groundedness, according to the criteria above.',
  },
} as const;

/** The four Topical-Chat aspects the authors' configs cover. */
export type TopicalChatAspectName = keyof typeof ASPECTS;

/** The config prompt up to and including the inputs (the part the ensemble shares). */
function head(aspect: TopicalChatAspectName): string {
  const { criteria, step2 } = ASPECTS[aspect];
  return `You will be given a conversation between two individuals. You will then be given one potential response for the next turn in the conversation. The response concerns an interesting fact, which will be provided as well.

Your task is to rate the responses on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.


Evaluation Crieteria:

${criteria}

Evaluation Steps:

1. Read the conversation, the corresponding fact and the response carefully.
${step2}
3. Provide a brief explanation for your rating, referring to specific aspects of the response and the conversation.

Example:


Conversation History:

{{source_text}}

Corresponding Fact:

{{reference_text}}

Response:

{{generated_text}}`;
}

/** The discussion prompt per aspect, verbatim from the config (`|-`: no final newline). */
export const TOPICAL_CHAT_TEMPLATES: Readonly<Record<TopicalChatAspectName, string>> = Object.fromEntries(
  (Object.keys(ASPECTS) as TopicalChatAspectName[]).map((aspect) => [
    aspect,
    `${head(aspect)}

Additionally, There will be another few people given the same task like you, and you are required to discuss with each other, you can share the idea on how you think of the response.

Here is your discuss history:
{{chat_history}}

{{role_description}}

Now, What is your opinion, {{agent_name}} ?

{{final_prompt}}`,
  ]),
) as Record<TopicalChatAspectName, string>;

/**
 * The same prompt without the discussion paragraph and history, for the ensemble (ours: the authors' single-
 * role Topical-Chat configs are not in the repository).
 */
export const TOPICAL_CHAT_SOLO_TEMPLATES: Readonly<Record<TopicalChatAspectName, string>> = Object.fromEntries(
  (Object.keys(ASPECTS) as TopicalChatAspectName[]).map((aspect) => [
    aspect,
    `${head(aspect)}

{{role_description}}

Now, What is your opinion, {{agent_name}} ?

{{final_prompt}}`,
  ]),
) as Record<TopicalChatAspectName, string>;

/** The last turn's instruction (`final_prompt_to_use`), with the capitalised aspect name as `{{aspect}}`. */
export const TOPICAL_CHAT_FINAL = `Output with the following format strictly:
Explaination: [Your explaination]
{{aspect}}: [Your answer (scores ONLY)]`;

/** The three referees of the config, in its speaking order, with their role prompts verbatim. */
export const TOPICAL_CHAT_ROLES: readonly RoleText[] = [
  {
    name: 'Critic',
    description:
      "You are Critic, and you will check fluent writing, clear sentences, and good wording in response. You are now going to cooperate with General Public and News Author to help rate the response. Please think critically by yourself and note that it's fine to challenge other if you want to stick to your point.",
  },
  {
    name: 'General Public',
    description:
      "You are General Public, and you are interested in the story and looking for updates on the investigation. You are now going to cooperate with Critic and News Author to help rate the response. Please think critically by yourself and note that it's fine to challenge other if you want to stick to your point.",
  },
  {
    name: 'News Author',
    description: 'You are News Author, and you will check the response for consistency with the original article.',
  },
];

/** The config prompt's evaluation steps for an aspect. */
const steps = (aspect: TopicalChatAspectName): string =>
  `1. Read the conversation, the corresponding fact and the response carefully.\n${ASPECTS[aspect].step2}\n3. Provide a brief explanation for your rating, referring to specific aspects of the response and the conversation.`;

/** The steps a rubric without its own gets: the config's, with step 2 naming the rubric's aspect and scale. */
const RUBRIC_STEPS =
  '1. Read the conversation, the corresponding fact and the response carefully.\n2. Rate the response on a scale of {{min}}-{{max}} for {{Aspect}}, according to the criteria above.\n3. Provide a brief explanation for your rating, referring to specific aspects of the response and the conversation.';

/** An aspect prompt's criteria slot: its criteria block (with the score levels) and its evaluation steps. */
const slotOf = (aspect: TopicalChatAspectName): CriteriaSlot => [
  { text: ASPECTS[aspect].criteria, with: '{{Aspect}} ({{min}}-{{max}}) {{criteria}}' },
  { text: steps(aspect), with: '{{steps}}', stepsFallback: RUBRIC_STEPS },
];

/** The Topical-Chat prompts' criteria slots, discussion and solo (src/engine/slots.ts). */
export const TOPICAL_CHAT_SLOTS: SlotTable = slotTable(
  (Object.keys(ASPECTS) as TopicalChatAspectName[]).flatMap((aspect) => [
    [TOPICAL_CHAT_TEMPLATES[aspect], slotOf(aspect)] as const,
    [TOPICAL_CHAT_SOLO_TEMPLATES[aspect], slotOf(aspect)] as const,
  ]),
);
