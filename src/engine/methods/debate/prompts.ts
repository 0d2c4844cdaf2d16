/**
 * @module
 * DEBATE's prompts as data. The paper's texts (Appendix E.1, §3) are verbatim; the Commander's forwarding
 * messages are ours: the paper does not print them, and gunny97/DEBATE has no licence, so nothing is taken
 * from its code. The predefined template P for SummEval is G-Eval's prompt file (`single/geval-prompts.ts`),
 * the template DEBATE's code builds on; for other aspects and domains it is assembled here after E.2.
 */
import type { AspectSet } from '../single/index.js';

// ---------------------------------------------------------------------------------------------------
// Paper text (Appendix E.1, §3), verbatim
// ---------------------------------------------------------------------------------------------------

/**
 * The Commander's system message (Appendix E.1), verbatim: the system message of its LLM replies under
 * `flow: 'code'`, and the opening of the prompt P sent to the Scorer under `promptSource: 'paper'`.
 * (`debate.py` gives its Commander a different text; that repository has no licence, so E.1's is used.)
 */
export const COMMANDER_MESSAGE = 'Help me calculate the score, and tell other agents think step-by-step.';

/** The Scorer's system message (Appendix E.1), verbatim (`debate.py`'s own text differs and cannot be copied). */
export const SCORER_SYSTEM = 'Logically think to score the following sentence.';

/** Critic persona names: `strict` is DEBATE's Devil's Advocate (§3), `plain` is the MultiAgent baseline. */
export const CRITIC_PERSONA_NAMES = ['strict', 'moderate', 'weak', 'plain'] as const;
/** A Critic persona name. */
export type CriticPersona = (typeof CRITIC_PERSONA_NAMES)[number];

/**
 * The Critic's system message per persona, verbatim: `strict` from §3 "Devil's Advocate", the others
 * from Appendix E.1 (Moderate Negative, Weakly Negative, Plain). The E.1 texts say `NO_ISSUES`; the
 * `critique` parser accepts it as well as `NO_ISSUE` / `NO ISSUE`.
 */
export const CRITIC_PERSONAS: Readonly<Record<CriticPersona, string>> = {
  strict:
    "Your role is to play a Devil's Advocate. Your logic has to be step-by-step. Critically review the score provided and assess whether the score is accurate. If you don't think that the score is accurate, criticize the score. Try to criticize the score as much as possible.",
  moderate:
    "Your role is to play a Devil's Advocate. Your logic has to be step-by-step. Review the score provided and assess whether the score is accurate. Assess leniently the scores and if you think there is anything to criticize, provide feedback on the issue. If you find nothing to criticize, just say NO_ISSUES.",
  weak: "Your role is to play a Devil's Advocate. Your logic has to be step-by-step. Review the score provided and assess whether the score is accurate. If there is any point to criticize, provide constructive criticism. If you find the score absolutely acceptable, just say NO_ISSUES.",
  plain:
    "Do you think this score is really accurate? If you think it's not justified, please share your opinion. On the other hand, if you find the score acceptable, just say NO_ISSUES.",
};

/** The Tie-breaker's system message (Appendix E.1), verbatim; it is written for SummEval. */
export const TIE_BREAKER_SYSTEM =
  "You are a Tiebreaker. You will be given a news article. You will then be given one summary written for this article. You will also be given a debate log of other agents, about the rate of the summary. Your role is to take a side between the Scorer and the Critic when they disagree about the quality of a summary, and to give the final score. Scorer's role is to logically think to score the quality of a summary. Critic's role is to check if the score is justified, and give feedbacks to Scorer. You should read the Debate Log of Other Agents and decide the final score according to the following Evaluation Criteria and the Evaluation Steps.";

/**
 * The E.1 Tie-breaker message with SummEval's nouns replaced for dialogue responses (an adaptation:
 * the paper gives only the SummEval text).
 */
export const TIE_BREAKER_SYSTEM_DIALOGUE =
  "You are a Tiebreaker. You will be given a conversation between two individuals. You will then be given one potential response for the next turn in the conversation. You will also be given a debate log of other agents, about the rate of the response. Your role is to take a side between the Scorer and the Critic when they disagree about the quality of a response, and to give the final score. Scorer's role is to logically think to score the quality of a response. Critic's role is to check if the score is justified, and give feedbacks to Scorer. You should read the Debate Log of Other Agents and decide the final score according to the following Evaluation Criteria and the Evaluation Steps.";

