/**
 * @module
 * The prompt of the `instructions` method: the LLM reads the criteria and the cases where the judge's verdict
 * differed from the human reviewers' (`{{criteria}}`: ./core.ts `rewriteInput`) and writes the rules that would
 * have decided them as the humans did, as a numbered list. It runs as a `rubric-steps` evaluation with this
 * template (one call, the numbered-list parser), so the call is stored, billed and retried like any other.
 */

/** The rewrite prompt (a `rubric-steps` pairwise template): ends with `Revised rules:`, the list follows. */
export const REWRITE_TEMPLATE = `You will be given the evaluation criteria of a judge that decides which of two answers to a question is better, followed by cases where human reviewers decided differently from the judge.

Your task is to write rules to add to the criteria so that the judge decides such cases as the humans did. State what the humans valued and what the judge should stop rewarding. Do not quote the cases.

Evaluation Criteria:

{{criteria}}

Write the rules as a numbered list ("1. ...", "2. ..."), at most 8 rules, one line each.

Revised rules:`;
