/**
 * @module
 * The ensemble's prompts (ours: the arXiv version names the baseline but the authors publish no config).
 * Pairwise: ChatEval's single-agent config prompt (`CHATEVAL_SINGLE_CODE`, thunlp/ChatEval @ 3bb65ab
 * `single_role/faireval/calc_score_comparison/gpt_4/config.yaml`) with the role prompt as its own line before
 * the output instruction; the instruction is the prompt's own, so `{{final_prompt}}` is not used.
 */
import type { SlotTable } from '../../slots.js';
import { mergeSlotTables, slotTable } from '../../slots.js';
import { CHATEVAL_SINGLE_CODE, POINTWISE_HEAD, SINGLE_RATE, TOPICAL_CHAT_SLOTS } from '../chateval/index.js';

const INSTRUCTION = 'Please first provide a comprehensive explanation of your evaluation';

/** The single-agent prompt with the authors' slot names and `{{role_description}}` before the instruction. */
export const ENSEMBLE_PAIRWISE_TEMPLATE = CHATEVAL_SINGLE_CODE.replace('{{question}}', '{{source_text}}')
  .replace('{{answer_a}}', '{{compared_text_one}}')
  .replace('{{answer_b}}', '{{compared_text_two}}')
  .replace(INSTRUCTION, `{{role_description}}\n${INSTRUCTION}`);

/** The generic pointwise prompt without discussion (ours). */
export const ENSEMBLE_POINTWISE_TEMPLATE = `${POINTWISE_HEAD}

{{role_description}}

{{final_prompt}}`;

/**
 * The ensemble's criteria slots (src/engine/slots.ts): the single-agent prompt's criteria sentence, every role
 * alike; the Topical-Chat prompts' criteria block and steps; the generic pointwise prompt's slot is its
 * `{{aspect_description}}`.
 */
export const ENSEMBLE_SLOTS: SlotTable = mergeSlotTables(
  slotTable([
    [
      ENSEMBLE_PAIRWISE_TEMPLATE,
      [{ text: SINGLE_RATE, with: 'Please rate their responses by the following criteria:\n{{criteria}}' }],
    ],
  ]),
  TOPICAL_CHAT_SLOTS,
);
