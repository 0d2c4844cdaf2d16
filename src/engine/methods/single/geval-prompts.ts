/**
 * @module
 * G-Eval's SummEval prompts, verbatim: nlpyang/geval @ 6f84404ce4503d2ba0cde0293c5d402ecf2976a8
 * `prompts/summeval/{coh,con,flu,rel}_detailed.txt` (MIT), as G-Eval sent them. Three of the files
 * (coherence, fluency, relevance) are stored with CRLF line endings, consistency with LF; `gpt4_eval.py:19`
 * reads them with `open(...).read()`, Python's text mode, which turns every `\r\n` into `\n`. So the text
 * sent was LF-only for all four, and that is what is kept here: the files' lines joined with `\n`, no final
 * newline. DEBATE's `debate.py:124` reads its prompt file the same way. `{{Document}}` and `{{Summary}}` are
 * the slots G-Eval replaces; fluency has no document and is on 1-3. Each file's criteria slot (its
 * criteria paragraph and its evaluation steps, src/engine/slots.ts) is {@link GEVAL_SLOTS}.
 */
import type { CriteriaSlot, SlotTable } from '../../slots.js';
import { slotTable } from '../../slots.js';

/** One prompt file: its lines, without their line endings, and where it states its criteria. */
interface PromptFile {
  lines: readonly string[];
  /** Lines `[from, to)` of the criteria paragraph (fluency's with its score levels). */
  criteria: readonly [number, number];
  /** Lines `[from, to)` of the evaluation steps (fluency has none). */
  steps?: readonly [number, number];
  /** How the criteria line reads with a rubric's criteria (fluency writes a colon, the others a dash). */
  criteriaWith: string;
}

const FILES: Readonly<Record<string, PromptFile>> = {
  coherence: {
    criteria: [8, 9],
    steps: [12, 15],
    criteriaWith: '{{Aspect}} ({{min}}-{{max}}) - {{criteria}}',
    lines: [
      'You will be given one summary written for a news article.',
      '',
      'Your task is to rate the summary on one metric.',
      '',
      'Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.',
      '',
      'Evaluation Criteria:',
      '',
      'Coherence (1-5) - the collective quality of all sentences. We align this dimension with the DUC quality question of structure and coherence whereby "the summary should be well-structured and well-organized. The summary should not just be a heap of related information, but should build from sentence to a coherent body of information about a topic."',
      '',
      'Evaluation Steps:',
      '',
      '1. Read the news article carefully and identify the main topic and key points.',
      '2. Read the summary and compare it to the news article. Check if the summary covers the main topic and key points of the news article, and if it presents them in a clear and logical order.',
      '3. Assign a score for coherence on a scale of 1 to 5, where 1 is the lowest and 5 is the highest based on the Evaluation Criteria.',
      '',
      '',
      'Example:',
      '',
      '',
      'Source Text:',
      '',
      '{{Document}}',
      '',
      'Summary:',
      '',
      '{{Summary}}',
      '',
      '',
      'Evaluation Form (scores ONLY):',
      '',
      '- Coherence:',
    ],
  },
  consistency: {
    criteria: [9, 10],
    steps: [13, 16],
    criteriaWith: '{{Aspect}} ({{min}}-{{max}}) - {{criteria}}',
    lines: [
      'You will be given a news article. You will then be given one summary written for this article.',
      '',
      'Your task is to rate the summary on one metric.',
      '',
      'Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.',
      '',
      '',
      'Evaluation Criteria:',
      '',
      'Consistency (1-5) - the factual alignment between the summary and the summarized source. A factually consistent summary contains only statements that are entailed by the source document. Annotators were also asked to penalize summaries that contained hallucinated facts. ',
      '',
      'Evaluation Steps:',
      '',
      '1. Read the news article carefully and identify the main facts and details it presents.',
      '2. Read the summary and compare it to the article. Check if the summary contains any factual errors that are not supported by the article.',
      '3. Assign a score for consistency based on the Evaluation Criteria.',
      '',
      '',
      'Example:',
      '',
      '',
      'Source Text: ',
      '',
      '{{Document}}',
      '',
      'Summary: ',
      '',
      '{{Summary}}',
      '',
      '',
      'Evaluation Form (scores ONLY):',
      '',
      '- Consistency:',
    ],
  },
  fluency: {
    criteria: [9, 14],
    criteriaWith: '{{Aspect}} ({{min}}-{{max}}): {{criteria}}',
    lines: [
      'You will be given one summary written for a news article.',
      '',
      'Your task is to rate the summary on one metric.',
      '',
      'Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.',
      '',
      '',
      'Evaluation Criteria:',
      '',
      'Fluency (1-3): the quality of the summary in terms of grammar, spelling, punctuation, word choice, and sentence structure.',
      '',
      '- 1: Poor. The summary has many errors that make it hard to understand or sound unnatural.',
      '- 2: Fair. The summary has some errors that affect the clarity or smoothness of the text, but the main points are still comprehensible.',
      '- 3: Good. The summary has few or no errors and is easy to read and follow.',
      '',
      '',
      'Example:',
      '',
      'Summary:',
      '',
      '{{Summary}}',
      '',
      '',
      'Evaluation Form (scores ONLY):',
      '',
      '- Fluency (1-3):',
    ],
  },
  relevance: {
    criteria: [8, 9],
    steps: [12, 16],
    criteriaWith: '{{Aspect}} ({{min}}-{{max}}) - {{criteria}}',
    lines: [
      'You will be given one summary written for a news article.',
      '',
      'Your task is to rate the summary on one metric.',
      '',
      'Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.',
      '',
      'Evaluation Criteria:',
      '',
      'Relevance (1-5) - selection of important content from the source. The summary should include only important information from the source document. Annotators were instructed to penalize summaries which contained redundancies and excess information.',
      '',
      'Evaluation Steps:',
      '',
      '1. Read the summary and the source document carefully.',
      '2. Compare the summary to the source document and identify the main points of the article.',
      '3. Assess how well the summary covers the main points of the article, and how much irrelevant or redundant information it contains.',
      '4. Assign a relevance score from 1 to 5.',
      '',
      '',
      'Example:',
      '',
      '',
      'Source Text:',
      '',
      '{{Document}}',
      '',
      'Summary:',
      '',
      '{{Summary}}',
      '',
      '',
      'Evaluation Form (scores ONLY):',
      '',
      '- Relevance:',
    ],
  },
};

