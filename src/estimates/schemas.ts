/**
 * @module
 * `POST /v1/estimates`: the body of an evaluation (`task`) or of a batch (`items`), and the estimate.
 * One zod schema per concept, for validation, the OpenAPI document and the typed client.
 */
import { FlexFallbackField, TierField } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';
import { RubricField } from '../rubrics/schemas.js';
import { z } from '@hono/zod-openapi';
import { CertifyField } from '../evaluations/certified.js';
import { BudgetSchema } from '../engine/budget.js';
import { configField } from '../methods/method-config.js';
import { MetadataSchema, Task } from '../evaluations/schemas.js';
import { PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE } from '../evaluations/examples.js';

/** Most items in one estimate: 10,000 (a batch's limit). */
export const MAX_ESTIMATE_ITEMS = 10_000;

/** Items estimated one by one; a larger batch is estimated from an even sample of this many, scaled: 100. */
export const MAX_EXACT_ITEMS = 100;

/** One item of a batch body: its task (an `id` and `metadata` are accepted and do not change the estimate). */
export const EstimateItemSchema = z
  .object({
    id: z.string().min(1).max(200).optional(),
    task: Task,
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .meta({ id: 'EstimateItem' });

/**
 * Body of `POST /v1/estimates`: `{ preset | config, task }` as for `POST /v1/evaluations`, or
 * `{ preset | config, items: [{ task }] }` as for a batch. `budget` is compared with the estimate.
 */
export const EstimateRequestSchema = z
  .object({
    preset: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('Preset id from GET /v1/methods, as on POST /v1/evaluations.'),
    config: configField('Config overrides, as on POST /v1/evaluations.').optional(),
    /** The evaluation's task (give `task` or `items`). */
    task: Task.optional(),
    /** A batch's items (give `task` or `items`). */
    items: z.array(EstimateItemSchema).min(1).max(MAX_ESTIMATE_ITEMS).optional(),
    budget: BudgetSchema.optional(),
    /** The rubric the evaluation or every item would judge by, as on POST /v1/evaluations (each aspect's run counted). */
    rubric: RubricField.optional(),
    metadata: MetadataSchema.optional(),
    /** The body's tier: accepted so that a body can be sent as it is; every tier is estimated (`tiers`). */
    tier: TierField,
    certify: CertifyField.describe(
      "Certified mode, as on POST /v1/evaluations: the calibration run (the stored rubric version's labelled items judged once by this judge, every stage of a cascade) is counted once, unless it is stored already for this judge and these labels: a request then reuses it and pays none of it (`assumptions` says which).",
    ),
    flexFallback: FlexFallbackField,
    include: z
      .array(z.enum(['prompts']))
      .max(1)
      .optional()
      .describe(
        'Extra parts of the answer. `prompts`: the exact prompts one evaluation of the task (a batch: of its first item) sends first, rendered from the preset, config, templates and rubric, without an LLM call (`prompts` in the answer).',
      ),
    /** A batch body's webhook: accepted so that a batch body can be sent as it is; not used. */
    webhook: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Accepted so that a batch body can be sent as it is; it does not change the estimate.'),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.task === undefined) === (b.items === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.task === undefined ? 'task' : 'items'],
        message: 'give either `task` (an evaluation) or `items` (a batch), not both or neither',
      });
    }
    if (b.items) {
      const kinds = new Set(b.items.map((i) => i.task.kind));
      if (kinds.size > 1)
        ctx.addIssue({ code: 'custom', path: ['items'], message: 'all items must have the same task kind' });
    }
  })
  .meta({ id: 'EstimateRequest' });
/** Body of `POST /v1/estimates`. */
export type EstimateRequest = z.infer<typeof EstimateRequestSchema>;

/** One request as the provider would receive it (`include: ["prompts"]`). */
export const RenderedCallSchema = z
  .object({
    id: z.string().describe("The call's id in the evaluation, as in its transcript, e.g. `ab/turn1/agent0`."),
    agent: z.string().describe('The agent that speaks, e.g. `agent0`, `judge`.'),
    label: z.string().describe("The agent's role name."),
    stage: z.string().describe('The stage of the protocol, e.g. `turn 1`.'),
    model: z.string(),
    provider: z.string(),
    temperature: z.number(),
    maxTokens: z.number().int().positive().describe('Completion token limit.'),
    n: z.number().int().min(2).optional().describe('Choices asked of this one request (OpenAI `n`), when more than 1.'),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['system', 'user', 'assistant']),
            content: z.string(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .describe('The chat messages, rendered: templates filled with the task, rubric and config.'),
  })
  .strict()
  .meta({ id: 'RenderedCall' });

/** The first calls of one evaluation, rendered (`include: ["prompts"]`). */
export const RenderedPromptsSchema = z
  .object({
    evaluation: z
      .number()
      .int()
      .nonnegative()
      .describe("Which evaluation of the body: 0 (the task, or a batch's first item)."),
    calls: z.array(RenderedCallSchema).describe("The calls sent before any reply (a debate's first round), in order."),
    note: z.string().describe('What is shown and what is not, in words.'),
  })
  .strict()
  .meta({ id: 'RenderedPrompts' });
/** `prompts` of an estimate. */
export type RenderedPrompts = z.infer<typeof RenderedPromptsSchema>;

/** A figure's lower bound, expected value and upper bound. */
export const RangeSchema = z
  .object({ min: z.number().nonnegative(), expected: z.number().nonnegative(), max: z.number().nonnegative() })
  .strict()
  .meta({ id: 'EstimateRange' });

const calls = z
  .object({
    min: z.number().int().nonnegative(),
    expected: z.number().int().nonnegative(),
    max: z.number().int().nonnegative(),
  })
  .strict();

