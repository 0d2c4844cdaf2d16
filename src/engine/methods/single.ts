/**
 * @module
 * Single-agent judge baselines: one prompt, one parser, `samples` parallel calls in one wave.
 * Presets reproduce the baselines the three papers compare against:
 *
 * - `chateval-single` — ChatEval (paper 000 §3.2 and Table 6; paper 001 §3 "Single-Agent"): the FairEval
 *   pairwise template without the chat-history and role slots (shared with the ensemble), 1-10 scores,
 *   `chateval-scores` parser, position calibration with scores summed over both orders (§3.2).
 * - `faireval-mec-bpc` — FairEval (Wang et al., "Large Language Models are not Fair Evaluators", the
 *   ChatEval Table 1 baseline): Multiple Evidence Calibration (k = 3 samples at temperature 1, evidence
 *   first, scores averaged) plus Balanced Position Calibration (both orders, mean scores).
 * - `fastchat-pair` — MT-Bench (FastChat `pair-v2`, `pair-math-v1` with a reference), `[[A]]/[[B]]/[[C]]`,
 *   both orders, a winner only when they agree (Bandi et al. paper 003 §5 evaluates on MT-Bench).
 * - `geval-summeval`, `geval-topical-chat` — G-Eval-style aspect forms, as DEBATE uses them
 *   (paper 004 §4 and Appendix E.2 "Evaluation Form (scores ONLY)"), leading-number parser.
 * - `bandi-baseline` — Bandi et al.'s baseline judge (paper 003 Appendix E.3, criteria C.2: six criteria,
 *   1-20 each, summed; the reply ends with the tuple `(score1, score2)`), `score-tuple` parser.
 *
 * Aggregation over samples: pair scores → mean per answer, winner by the means, confidence = mean gap
 * over the scale range; verdicts → majority (a shared top count is a tie), confidence = vote margin over
 * parsed votes; pointwise scores → mean, confidence = 1 − sample range over the scale range.
 * A sample whose reply never parses (after the core's repairs) is excluded and listed in
 * `verdict.unparsed`; no number is ever made up for it. If no sample parses, a pairwise verdict is a
 * `tie` with confidence 0 and no scores, and a pointwise verdict has no `score` and confidence 0.
 */
import { z } from 'zod';
import type { FinalReply, MethodDefinition, Preset, StepResult } from '../method.js';
import { CommonConfigShape, resolveAgentParams } from '../method.js';
import type { ParsedValue, ParserSpec } from '../parsers/spec.js';
import { ParserSpecSchema } from '../parsers/spec.js';
import { EngineInputError } from '../protocol.js';
import type { Task } from '../task.js';
import { capitalise, renderTemplate, templateField, templateText, unknownPlaceholders } from '../template.js';
import type { MethodVerdict, Vote } from '../verdict.js';
import { majority, mean, meanPair, winnerOf } from '../verdict.js';
import { BASELINE_PROMPT } from './bandi-prompts.js';
import { CHATEVAL_PAIRWISE_FINAL, CHATEVAL_SOLO_PAIRWISE_TEMPLATE } from './chateval.js';

/** Placeholders a pairwise template may use; `reference` renders `(none)` when the task has none. */
export const PAIRWISE_PLACEHOLDERS = ['question', 'answer_a', 'answer_b', 'reference'] as const;

/**
 * Placeholders a pointwise template may use. `aspect` is the aspect name capitalised (`Coherence`),
 * `min`/`max` the task's scale, `context` renders `(none)` when the task has none.
 */
export const POINTWISE_PLACEHOLDERS = [
  'source',
  'context',
  'output',
  'aspect',
  'aspect_description',
  'evaluation_steps',
  'min',
  'max',
] as const;

