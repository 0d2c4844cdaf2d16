/**
 * @module
 * Where the single judges' templates state their criteria (src/engine/slots.ts), each as exact text of the
 * authors' template: ChatEval's single-agent criteria sentence; FairEval's; FastChat's, in the system
 * message of `pair-v2`, `pair-math-v1` and their multi-turn forms; G-Eval's criteria paragraph and steps;
 * Bandi et al.'s six criteria and the answer lines naming them. Our own forms have theirs as placeholders:
 * `{{aspect_description}}` and `{{evaluation_steps}}` (G-Eval-style forms), `{{criteria}}` (the one-call
 * form, and any template of a config's own).
 */
import type { SlotTable } from '../../slots.js';
import { mergeSlotTables, slotTable } from '../../slots.js';
import { BANDI_SLOTS, BASELINE_PROMPT, bandiSlotOf, CODE_BASELINE } from '../bandi/index.js';
import { CHATEVAL_SLOTS } from '../chateval/index.js';
import { FASTCHAT_PAIR_MATH_MT_SYSTEM, FASTCHAT_PAIR_V2_MT_SYSTEM } from './fastchat.js';
import { GEVAL_SLOTS } from './geval-prompts.js';
import {
  BANDI_BASELINE_PAPER_TEMPLATE,
  BANDI_BASELINE_TEMPLATE,
  FAIREVAL_CRITERIA,
  FAIREVAL_TEMPLATE,
  FASTCHAT_MATH_CRITERIA,
  FASTCHAT_PAIR_MATH_SYSTEM,
  FASTCHAT_PAIR_V2_SYSTEM,
  FASTCHAT_V2_CRITERIA,
} from './prompts.js';

/** FastChat's system prompts say what to consider in one sentence; a rubric's criteria become a paragraph. */
const FASTCHAT_WITH = 'Your evaluation should consider the following criteria:\n{{criteria}}\n\n';

/** The placeholders that are a single judge's criteria slot in a template of its own. */
export const SINGLE_SLOT_PLACEHOLDERS = ['criteria', 'aspect_description'] as const;

/** Every single judge's slots, by template text. */
export const SINGLE_SLOTS: SlotTable = mergeSlotTables(
  CHATEVAL_SLOTS,
  GEVAL_SLOTS,
  slotTable([
    [
      FAIREVAL_TEMPLATE,
      [{ text: FAIREVAL_CRITERIA, with: 'Please rate their responses by the following criteria:\n{{criteria}}' }],
    ],
    [FASTCHAT_PAIR_V2_SYSTEM, [{ text: FASTCHAT_V2_CRITERIA, with: FASTCHAT_WITH }]],
    [FASTCHAT_PAIR_V2_MT_SYSTEM, [{ text: FASTCHAT_V2_CRITERIA, with: FASTCHAT_WITH }]],
    [FASTCHAT_PAIR_MATH_SYSTEM, [{ text: FASTCHAT_MATH_CRITERIA, with: FASTCHAT_WITH }]],
    [FASTCHAT_PAIR_MATH_MT_SYSTEM, [{ text: FASTCHAT_MATH_CRITERIA, with: FASTCHAT_WITH }]],
    bandiSlotOf(BANDI_BASELINE_TEMPLATE, CODE_BASELINE),
    bandiSlotOf(BANDI_BASELINE_PAPER_TEMPLATE, BASELINE_PROMPT),
  ]),
  BANDI_SLOTS,
);
