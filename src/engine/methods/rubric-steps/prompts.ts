/**
 * @module
 * G-Eval's auto chain-of-thought (Liu et al. 2023, "G-Eval: NLG Evaluation using GPT-4 with Better Human
 * Alignment", arXiv 2303.16634 §2, "Auto Chain-of-Thoughts for NLG Evaluation"): the prompt's task
 * introduction and evaluation criteria, then a line "Evaluation Steps:" after which the model writes the
 * steps itself; those steps then stand in the evaluation form. The repository (nlpyang/geval @ 6f84404)
 * ships only the resulting forms, so the introduction here is ours, in the words of G-Eval's SummEval files
 * (`prompts/summeval/*_detailed.txt`), with the rubric's criteria where the file's stand.
 */

/** Placeholders of the steps prompts: the rubric's criteria, and (pointwise) the aspect and its scale. */
export const RUBRIC_STEPS_PLACEHOLDERS = ['criteria', 'aspect', 'Aspect', 'min', 'max'] as const;

/** A pointwise rubric (or one of its aspects): G-Eval's form up to and including "Evaluation Steps:". */
export const RUBRIC_STEPS_POINTWISE = `You will be given one output produced from a source text.

Your task is to rate the output on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{Aspect}} ({{min}}-{{max}}) - {{criteria}}

Evaluation Steps:`;

/** A pairwise rubric: the same form, for deciding which of two answers is better. */
export const RUBRIC_STEPS_PAIRWISE = `You will be given a question and two answers to it.

Your task is to decide which answer is better.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{criteria}}

Evaluation Steps:`;
