/**
 * @module
 * The single judge's config: its templates and the placeholders each may use, its reader and sampling.
 * What it sends for a task is `request.ts`; how it concludes is `protocol.ts`.
 */
import { z } from 'zod';
import { CommonConfigShape } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import { ParserSpecSchema } from '../../parsers/spec.js';
import { templateField, templateText } from '../../template.js';
import { CHATEVAL_SINGLE_CODE } from '../chateval/index.js';
import { ASPECT_SETS } from './aspects.js';

/**
 * Placeholders a pairwise template may use; `reference` renders `(none)` when the task has none, `criteria` is
 * a rubric's criteria (a template of a config's own marks its criteria slot with it; a rubric is then required).
 */
export const PAIRWISE_PLACEHOLDERS = ['question', 'answer_a', 'answer_b', 'reference', 'criteria'] as const;

/**
 * Placeholders a pointwise template may use. `aspect` is the aspect name capitalised, `min`/`max` the task's
 * scale, `context` and `reference` (the expected output) render `(none)` when the task has none; `Document` / `Summary` are G-Eval's own slot names
 * for the source and the output; `criteria` and `aspect_description` hold a rubric's criteria (else the
 * aspect's description), `evaluation_steps` its steps (else the aspect's known steps).
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
  'Document',
  'Summary',
  'criteria',
  'reference',
] as const;

/**
 * Placeholders of the multi-turn templates (FastChat's `pair-v2-multi-turn`, `pair-math-v1-multi-turn`, with
 * FastChat's slot names): both user turns, both answers of each conversation, a reference per turn.
 */
export const MULTI_TURN_PLACEHOLDERS = [
  'question_1',
  'question_2',
  'answer_a_1',
  'answer_b_1',
  'answer_a_2',
  'answer_b_2',
  'ref_answer_1',
  'ref_answer_2',
  'criteria',
] as const;

/**
 * Placeholders of the one-call template for several aspects: the inputs, `criteria` (the rubric's general
 * criteria), `aspects` (each aspect with its scale and criteria) and `json_format` (the object to answer with).
 */
export const ASPECTS_PLACEHOLDERS = ['source', 'context', 'output', 'criteria', 'aspects', 'json_format'] as const;

const ALL_PLACEHOLDERS: readonly string[] = [...new Set([...PAIRWISE_PLACEHOLDERS, ...POINTWISE_PLACEHOLDERS])];

/** Kind of value a parser yields, to check it fits the task kind. */
export function yields(spec: ParserSpec): 'pair' | 'score' | 'aspects' | 'none' {
  switch (spec.type) {
    case 'chateval-scores':
    case 'score-tuple':
    case 'fastchat-verdict':
    case 'assistant-choice':
    case 'faireval-scores':
    case 'bandi-tuple':
      return 'pair';
    case 'leading-number':
    case 'labelled-score':
    case 'geval-score':
    case 'last-char':
    case 'debate-score':
      return 'score';
    case 'json':
      return spec.shape === 'score' ? 'score' : 'pair';
    case 'aspect-scores':
      return 'aspects';
    case 'text':
    case 'critique':
    case 'steps':
      return 'none';
  }
}

/** The templates for a task that is a two-turn conversation (FastChat's multi-turn judges). */
export const MultiTurnSchema = z
  .object({
    /** System message. Default none. */
    systemPrompt: templateText(MULTI_TURN_PLACEHOLDERS).default(''),
    /** User template (FastChat's `pair-v2-multi-turn`). */
    template: templateField(MULTI_TURN_PLACEHOLDERS).unwrap(),
    /** System message when the task has a `reference` and `referenceTemplate` is set. Default none. */
    referenceSystemPrompt: templateText(MULTI_TURN_PLACEHOLDERS).default(''),
    /** User template when the task has a `reference` (FastChat's `pair-math-v1-multi-turn`); empty keeps `template`. */
    referenceTemplate: templateText(MULTI_TURN_PLACEHOLDERS).default(''),
  })
  .strict();

/** Config of the single-agent judge. Every field has a default (ChatEval's single-agent pairwise setup). */
export const singleAgentConfigSchema = z
  .object({
    method: z.literal('single'),
    ...CommonConfigShape,
    /** System message; empty (default) sends none. Placeholders as in `template`. */
    systemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** The prompt template. Default: ChatEval's single-agent config prompt (pairwise). */
    template: templateField(ALL_PLACEHOLDERS, CHATEVAL_SINGLE_CODE),
    /** Pointwise: templates by lower-case aspect name, used instead of `template` for those aspects. Default {}. */
    templatesByAspect: z.record(z.string(), templateText(ALL_PLACEHOLDERS)).default({}),
    /** Where the template goes: a `user` message (default) or the `system` message (G-Eval sends its form as the system message). */
    templateRole: z.enum(['user', 'system']).default('user'),
    /** System message used instead of `systemPrompt` when a pairwise task has a `reference` and `referenceTemplate` is set. Default empty. */
    referenceSystemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** User template used when a pairwise task has a `reference`; empty (default) keeps `template`. */
    referenceTemplate: templateText(ALL_PLACEHOLDERS).default(''),
    /**
     * Pairwise: the templates for a task whose `messages` are two turns (user, assistant, user), e.g. FastChat's
     * multi-turn judges. Default none: a conversation stands where the question does, in `template`.
     */
    multiTurn: MultiTurnSchema.optional(),
    /**
     * Pointwise with several aspects: score them all in one call with `aspectsTemplate`, read as one JSON
     * object (`aspect-scores`), instead of one run per aspect. Default false.
     */
    aspectsInOneCall: z.boolean().default(false),
    /** The one-call template for several aspects. Default (absent): ours, `ASPECTS_JSON_TEMPLATE`. */
    aspectsTemplate: templateField(ASPECTS_PLACEHOLDERS),
    /** How replies are parsed. Default `chateval-scores` with the authors' script read. Scoring parsers with bounds take the pointwise aspect's scale. */
    parser: ParserSpecSchema.default({ type: 'chateval-scores', min: 1, max: 10, read: 'script' }),
    /** Independent samples per order, 1-20, asked in one request with `n` (separate calls where the provider lacks it). Default 1. */
    samples: z.number().int().min(1).max(20).default(1),
    /** An unparsed sample: `drop` it, make the item a `tie`, or count it as `zero` (pointwise). Default `drop`. */
    unparsed: z.enum(['drop', 'tie', 'zero']).default('drop'),
    /** Which known aspect descriptions pointwise tasks use when they bring none. Default `summeval`. */
    aspectSet: z.enum(ASPECT_SETS).default('summeval'),
    /** The judge's display name in votes and transcripts. Default `Judge`. */
    label: z.string().min(1).max(64).default('Judge'),
  })
  .strict()
  .superRefine((c, ctx) => {
    const kind = yields(c.parser);
    if (kind === 'none' || kind === 'aspects')
      ctx.addIssue({
        code: 'custom',
        path: ['parser'],
        message:
          kind === 'none'
            ? `parser "${c.parser.type}" yields no score or winner`
            : "the aspect-scores parser is the one-call form's own: set aspectsInOneCall instead",
      });
  });
export type SingleAgentConfig = z.infer<typeof singleAgentConfigSchema>;