/**
 * The E.1 Tie-breaker message with SummEval's nouns replaced for the `generic` domain's source and output
 * (an adaptation, as for dialogue).
 */
export const TIE_BREAKER_SYSTEM_GENERIC =
  "You are a Tiebreaker. You will be given a source text. You will then be given one output produced from it. You will also be given a debate log of other agents, about the rate of the output. Your role is to take a side between the Scorer and the Critic when they disagree about the quality of an output, and to give the final score. Scorer's role is to logically think to score the quality of an output. Critic's role is to check if the score is justified, and give feedbacks to Scorer. You should read the Debate Log of Other Agents and decide the final score according to the following Evaluation Criteria and the Evaluation Steps.";

// ---------------------------------------------------------------------------------------------------
// Domains and aspects (G-Eval, which §3 names as the basis of the predefined template)
// ---------------------------------------------------------------------------------------------------

/** Benchmark framing: decides the template's nouns, input layout and known aspect texts. */
export const DEBATE_DOMAINS = ['summeval', 'topical-chat', 'generic'] as const;
/** A benchmark framing. */
export type DebateDomain = (typeof DEBATE_DOMAINS)[number];

export interface DomainFrame {
  /** Opening sentence(s) of the template. */
  intro: string;
  /** What is judged, lower case (`summary`, `response`). */
  output: string;
  /** What it was produced from, lower case. */
  source: string;
  /** Section headings of the inputs block. */
  headings: { source: string; context: string; output: string };
}

export const FRAMES: Readonly<Record<DebateDomain, DomainFrame>> = {
  summeval: {
    intro: 'You will be given one summary written for a news article.',
    output: 'summary',
    source: 'news article',
    headings: { source: 'Source Text', context: 'Context', output: 'Summary' },
  },
  'topical-chat': {
    // G-Eval's Topical-Chat engagingness prompt, the one Topical-Chat prompt it discloses (Appendix A).
    intro:
      'You will be given a conversation between two individuals. You will then be given one potential response for the next turn in the conversation. The response concerns an interesting fact, which will be provided as well.',
    output: 'response',
    source: 'conversation',
    headings: { source: 'Conversation History', context: 'Corresponding Fact', output: 'Response' },
  },
  generic: {
    intro: 'You will be given a source text and one output produced from it.',
    output: 'output',
    source: 'source text',
    headings: { source: 'Source', context: 'Context', output: 'Output' },
  },
};

/** The Tie-breaker's system message per domain (E.1's text is SummEval's; the others adapt its nouns). */
export const TIE_BREAKER_BY_DOMAIN: Readonly<Record<DebateDomain, string>> = {
  summeval: TIE_BREAKER_SYSTEM,
  'topical-chat': TIE_BREAKER_SYSTEM_DIALOGUE,
  generic: TIE_BREAKER_SYSTEM_GENERIC,
};

/**
 * Which known aspect texts a domain uses: the same `ASPECT_DESCRIPTIONS` sets as the G-Eval baselines
 * (`geval-summeval`, `geval-topical-chat`), so DEBATE and its baseline describe an aspect identically.
 * `generic` knows none: the task must describe its aspect, or the criteria line carries only its name.
 */
export const ASPECT_SET_OF: Readonly<Record<DebateDomain, AspectSet | undefined>> = {
  summeval: 'summeval',
  'topical-chat': 'topical-chat',
  generic: undefined,
};

// ---------------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------------

/**
 * Placeholders each template may use.
 * - `evaluation`: the predefined template (E.2), rendered once into the prompt P;
 * - `scorer`: the Commander's request to the Scorer (step 2);
 * - `critic`: the Commander's first forward to the Critic (step 4); `criticFollowUp`: later forwards;
 * - `revise`: the Commander's forward of the Critic's feedback to the Scorer (step 5);
 * - `tieBreaker`: the Tie-breaker's request (C.3).
 */