const ALL_PLACEHOLDERS: readonly string[] = [...PAIRWISE_PLACEHOLDERS, ...POINTWISE_PLACEHOLDERS];

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
const GENERIC_STEPS =
  '1. Read the source carefully.\n2. Read the output and judge its {{aspect}} against the Evaluation Criteria.\n3. Assign a score for {{aspect}} on a scale of {{min}} to {{max}}, where {{min}} is the lowest and {{max}} is the highest.';

// ---- Templates (data; presets carry them, users may override them) ----

/**
 * ChatEval's single-agent prompt: {@link CHATEVAL_SOLO_PAIRWISE_TEMPLATE} (Table 6 without the history and
 * role slots, ending with ChatEval's final-turn instruction), the one the ensemble also uses, with its
 * placeholders renamed to this method's and the 1-10 scale filled in. Built, not copied, so the two cannot drift.
 */
export const CHATEVAL_SINGLE_TEMPLATE = CHATEVAL_SOLO_PAIRWISE_TEMPLATE.replaceAll('{{answer_1}}', '{{answer_a}}')
  .replaceAll('{{answer_2}}', '{{answer_b}}')
  .replaceAll('{{scale_min}}', '1')
  .replaceAll('{{scale_max}}', '10')
  .replace('{{final_prompt}}', CHATEVAL_PAIRWISE_FINAL);

/**
 * After FairEval's evidence-first prompt (Wang et al. §3.1, MEC): explanation first, then two score lines.
 * The score lines use ChatEval's wording so both baselines share the `chateval-scores` parser.
 */
export const FAIREVAL_TEMPLATE = `[Question]
{{question}}

[The Start of Assistant 1's Answer]
{{answer_a}}

[The End of Assistant 1's Answer]

[The Start of Assistant 2's Answer]
{{answer_b}}

[The End of Assistant 2's Answer]

[System]
We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
Please rate the helpfulness, relevance, accuracy, level of details of their responses. Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.
Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment. Then, output two lines indicating the scores for Assistant 1 and 2, respectively.

Output with the following format:
Evaluation evidence: <your evaluation explanation here>
The score of Assistant 1: <score>
The score of Assistant 2: <score>`;

/** FastChat `pair-v2` system prompt (datasets/mt_bench/judge_prompts.jsonl). */
export const FASTCHAT_PAIR_V2_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user question displayed below. You should choose the assistant that follows the user\'s instructions and answers the user\'s question better. Your evaluation should consider factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of detail of their responses. Begin your evaluation by comparing the two responses and provide a short explanation. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-v2` user template, FastChat's `{x}` slots written as `{{x}}`. */
export const FASTCHAT_PAIR_V2_TEMPLATE =
  "[User Question]\n{{question}}\n\n[The Start of Assistant A's Answer]\n{{answer_a}}\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\n{{answer_b}}\n[The End of Assistant B's Answer]";

/** FastChat `pair-math-v1` system prompt (reference-guided). */
export const FASTCHAT_PAIR_MATH_SYSTEM =
  'Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user question displayed below. Your evaluation should consider correctness and helpfulness. You will be given a reference answer, assistant A\'s answer, and assistant B\'s answer. Your job is to evaluate which assistant\'s answer is better. Begin your evaluation by comparing both assistants\' answers with the reference answer. Identify and correct any mistakes. Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible. After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.';

/** FastChat `pair-math-v1` user template; FastChat's `{ref_answer_1}` is `{{reference}}`. */
export const FASTCHAT_PAIR_MATH_TEMPLATE =
  "[User Question]\n{{question}}\n\n[The Start of Reference Answer]\n{{reference}}\n[The End of Reference Answer]\n\n[The Start of Assistant A's Answer]\n{{answer_a}}\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\n{{answer_b}}\n[The End of Assistant B's Answer]";

/** G-Eval's SummEval form (DEBATE paper 004 Appendix E.2). */
export const GEVAL_SUMMEVAL_TEMPLATE = `You will be given one summary written for a news article.

Your task is to rate the summary on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}

Evaluation Steps:

{{evaluation_steps}}

Example:

Source Text:

{{source}}

Summary:

{{output}}

Evaluation Form (scores ONLY):

- {{aspect}}:`;

