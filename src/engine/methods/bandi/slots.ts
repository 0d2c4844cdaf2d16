/**
 * @module
 * Where Bandi et al.'s prompts state their criteria (src/engine/slots.ts), code and paper alike: the judges'
 * six criteria (MORE's scorer, SAMRE's judge, the baseline judge) and SAMRE's advocate's five. MORE's
 * advocates and aggregators and SAMRE's jurors and summarizer state none: they argue and vote on the
 * debate, which the judge's criteria steer.
 */
import type { SlotPart, SlotTable } from '../../slots.js';
import { slotTable } from '../../slots.js';
import { CODE_BASELINE, CODE_CRITERIA, CODE_MORE_SCORE, CODE_SAMRE_DEFEND, CODE_SAMRE_JUDGE } from './code-prompts.js';
import {
  BASELINE_PROMPT,
  FIERCE_ADVOCATE_PROMPT,
  JUDGE_ROUND_PROMPT,
  JUDGE_SCORE_PROMPT,
  PAPER_CRITERIA,
} from './prompts.js';

/** The criteria list itself: the rubric's criteria instead. */
const list = (text: string): SlotPart => ({ text, with: '{{criteria}}' });
/** The baseline's answer lines that name each paper criterion: one line for the rubric's. */
const form = (text: string): SlotPart => ({ text, with: 'Scores per criterion:' });

/** The judges' and advocates' slots, by template (the baseline's as the code and E.3 write its answer slots). */
export const BANDI_SLOTS: SlotTable = slotTable([
  [CODE_MORE_SCORE, [list(CODE_CRITERIA.judge)]],
  [CODE_SAMRE_JUDGE, [list(CODE_CRITERIA.judge)]],
  [CODE_SAMRE_DEFEND, [list(CODE_CRITERIA.advocate)]],
  [JUDGE_SCORE_PROMPT, [list(PAPER_CRITERIA.judge)]],
  [JUDGE_ROUND_PROMPT, [list(PAPER_CRITERIA.judge)]],
  [FIERCE_ADVOCATE_PROMPT, [list(PAPER_CRITERIA.advocate)]],
  [CODE_BASELINE, [list(CODE_CRITERIA.baseline), form(CODE_CRITERIA.baselineForm)]],
  [BASELINE_PROMPT, [list(PAPER_CRITERIA.judge), form(PAPER_CRITERIA.baselineForm)]],
]);

/**
 * The slot of a template derived from one of these by renaming its slots (the single judge's baseline,
 * `{{answer1}}` → `{{answer_a}}`): the same parts.
 */
export function bandiSlotOf(template: string, renamedFrom: string): readonly [string, readonly SlotPart[]] {
  const slot = BANDI_SLOTS.get(renamedFrom);
  if (!slot) throw new Error('bandiSlotOf: not a Bandi template');
  return [template, slot];
}
