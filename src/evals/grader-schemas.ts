/**
 * @module
 * OpenAI's graders on the wire, as the `openai` SDK types them (`resources/graders/grader-models.d.ts`,
 * `resources/evals/evals.d.ts`): `string_check`, `text_similarity`, `label_model`, `score_model`, `multi`
 * and `python` (accepted by the schema so its refusal can name the alternatives). One schema per grader
 * type flows to validation, the OpenAPI document and the typed client. Every object is strict: a field the SDK
 * does not type is a 400 naming it, never silently dropped.
 */
import { z } from '@hono/zod-openapi';

/** Longest template or reference string, characters. */
export const MAX_TEMPLATE_CHARS = 100_000;

const Name = z.string().min(1).max(256).openapi({ description: "The grader's name; results are reported under it." });
const Template = z.string().max(MAX_TEMPLATE_CHARS).openapi({
  description: 'Text with `{{item.<field>}}`, `{{sample.output_text}}` or `{{sample.output_json}}` templates.',
});

/** `string_check`: `eq`, `ne`, `like` (contains), `ilike` (contains, ignoring case); score 1 or 0. */
export const StringCheckGraderSchema = z
  .object({
    type: z.literal('string_check'),
    name: Name,
    input: Template,
    reference: Template,
    operation: z.enum(['eq', 'ne', 'like', 'ilike']),
  })
  .strict()
  .openapi('StringCheckGrader');

/** The text similarity metrics OpenAI lists. */
export const SIMILARITY_METRICS = [
  'cosine',
  'fuzzy_match',
  'bleu',
  'gleu',
  'meteor',
  'rouge_1',
  'rouge_2',
  'rouge_3',
  'rouge_4',
  'rouge_5',
  'rouge_l',
] as const;
/** One of {@link SIMILARITY_METRICS}. */
export type SimilarityMetric = (typeof SIMILARITY_METRICS)[number];

/** `text_similarity`: a score in [0, 1]; passes at `pass_threshold` (required in an eval's criteria, not inside `multi`). */
export const TextSimilarityGraderSchema = z
  .object({
    type: z.literal('text_similarity'),
    name: Name,
    input: Template,
    reference: Template,
    evaluation_metric: z.enum(SIMILARITY_METRICS),
    pass_threshold: z.number().optional().openapi({
      description:
        "Score at or above which the item passes, in [0, 1]. Required in an eval's testing criteria, not inside a `multi` grader.",
    }),
  })
  .strict()
  .openapi('TextSimilarityGrader');

const ContentPart = z.union([
  z.object({ type: z.literal('input_text'), text: z.string() }).strict(),
  z.object({ type: z.literal('output_text'), text: z.string() }).strict(),
  z.object({ type: z.literal('input_image'), image_url: z.string(), detail: z.string().optional() }).strict(),
  z
    .object({
      type: z.literal('input_audio'),
      input_audio: z.object({ data: z.string(), format: z.string() }).strict(),
    })
    .strict(),
]);

/** A model grader's (or a `completions` run's) message: the content a string, a part or a list of parts. */
export const GraderMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([Template, ContentPart, z.array(z.union([Template, ContentPart]))]),
    type: z.literal('message').optional(),
  })
  .strict()
  .openapi('GraderMessage');
/** See {@link GraderMessageSchema}. */
export type GraderMessage = z.infer<typeof GraderMessageSchema>;

const Model = z.string().min(1).max(512).openapi({
  description:
    "The model that grades: a model of the deployment's LLM, or a Tribunal judge (`tribunal/<preset>`, `tribunal/<preset>@<model>`).",
});

/** `label_model`: the model picks one of `labels`; the item passes when it is one of `passing_labels`. */
export const LabelModelGraderSchema = z
  .object({
    type: z.literal('label_model'),
    name: Name,
    model: Model,
    input: z.array(GraderMessageSchema).min(1).max(32),
    labels: z.array(z.string().min(1).max(256)).min(2).max(64),
    passing_labels: z.array(z.string().min(1).max(256)).min(1).max(64),
  })
  .strict()
  .openapi('LabelModelGrader');

/** `score_model`: the model gives a number in `range` (default [0, 1]); passes at `pass_threshold`. */
export const ScoreModelGraderSchema = z
  .object({
    type: z.literal('score_model'),
    name: Name,
    model: Model,
    input: z.array(GraderMessageSchema).min(1).max(32),
    range: z
      .array(z.number())
      .length(2)
      .optional()
      .openapi({ description: '`[min, max]` of the score; default `[0, 1]`.' }),
    pass_threshold: z.number().optional(),
    sampling_params: z
      .object({
        max_completions_tokens: z.number().int().positive().max(100_000).nullable().optional(),
        reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
        seed: z.number().int().nullable().optional(),
        temperature: z.number().min(0).max(2).nullable().optional(),
        top_p: z.number().min(0).max(1).nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('ScoreModelGrader');

/** `python`: accepted by the schema only to be refused with `unsupported_grader` (no sandbox in the Worker). */
export const PythonGraderSchema = z
  .object({
    type: z.literal('python'),
    name: Name,
    source: z.string(),
    image_tag: z.string().optional(),
    pass_threshold: z.number().optional(),
  })
  .strict()
  .openapi('PythonGrader');

/** A grader that may stand inside `multi`. */
export const SingleGraderSchema = z.discriminatedUnion('type', [
  StringCheckGraderSchema,
  TextSimilarityGraderSchema,
  LabelModelGraderSchema,
  ScoreModelGraderSchema,
  PythonGraderSchema,
]);
/** See {@link SingleGraderSchema}. */
export type SingleGrader = z.infer<typeof SingleGraderSchema>;

/** `multi`: named graders combined by `calculate_output`, an arithmetic expression over their scores. */
export const MultiGraderSchema = z
  .object({
    type: z.literal('multi'),
    name: Name,
    graders: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), SingleGraderSchema).openapi({
      description: 'The graders by the name `calculate_output` uses for their scores.',
    }),
    calculate_output: z.string().min(1).max(2000).openapi({
      description: "`+ - * / ^`, parentheses, numbers, the graders' names and `min max abs floor ceil exp sqrt log`.",
    }),
    pass_threshold: z.number().optional(),
  })
  .strict()
  .openapi('MultiGrader');

/** Any grader. */
export const GraderSchema = z.discriminatedUnion('type', [
  StringCheckGraderSchema,
  TextSimilarityGraderSchema,
  LabelModelGraderSchema,
  ScoreModelGraderSchema,
  PythonGraderSchema,
  MultiGraderSchema,
]);
/** See {@link GraderSchema}. */
export type Grader = z.infer<typeof GraderSchema>;
/** Graders a run can execute (all but `python`). */
export type RunnableGrader = Exclude<Grader, { type: 'python' }>;
/** A single runnable grader. */
export type RunnableSingle = Exclude<SingleGrader, { type: 'python' }>;

/** The grader types, as named in the `unsupported_grader` refusal. */
export const RUNNABLE_TYPES = ['string_check', 'text_similarity', 'label_model', 'score_model', 'multi'] as const;