/** G-Eval-style Topical-Chat form: conversation, the fact the response is conditioned on, the response. */
export const GEVAL_TOPICAL_CHAT_TEMPLATE = `You will be given a conversation between two individuals. You will then be given one potential response for the next turn in the conversation. The response concerns an interesting fact, which will be provided as well.

Your task is to rate the response on one metric.

Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:

{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}

Evaluation Steps:

{{evaluation_steps}}

Example:

Conversation History:

{{source}}

Corresponding Fact:

{{context}}

Response:

{{output}}

Evaluation Form (scores ONLY):

- {{aspect}}:`;

/**
 * Bandi et al.'s baseline judge prompt (paper 003 Appendix E.3): {@link BASELINE_PROMPT} verbatim, only its
 * `answer1` / `answer2` placeholders renamed to this method's `answer_a` / `answer_b`.
 */
export const BANDI_BASELINE_TEMPLATE = BASELINE_PROMPT.replaceAll('{{answer1}}', '{{answer_a}}').replaceAll('{{answer2}}', '{{answer_b}}');

// ---- Config ----

/** Kind of value a parser yields, to check it fits the task kind. */
function yields(spec: ParserSpec): 'pair' | 'score' | 'none' {
  switch (spec.type) {
    case 'chateval-scores':
    case 'score-tuple':
    case 'fastchat-verdict':
    case 'assistant-choice':
      return 'pair';
    case 'leading-number':
    case 'labelled-score':
      return 'score';
    case 'json':
      return spec.shape === 'score' ? 'score' : 'pair';
    case 'text':
    case 'critique':
      return 'none';
  }
}

