/**
 * @module
 * G-Eval's SummEval prompts, verbatim: nlpyang/geval @ 6f84404ce4503d2ba0cde0293c5d402ecf2976a8
 * `prompts/summeval/{coh,con,flu,rel}_detailed.txt` (MIT), as G-Eval sent them. Three of the files
 * (coherence, fluency, relevance) are stored with CRLF line endings, consistency with LF; `gpt4_eval.py:19`
 * reads them with `open(...).read()`, Python's text mode, which turns every `\r\n` into `\n`. So the text
 * sent was LF-only for all four, and that is what is kept here: the files' lines joined with `\n`, no final
 * newline. DEBATE's `debate.py:124` reads its prompt file the same way. `{{Document}}` and `{{Summary}}` are
 * the slots G-Eval replaces; fluency has no document and is on 1-3.
 */

/** One prompt file: its lines, without their line endings. */
interface PromptFile {
  lines: readonly string[];
}

const FILES: Readonly<Record<string, PromptFile>> = {
  coherence: {
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