export const DEBATE_TEMPLATE_PLACEHOLDERS = {
  evaluation: [
    'intro',
    'output_noun',
    'source_noun',
    'criteria',
    'steps',
    'inputs',
    'source',
    'context',
    'output',
    'aspect',
    'Aspect',
    'min',
    'max',
  ],
  scorer: ['commander', 'prompt', 'aspect', 'min', 'max'],
  critic: ['prompt', 'response', 'score', 'aspect', 'min', 'max'],
  criticFollowUp: ['prompt', 'response', 'score', 'previous_score', 'aspect', 'min', 'max'],
  revise: ['feedback', 'score', 'aspect', 'min', 'max'],
  tieBreaker: ['prompt', 'log', 'aspect', 'min', 'max'],
} as const satisfies Record<string, readonly string[]>;

export type TemplateName = keyof typeof DEBATE_TEMPLATE_PLACEHOLDERS;

/**
 * The `promptSource: 'paper'` templates (ours, after Alg. 1 and B.1). `evaluation` is E.2 with the aspect, scale
 * and nouns as placeholders (also the code reading's P for aspects without a verbatim G-Eval prompt).
 */
export const DEBATE_TEMPLATES: Readonly<Record<TemplateName, string>> = {
  evaluation: [
    '{{intro}} Your task is to rate the {{output_noun}} on one metric.',
    '',
    'Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.',
    '',
    'Evaluation Criteria:',
    '',
    '{{criteria}}',
    '',
    'Evaluation Steps:',
    '',
    '{{steps}}',
    '',
    'Example:',
    '',
    '{{inputs}}',
    '',
    'Evaluation Form (scores ONLY):',
    '',
    '- {{Aspect}}:',
  ].join('\n'),
  // Why a "Score:" line: B.1 step 2 asks for "a score and its rationale" (zero-shot CoT, §3), so the
  // reply is prose; a labelled last line makes the score readable without guessing among numbers.
  scorer:
    '{{commander}}\n\n{{prompt}}\n\nThink step-by-step and give your rationale, then end your reply with a final line "Score: <score>" where <score> is your {{aspect}} score from {{min}} to {{max}}.',
  // The paper reading tells the Critic about NO_ISSUE: B.1 stops on it and Appendix F's strict Critic says it.
  critic:
    "{{prompt}}\n\nThe Scorer's response:\n\n{{response}}\n\nThe Scorer's {{aspect}} score: {{score}} (scale {{min}}-{{max}}).\n\nReview this score. If you find no issue with it, reply NO_ISSUE.",
  criticFollowUp:
    "The Scorer revised its response after your feedback:\n\n{{response}}\n\nThe Scorer's {{aspect}} score is now: {{score}} (previously {{previous_score}}; scale {{min}}-{{max}}).\n\nReview this score. If you find no issue with it, reply NO_ISSUE.",
  revise:
    'The Critic reviewed your {{aspect}} score of {{score}} and replied:\n\n{{feedback}}\n\nUsing this feedback, reconsider and adjust your score if needed. Think step-by-step, then end your reply with a final line "Score: <score>" where <score> is from {{min}} to {{max}}.',
  tieBreaker:
    '{{prompt}}\n\nDebate Log of Other Agents:\n\n{{log}}\n\nThe Scorer and the Critic did not reach an agreement. Decide the final {{aspect}} score, then end your reply with a final line "Score: <score>" where <score> is from {{min}} to {{max}}.',
};

/**
 * The `promptSource: 'code'` messages: what `debate.py` sends, in our words where it has words. The Scorer
 * gets P alone (the code sends the prompt file as is); the Critic gets P and a Scorer reply, and nothing about
 * NO_ISSUE (the code's Critic prompt never mentions it); the Scorer gets the Critic's feedback to score again.
 * As in the code, each forward ends with the text it forwards and our words hold no digit, so a score read
 * from a forward (the code reads one from the feedback when the second critique says NO_ISSUE) is the
 * forwarded text's.
 */
export const DEBATE_CODE_TEMPLATES: Readonly<Record<'scorer' | 'critic' | 'revise', string>> = {
  scorer: '{{prompt}}',
  critic: "Review the score given for this task.\n\nTask:\n{{prompt}}\n\nScorer's response:\n{{response}}",
  revise: "The Critic's feedback on your response follows. Please give your score again.\n{{feedback}}",
};
