/**
 * @module
 * Aspect descriptions for G-Eval-style forms (ours, written after G-Eval's SummEval prompts and the USR
 * annotation guidelines): used where a preset has no authors' prompt for an aspect (the G-Eval and DEBATE
 * Topical-Chat forms, and SummEval aspects asked of methods that build the form from parts). The verbatim
 * G-Eval SummEval prompts are in `geval-prompts.ts`.
 */

/** What an aspect means and how to score it (G-Eval's "Evaluation Criteria" and "Evaluation Steps"). */
export interface AspectDescription {
  /** The criterion, without the leading `Name (min-max) - ` which templates add. */
  description: string;
  /** Numbered steps; may use `{{min}}` and `{{max}}` (the task's scale). */
  steps: string;
}

/** Aspect sets with known descriptions: SummEval (summaries, 1-5) and Topical-Chat (dialogue responses). */
export const ASPECT_SETS = ['summeval', 'topical-chat'] as const;
export type AspectSet = (typeof ASPECT_SETS)[number];

/**
 * The papers' aspect descriptions, by aspect set then lower-case aspect name. SummEval's follow G-Eval's
 * prompts (as DEBATE Appendix E.2 quotes for coherence); Topical-Chat's follow the USR annotation
 * guidelines G-Eval-style prompts use (naturalness, coherence, engagingness 1-3; groundedness 0-1).
 * Other methods import these so every method describes an aspect the same way.
 */
export const ASPECT_DESCRIPTIONS: Readonly<Record<AspectSet, Readonly<Record<string, AspectDescription>>>> = {
  summeval: {
    coherence: {
      description:
        'the collective quality of all sentences. We align this dimension with the DUC quality question of structure and coherence whereby "the summary should be well-structured and well-organized. The summary should not just be a heap of related information, but should build from sentence to a coherent body of information about a topic."',
      steps:
        '1. Read the news article carefully and identify the main topic and key points.\n2. Read the summary and compare it to the news article. Check if the summary covers the main topic and key points of the news article, and if it presents them in a clear and logical order.\n3. Assign a score for coherence on a scale of {{min}} to {{max}}, where {{min}} is the lowest and {{max}} is the highest based on the Evaluation Criteria.',
    },
    consistency: {
      description:
        'the factual alignment between the summary and the summarized source. A factually consistent summary contains only statements that are entailed by the source document. Annotators were also asked to penalize summaries that contained hallucinated facts.',
      steps:
        '1. Read the news article carefully and identify the main facts and details it presents.\n2. Read the summary and compare it to the article. Check if the summary contains any factual errors that are not supported by the article.\n3. Assign a score for consistency on a scale of {{min}} to {{max}} based on the Evaluation Criteria.',
    },
    fluency: {
      description:
        'the quality of the summary in terms of grammar, spelling, punctuation, word choice, and sentence structure.',
      steps:
        '1. Read the summary carefully.\n2. Check it for errors of grammar, spelling, punctuation, word choice and sentence structure, and for sentences that are hard to understand or sound unnatural.\n3. Assign a score for fluency on a scale of {{min}} to {{max}}, where {{min}} is the lowest and {{max}} is the highest based on the Evaluation Criteria.',
    },
    relevance: {
      description:
        'selection of important content from the source. The summary should include only important information from the source document. Annotators were instructed to penalize summaries which contained redundancies and excess information.',
      steps:
        '1. Read the summary and the source document carefully.\n2. Compare the summary to the source document and identify the main points of the article.\n3. Assess how well the summary covers the main points of the article, and how much irrelevant or redundant information it contains.\n4. Assign a relevance score from {{min}} to {{max}}.',
    },
  },
  'topical-chat': {
    naturalness: {
      description:
        'is the response naturally written? A score of 1 (bad) means that the response is unnatural. A score of 2 (ok) means the response is strange, but not entirely unnatural. A score of 3 (good) means that the response is natural.',
      steps:
        '1. Read the conversation history and the response carefully.\n2. Judge whether the response is something a person would naturally say at this point of the conversation.\n3. Assign a score for naturalness on a scale of {{min}} to {{max}} based on the Evaluation Criteria.',
    },
    coherence: {
      description:
        'does the response serve as a valid continuation of the conversation history? A score of 1 (no) means that the response drastically changes topic or ignores the conversation history. A score of 2 (somewhat) means the response refers to the conversation history in a limited capacity (e.g., in a generic way) and shifts the conversation topic. A score of 3 (yes) means the response is on topic and strongly acknowledges the conversation history.',
      steps:
        '1. Read the conversation history carefully and identify its topic and the last turn.\n2. Read the response and check whether it continues the conversation and acknowledges what was said.\n3. Assign a score for coherence on a scale of {{min}} to {{max}} based on the Evaluation Criteria.',
    },
    engagingness: {
      description:
        'is the response dull or interesting? A score of 1 (dull) means that the response is generic and dull. A score of 2 (somewhat interesting) means the response is somewhat interesting and could engage you in the conversation (e.g., an opinion, thought). A score of 3 (interesting) means the response is very interesting or presents an interesting fact.',
      steps:
        '1. Read the conversation history and the response carefully.\n2. Judge whether the response is generic or brings an interesting opinion, thought or fact into the conversation.\n3. Assign a score for engagingness on a scale of {{min}} to {{max}} based on the Evaluation Criteria.',
    },
    groundedness: {
      description:
        'given the fact that this response is conditioned on, how well does the response use that fact? A score of 0 (no) means the response does not mention or refer to the fact at all. A score of 1 (yes) means the response uses the fact well.',
      steps:
        '1. Read the conversation history, the corresponding fact and the response carefully.\n2. Check whether the response mentions or makes use of the fact.\n3. Assign a score for groundedness on a scale of {{min}} to {{max}} based on the Evaluation Criteria.',
    },
  },
};

/** Steps for an aspect the sets do not know (the task must then describe it). */
export const GENERIC_STEPS =
  '1. Read the source carefully.\n2. Read the output and judge its {{aspect}} against the Evaluation Criteria.\n3. Assign a score for {{aspect}} on a scale of {{min}} to {{max}}, where {{min}} is the lowest and {{max}} is the highest.';