/** Config of the single-agent judge. Every field has a default (ChatEval's single-agent pairwise setup). */
export const singleAgentConfigSchema = z
  .object({
    method: z.literal('single'),
    ...CommonConfigShape,
    /** System message; empty (default) sends none. Placeholders as in `template`. */
    systemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** User message template. Default: ChatEval's single-agent template (pairwise). */
    template: templateField(ALL_PLACEHOLDERS, CHATEVAL_SINGLE_TEMPLATE),
    /** System message used instead of `systemPrompt` when a pairwise task has a `reference` and `referenceTemplate` is set. Default empty. */
    referenceSystemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** User template used when a pairwise task has a `reference`; empty (default) keeps `template`. */
    referenceTemplate: templateText(ALL_PLACEHOLDERS).default(''),
    /**
     * How replies are parsed. Default `chateval-scores` 1-10. For pointwise tasks the bounds of a scoring
     * parser are replaced by the task's aspect scale.
     */
    parser: ParserSpecSchema.default({ type: 'chateval-scores', min: 1, max: 10 }),
    /** Independent samples per order, 1-20 (the API bound), sent as parallel calls in one wave. Default 1. */
    samples: z.number().int().min(1).max(20).default(1),
    /** Which known aspect descriptions pointwise tasks use when they bring none. Default `summeval`. */
    aspectSet: z.enum(ASPECT_SETS).default('summeval'),
    /** The judge's display name in votes and transcripts. Default `Judge`. */
    label: z.string().min(1).max(64).default('Judge'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (yields(c.parser) === 'none') {
      ctx.addIssue({ code: 'custom', path: ['parser'], message: `parser "${c.parser.type}" yields no score or winner` });
    }
  });
export type SingleAgentConfig = z.infer<typeof singleAgentConfigSchema>;

// ---- State and protocol ----

/** One sample's final reply: its parsed value or why it never parsed. */
type SampleResult = { ok: true; value: ParsedValue } | { ok: false; reason: string };

/** Method state: one slot per sample, null until its final reply arrives. */
export interface SingleAgentState {
  results: (SampleResult | null)[];
}


/** The parser for this task: pointwise scoring parsers take the aspect's scale. */
function parserFor(config: SingleAgentConfig, task: Task): ParserSpec {
  const spec = config.parser;
  if (task.kind !== 'pointwise' || !('min' in spec)) return spec;
  return { ...spec, min: task.aspect.scale.min, max: task.aspect.scale.max };
}

/** The (system, user) templates for this task. */
function templatesFor(config: SingleAgentConfig, task: Task): { system: string; user: string; reference: boolean } {
  const reference = task.kind === 'pairwise' && task.reference !== undefined && config.referenceTemplate !== '';
  return reference
    ? { system: config.referenceSystemPrompt, user: config.referenceTemplate, reference }
    : { system: config.systemPrompt, user: config.template, reference };
}

/** Template values for the task; missing optional task fields render as `(none)`. */
function varsFor(config: SingleAgentConfig, task: Task): Record<string, string | number> {
  if (task.kind === 'pairwise') {
    return { question: task.question, answer_a: task.answerA, answer_b: task.answerB, reference: task.reference ?? '(none)' };
  }
  const { name, scale } = task.aspect;
  const known = ASPECT_DESCRIPTIONS[config.aspectSet][name.toLowerCase()];
  const scaleVars = { aspect: capitalise(name), min: scale.min, max: scale.max };
  return {
    ...scaleVars,
    source: task.source,
    context: task.context ?? '(none)',
    output: task.output,
    aspect_description: task.aspect.description ?? known?.description ?? '',
    evaluation_steps: renderTemplate(known?.steps ?? GENERIC_STEPS, scaleVars),
  };
}

/** Checks the config fits the task kind; @throws EngineInputError when it does not. */
function checkFits(config: SingleAgentConfig, task: Task): void {
  const { system, user } = templatesFor(config, task);
  const allowed: readonly string[] = task.kind === 'pairwise' ? PAIRWISE_PLACEHOLDERS : POINTWISE_PLACEHOLDERS;
  const bad = [...new Set([...unknownPlaceholders(system, allowed), ...unknownPlaceholders(user, allowed)])];
  if (bad.length > 0) {
    throw new EngineInputError(
      `the template uses ${bad.map((b) => `{{${b}}}`).join(', ')}, which a ${task.kind} task does not provide; use a ${task.kind} preset or template`,
      'template_task_mismatch',
    );
  }
  const want = task.kind === 'pairwise' ? 'pair' : 'score';
  if (yields(config.parser) !== want) {
    throw new EngineInputError(`parser "${config.parser.type}" does not fit a ${task.kind} task`, 'parser_task_mismatch');
  }
  if (task.kind === 'pointwise' && /\{\{\s*aspect_description\s*\}\}/.test(user + system)) {
    const known = ASPECT_DESCRIPTIONS[config.aspectSet][task.aspect.name.toLowerCase()];
    if (task.aspect.description === undefined && !known) {
      throw new EngineInputError(
        `aspect "${task.aspect.name}" is not in the ${config.aspectSet} set (${Object.keys(ASPECT_DESCRIPTIONS[config.aspectSet]).join(', ')}); give aspect.description`,
        'aspect_description_required',
      );
    }
  }
}

function sampleIndex(callId: string): number | undefined {
  const m = /^sample(\d+)$/.exec(callId);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** Bounds of a pair-scoring parser, for normalising gaps (undefined when the parser has none). */
function scaleOf(spec: ParserSpec): number | undefined {
  if (!('min' in spec) || spec.min === undefined || spec.max === undefined) return undefined;
  return spec.max > spec.min ? spec.max - spec.min : undefined;
}

function conclude(config: SingleAgentConfig, task: Task, results: readonly SampleResult[]): MethodVerdict {
  const spec = parserFor(config, task);
  const multi = results.length > 1;
  const votes: Vote[] = results.map((r, i) => {
    const vote: Vote = { agent: 'judge', label: multi ? `${config.label} (sample ${i + 1})` : config.label, parsed: r.ok };
    if (!r.ok) return vote;
    const v = r.value;
    if (v.kind === 'pair-scores') return { ...vote, scores: { a: v.a, b: v.b }, winner: winnerOf(v.a, v.b) };
    if (v.kind === 'winner') return { ...vote, winner: v.winner };
    if (v.kind === 'score') return { ...vote, score: v.score };
    return vote;
  });
  const values = results.flatMap((r) => (r.ok ? [r.value] : []));
  const details = { samples: results.length, parsedSamples: values.length, usedReference: templatesFor(config, task).reference };

  if (task.kind === 'pointwise') {
    const scores = values.flatMap((v) => (v.kind === 'score' ? [v.score] : []));
    if (scores.length === 0) return { votes, confidence: 0, details };
    const range = task.aspect.scale.max - task.aspect.scale.min;
    return {
      score: mean(scores),
      votes,
      // Why the sample range: agreeing samples are evidence of a stable score; k = 1 gives 1.
      confidence: 1 - (Math.max(...scores) - Math.min(...scores)) / range,
      details,
    };
  }

  const scores = meanPair(values.flatMap((v) => (v.kind === 'pair-scores' ? [v] : [])));
  if (scores) {
    const gap = Math.abs(scores.a - scores.b);
    const norm = scaleOf(spec) ?? Math.max(Math.abs(scores.a), Math.abs(scores.b), 1);
    return { winner: winnerOf(scores.a, scores.b), scores, votes, confidence: Math.min(1, gap / norm), details };
  }
  const winners = values.flatMap((v) => (v.kind === 'winner' ? [v.winner] : []));
  // No winner at all, or a shared top count, has no majority; it reads as a tie, with margin 0.
  const { winner, margin } = majority(winners);
  return { winner, votes, confidence: margin, details };
}

/** The single-agent judge: `samples` parallel calls of one prompt, aggregated (see the module doc). */
export const singleAgentMethod: MethodDefinition<SingleAgentConfig, SingleAgentState> = {
  method: 'single',
  paper: 'ChatEval Table 6 single-agent; FairEval MEC+BPC; FastChat MT-Bench pair-v2; G-Eval forms (DEBATE App. E.2); Bandi et al. App. E.3',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: singleAgentConfigSchema,

  init(config, task) {
    checkFits(config, task);
    return { results: Array.from({ length: config.samples }, () => null) };
  },

  step(config, task, state): StepResult {
    const done = state.results.filter((r): r is SampleResult => r !== null);
    if (done.length === state.results.length) return { kind: 'verdict', verdict: conclude(config, task, done) };
    const { system, user } = templatesFor(config, task);
    const vars = varsFor(config, task);
    const messages = [
      ...(system !== '' ? [{ role: 'system' as const, content: renderTemplate(system, vars) }] : []),
      { role: 'user' as const, content: renderTemplate(user, vars) },
    ];
    const params = resolveAgentParams(config.defaults, undefined);
    const parser = parserFor(config, task);
    const calls = state.results.flatMap((r, i) =>
      r !== null ? [] : [{ id: `sample${i}`, agent: 'judge', label: config.label, stage: 'judge', messages, parser, ...params }],
    );
    return { kind: 'calls', calls };
  },

  reduce(_config, _task, state, reply: FinalReply) {
    const i = sampleIndex(reply.callId);
    if (i === undefined || i >= state.results.length || state.results[i] !== null) return state;
    const result: SampleResult = reply.ok ? { ok: true, value: reply.value } : { ok: false, reason: reply.reason };
    return { results: state.results.map((r, j) => (j === i ? result : r)) };
  },

  plannedCalls(config) {
    return config.samples;
  },
};

// ---- Presets ----

/** Presets reproducing the papers' single-agent baselines (see the module doc). */
export const singleAgentPresets: Preset[] = [
  {
    id: 'chateval-single',
    description: "ChatEval's single-agent baseline: its pairwise template without history or role, 1-10 scores, both orders summed",
    paper: 'ChatEval (000) §3.2 (position calibration in single- and multi-agent settings), Table 6; (001) §3 Single-Agent',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      template: CHATEVAL_SINGLE_TEMPLATE,
      parser: { type: 'chateval-scores', min: 1, max: 10 },
      samples: 1,
      defaults: { temperature: 0, maxTokens: 512 },
      // §3.2 applies position calibration in both settings; ChatEval sums each judge's scores over the orders.
      calibration: { enabled: true, combine: 'sum-scores' },
    },
  },
  {
    id: 'faireval-mec-bpc',
    description: 'FairEval: 3 evidence-first samples at temperature 1 averaged (MEC), both orders averaged (BPC)',
    paper: 'Wang et al. 2023 (FairEval) §3.1-3.2, the ChatEval (000) Table 1 baseline',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      template: FAIREVAL_TEMPLATE,
      parser: { type: 'chateval-scores', min: 1, max: 10 },
      samples: 3,
      defaults: { temperature: 1, maxTokens: 512 },
      calibration: { enabled: true, combine: 'mean-scores' },
    },
  },
  {
    id: 'fastchat-pair',
    description: 'MT-Bench pairwise judge (pair-v2; pair-math-v1 with a reference), [[A]]/[[B]]/[[C]], both orders',
    paper: 'Zheng et al. 2023 (MT-Bench, FastChat llm_judge), the benchmark of Bandi et al. (003) §5',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      systemPrompt: FASTCHAT_PAIR_V2_SYSTEM,
      template: FASTCHAT_PAIR_V2_TEMPLATE,
      referenceSystemPrompt: FASTCHAT_PAIR_MATH_SYSTEM,
      referenceTemplate: FASTCHAT_PAIR_MATH_TEMPLATE,
      parser: { type: 'fastchat-verdict' },
      samples: 1,
      defaults: { temperature: 0, maxTokens: 2048 },
      calibration: { enabled: true, combine: 'agree-or-tie' },
    },
  },
  {
    id: 'geval-summeval',
    description: 'G-Eval-style SummEval form (coherence, consistency, fluency, relevance), scores only',
    paper: 'DEBATE (004) §4, Appendix E.2 (G-Eval template)',
    taskKind: 'pointwise',
    config: {
      method: 'single',
      template: GEVAL_SUMMEVAL_TEMPLATE,
      parser: { type: 'leading-number', min: 1, max: 5 },
      aspectSet: 'summeval',
      samples: 1,
      defaults: { temperature: 0, maxTokens: 512 },
    },
  },
  {
    id: 'geval-topical-chat',
    description: 'G-Eval-style Topical-Chat form (naturalness, coherence, engagingness, groundedness), scores only',
    paper: 'DEBATE (004) §4, Appendix E.2 (G-Eval template); ChatEval (000) Table 2 aspects',
    taskKind: 'pointwise',
    config: {
      method: 'single',
      template: GEVAL_TOPICAL_CHAT_TEMPLATE,
      parser: { type: 'leading-number', min: 1, max: 3 },
      aspectSet: 'topical-chat',
      samples: 1,
      defaults: { temperature: 0, maxTokens: 512 },
    },
  },
  {
    id: 'bandi-baseline',
    description: "Bandi et al.'s baseline judge: six criteria 1-20 each, summed, final tuple (score1, score2)",
    paper: 'Bandi et al. (003) Appendix E.3, criteria Appendix C.2',
    taskKind: 'pairwise',
    config: {
      method: 'single',
      template: BANDI_BASELINE_TEMPLATE,
      // 0-120: six criteria of 1-20 sum to 6-120; 0 is admitted so a terse tally is not re-asked.
      parser: { type: 'score-tuple', min: 0, max: 120 },
      samples: 1,
      defaults: { temperature: 0, maxTokens: 512 },
    },
  },
];