/**
 * G-Eval's SummEval prompt per aspect (`coherence`, `consistency`, `fluency`, `relevance`), as sent: LF line
 * endings (Python's text-mode read of the CRLF files), no `\r` anywhere.
 */
export const GEVAL_SUMMEVAL_PROMPTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FILES).map(([aspect, f]) => [aspect, f.lines.join('\n')]),
);

/** The steps a rubric without its own gets in a G-Eval form (ours, in G-Eval's words). */
export const GEVAL_RUBRIC_STEPS =
  '1. Read the source and the output carefully.\n2. Judge the output against the Evaluation Criteria.\n3. Assign a score for {{aspect}} on a scale of {{min}} to {{max}}, where {{min}} is the lowest and {{max}} is the highest based on the Evaluation Criteria.';

/** A file's lines `[from, to)` as one text. */
const linesOf = (f: PromptFile, [from, to]: readonly [number, number]): string => f.lines.slice(from, to).join('\n');

/** A file's slot: its criteria paragraph, and its steps (with {@link GEVAL_RUBRIC_STEPS} when the rubric has none). */
function slotOf(f: PromptFile): CriteriaSlot {
  return [
    { text: linesOf(f, f.criteria), with: f.criteriaWith },
    ...(f.steps ? [{ text: linesOf(f, f.steps), with: '{{steps}}', stepsFallback: GEVAL_RUBRIC_STEPS }] : []),
  ];
}

/** G-Eval's SummEval prompts' criteria slots, by prompt text. */
export const GEVAL_SLOTS: SlotTable = slotTable(
  Object.entries(FILES).map(([aspect, f]) => [GEVAL_SUMMEVAL_PROMPTS[aspect] ?? '', slotOf(f)] as const),
);
