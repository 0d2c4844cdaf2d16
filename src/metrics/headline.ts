/**
 * @module
 * The figure each built-in dataset's papers quote, so a meta-evaluation report leads with the number a
 * reader compares against the paper, labelled with its definition:
 * - Topical-Chat: dialogue level, as the ChatEval authors' correlation script computes Table 2 (thunlp/ChatEval
 *   @ 3f7612f): per dialogue context, the correlation between the judge's and the human scores of its 6
 *   responses; contexts where either side is constant skipped; the mean over contexts.
 * - SummEval: summary level, as G-Eval's `meta_eval_summeval.py` (nlpyang/geval @ 6f84404) and DEBATE's
 *   Table 1: per article, over its 16 summaries; articles where either side is constant skipped; the mean.
 * - MT-Bench: Bandi et al.'s accuracy, where a judge tie counts as B (`main.py`: `1 if s1 > s2 else 0`),
 *   next to ours.
 */
import type { ReportOptions } from './agreement.js';

const SKIP = 'where either side is constant are skipped; the figure is the mean over the rest';

/** Report options that add the papers' figure for a built-in dataset; `{}` for any other. */
export function reportOptionsFor(dataset: string): ReportOptions {
  switch (dataset) {
    case 'topical-chat':
      return {
        headline: {
          label: 'Dialogue level (ChatEval Table 2)',
          definition: `per dialogue context, the correlation between the judge's and the human scores of its 6 responses; contexts ${SKIP} (the ChatEval authors' Topical-Chat script)`,
        },
      };
    case 'summeval':
      return {
        headline: {
          label: 'Summary level (G-Eval; DEBATE Table 1)',
          definition: `per article, the correlation between the judge's and the human scores of its 16 summaries; articles ${SKIP} (G-Eval's meta_eval_summeval.py)`,
        },
      };
    case 'mt-bench':
      return { tieAsB: true };
    default:
      return {};
  }
}
