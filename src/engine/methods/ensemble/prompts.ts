/**
 * @module
 * The ensemble's prompts (ours: the arXiv version names the baseline but the authors publish no config).
 * Pairwise: ChatEval's single-agent config prompt (`CHATEVAL_SINGLE_CODE`, thunlp/ChatEval @ 3bb65ab
 * `single_role/faireval/calc_score_comparison/gpt_4/config.yaml`) with the role prompt as its own line before
 * the output instruction; the instruction is the prompt's own, so `{{final_prompt}}` is not used.
 */
import { CHATEVAL_SINGLE_CODE, POINTWISE_HEAD } from '../chateval/index.js';

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