/** One model at one provider. */
export const ModelEstimateSchema = z
  .object({
    model: z.string(),
    provider: z.string(),
    /** False when the price table has no price for the model: its cost counts as 0. */
    priced: z.boolean(),
    /** `exact` (cl100k models), `o200k-proxy` (cl100k × 1.02), `estimate` (other models: cl100k × 1.25). */
    tokenCount: z.enum(['exact', 'o200k-proxy', 'estimate']),
    calls,
    promptTokens: RangeSchema,
    completionTokens: RangeSchema,
    costUsd: RangeSchema,
  })
  .strict()
  .meta({ id: 'ModelEstimate' });

/** One service tier's figures. */
export const TierEstimateSchema = z
  .object({
    available: z.boolean().describe('Whether every provider of the judge offers the tier on this deployment.'),
    unavailableReason: z.string().optional().describe('Why the tier is not available, when it is not.'),
    costUsd: RangeSchema.describe(
      "USD at the tier's price (the price table's flex / batch price, else the standard one).",
    ),
    seconds: z
      .object({
        typical: z.number().nonnegative(),
        worst: z.number().nonnegative(),
      })
      .strict()
      .describe(
        "Seconds until every evaluation has its verdict: rounds of dependent calls times a round's time (batch: the " +
          "provider's turnaround per wave typically, the 24 h completion window per wave at worst).",
      ),
  })
  .strict()
  .meta({ id: 'TierEstimate' });

/** Whether the estimate fits a budget: `yes` even at the upper bound, `no` not even at the lower, else `maybe`. */
export const BudgetFitSchema = z.enum(['yes', 'maybe', 'no']).meta({ id: 'BudgetFit' });

/** Answer to `POST /v1/estimates`. Token counts and costs are summed over every evaluation. */
export const EstimateSchema = z
  .object({
    method: z.string(),
    preset: z.string().nullable(),
    /** Evaluations the body would create (1, or the number of items). */
    evaluations: z.number().int().positive(),
    /** Set when a batch over 100 items was estimated from an even sample of its items, scaled to all. */
    sampled: z.object({ items: z.number().int().positive(), of: z.number().int().positive() }).strict().nullable(),
    /** True when the number of calls depends on the replies (early stops): `calls.min` < `calls.max`. */
    adaptive: z.boolean(),
    /** LLM requests: the shortest path, the planned (longest) path twice; `withRepairs` if every rejectable reply were re-asked. */
    calls: calls.extend({ withRepairs: z.number().int().nonnegative() }),
    promptTokens: RangeSchema,
    completionTokens: RangeSchema,
    /** USD from the price table, every prompt token at the uncached input price. */
    costUsd: RangeSchema,
    models: z.array(ModelEstimateSchema),
    /** The body's budget compared per limit with the estimate (null without a budget). */
    budget: z
      .object({
        maxCostUsd: BudgetFitSchema.optional(),
        maxCalls: BudgetFitSchema.optional(),
        maxTokens: BudgetFitSchema.optional(),
      })
      .strict()
      .nullable(),
    /** Rounds of dependent calls of one evaluation (the deepest item's): on the shortest and the longest path. */
    waves: z.object({ min: z.number().int().nonnegative(), max: z.number().int().nonnegative() }).strict(),
    /** The same calls at each service tier: cost and completion time. */
    tiers: z.object({ standard: TierEstimateSchema, flex: TierEstimateSchema, batch: TierEstimateSchema }).strict(),
    promptCache: z
      .object({
        promptTokens: z
          .number()
          .int()
          .nonnegative()
          .describe('Prompt tokens of one evaluation of the first item, its longest path.'),
        cacheableTokens: z
          .number()
          .int()
          .nonnegative()
          .describe(
            "Of those, the tokens a provider's prompt cache could bill as cached: each prompt's prefix shared with a call that ended before it was sent (same model), by OpenAI's rule (prompts of 1,024+ tokens, 128-token steps).",
          ),
        cacheableShare: z.number().min(0).max(1).describe('cacheableTokens / promptTokens (0 without prompt tokens).'),
      })
      .strict()
      .describe(
        "The preset's cacheable share with provider prompt caching (each evaluation sends one prompt_cache_key). costUsd does not count it.",
      ),
    /** How the figures were made, in words. */
    assumptions: z.array(z.string()),
    prompts: RenderedPromptsSchema.optional().describe(
      'With `include: ["prompts"]`: the exact prompts one evaluation sends before any reply. Later calls carry replies only a real run has, and are not shown.',
    ),
    /** About the body's `tier`: `tier_price_missing` when a model has no price for it (its figure in `tiers` is the standard price). */
    warnings: WarningsField,
  })
  .strict()
  .meta({ id: 'Estimate' });
/** Answer to `POST /v1/estimates`. */
export type EstimateResponse = z.infer<typeof EstimateSchema>;

/** Named examples of `POST /v1/estimates` bodies. */
export const ESTIMATE_EXAMPLES = {
  evaluation: {
    summary: 'One evaluation with a budget',
    description:
      'The body of POST /v1/evaluations: what SAMRE would spend on one pairwise item, and whether it fits $0.01.',
    value: { preset: 'samre-mtbench', task: PAIRWISE_TASK_EXAMPLE, budget: { maxCostUsd: 0.01 } },
  },
  batch: {
    summary: 'A batch',
    description: 'A batch body: DEBATE on two summaries (an adaptive protocol: calls.min < calls.max).',
    value: {
      preset: 'debate-summeval',
      items: [
        { task: POINTWISE_TASK_EXAMPLE },
        { id: 'second', task: { ...POINTWISE_TASK_EXAMPLE, output: 'A bike lane is coming.' } },
      ],
    },
  },
};
