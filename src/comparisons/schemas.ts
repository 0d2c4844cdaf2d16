/**
 * @module
 * The comparison API's request schemas: candidates, items with each candidate's output, the design, the
 * gate, and the queries and path of the reads. One per concept, for validation, the OpenAPI document and the
 * typed client. The answers' schemas are in ./answer-schemas.ts.
 */
import { z } from '@hono/zod-openapi';

import { CursorParam, limitParam, WebhookTargetSchema } from '../batches/schemas.js';
import { BudgetSchema } from '../engine/budget.js';
import { PairwiseTaskSchema } from '../engine/task.js';
import { JudgeConfigField, PresetField } from '../evaluations/schemas.js';
import { StrengthModelSchema } from '../metrics/bradley-terry.js';
import { RubricField } from '../rubrics/schemas.js';
import { CertifyField } from '../evaluations/certified.js';
import { FlexFallbackField, TierField } from '../tiers/schemas.js';

import { CacheModeSchema } from '../verdict-cache/schemas.js';
import { GateSchema } from '../metrics/gate.js';

/** Most items per comparison: 10,000. */
export const MAX_COMPARISON_ITEMS = 10_000;
/** Most candidates per comparison: 8 (28 pairs with all pairs). */
export const MAX_CANDIDATES = 8;

/** True when `s` holds a control character (C0 or DEL). */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A candidate's name: what the outputs are keyed by. */
const CandidateName = z
  .string()
  .min(1)
  .max(64)
  .refine((s) => !hasControl(s), 'a candidate name has no control characters')
  .describe('A model, prompt or agent version, e.g. `v1`, `gpt-4o-2024-08-06`, `prompt-b`.');

/** One candidate's output for an item: the text it is judged on (a pairwise answer's limits). */
const OutputText = PairwiseTaskSchema.shape.answerA;

/** An earlier turn of an item's conversation: shared by every candidate (a `content`, never per answer). */
const SharedMessages = PairwiseTaskSchema.shape.messages.describe(
  'The conversation before the judged replies, instead of `question` (the last message is the user turn). Earlier assistant turns are ' +
    'shared by every candidate here: give them as `content`.',
);

/** One item: the question (or conversation), an optional reference, and every candidate's output. */
export const ComparisonItemSchema = z
  .object({
    id: z.string().min(1).max(256).describe('Your id for the item (unique in the comparison); results carry it back.'),
    question: PairwiseTaskSchema.shape.question,
    messages: SharedMessages,
    reference: PairwiseTaskSchema.shape.reference,
    outputs: z
      .record(CandidateName, OutputText)
      .describe("Each candidate's output, keyed by its name in `candidates`: one for every candidate, no other."),
  })
  .strict()
  .superRefine((item, ctx) => {
    if (item.question === undefined && item.messages === undefined)
      ctx.addIssue({ code: 'custom', path: ['question'], message: 'give question or messages' });
    else if (item.question !== undefined && item.messages !== undefined)
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'give question or messages, not both' });
    item.messages?.forEach((m, i) => {
      if (m.role === 'assistant' && m.content === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['messages', i],
          message: 'in a comparison an earlier assistant turn is shared by every candidate: give it as content',
        });
    });
  })
  .meta({ id: 'ComparisonItem' });
/** One item of a comparison. */
export type ComparisonItem = z.infer<typeof ComparisonItemSchema>;

/** What a design may be, for its error messages. */
const DESIGN_OPTIONS =
  '"all-pairs" (every pair of candidates) or {"baseline": "<candidate>"} (every candidate against one)';

/** A missing or mistyped design names both forms, not only the literal (zod's own message quotes one branch). */
const designError = (issue: { input?: unknown }): string =>
  issue.input === undefined ? `required: ${DESIGN_OPTIONS}` : `expected ${DESIGN_OPTIONS}`;

/** `all-pairs`, or every candidate against a baseline. */
export const DesignSchema = z
  .union(
    [
      z.literal('all-pairs', { error: designError }),
      z.object({ baseline: CandidateName.describe('The candidate every other one is compared with.') }).strict(),
    ],
    { error: designError },
  )
  .meta({
    id: 'ComparisonDesign',
    description:
      '`"all-pairs"`: every pair of candidates is judged on every item (n(n − 1)/2 pairs); `{"baseline": "v1"}`: every other candidate ' +
      'against `v1` only (n − 1 pairs), enough for a CI gate and still a ranking (the strengths are identified through the baseline).',
  });
/** The design of a comparison. */
export type Design = z.infer<typeof DesignSchema>;

/** The CI gate: the metrics' schema, documented. */
export const ComparisonGateSchema = GateSchema.meta({
  id: 'ComparisonGate',
  description:
    "Is `candidate` better than `baseline`? The candidate's win rate over the baseline (ties as half) gets a Wilson interval at `confidence` " +
    '(two-sided, [0.5, 1), default 0.95): `passed` when its lower bound is above `minWinRate` ((0, 1), default 0.5), `failed` when its upper ' +
    'bound is below it, else `inconclusive` with how many more items would likely decide it.',
});

/** How the statistics are computed. */
export const StatisticsOptionsSchema = z
  .object({
    model: StrengthModelSchema.default('bradley-terry').describe(
      '`bradley-terry`: ties count as half a win for each side (default); `davidson`: ties modelled with a fitted tie parameter ν.',
    ),
    level: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.95)
      .describe('Level of the pair win-rate intervals and the strength intervals, in (0, 1); default 0.95.'),
    resamples: z
      .number()
      .int()
      .min(100)
      .max(10_000)
      .default(1000)
      .describe('Bootstrap resamples of items for the strength intervals, 100-10,000; default 1000.'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(0)
      .describe('Bootstrap seed; the same verdicts and seed give the same intervals. Default 0.'),
  })
  .strict()
  .meta({ id: 'ComparisonStatisticsOptions' });
/** How the statistics are computed (defaults filled). */
export type StatisticsOptions = z.infer<typeof StatisticsOptionsSchema>;

/** Body of `POST /v1/comparisons` (the NDJSON form carries the same fields: see the route). */
export const CreateComparisonRequestSchema = z
  .object({
    preset: PresetField,
    config: JudgeConfigField,
    rubric: RubricField.optional().describe(
      'The rubric every pair evaluation judges by, as on `POST /v1/evaluations` (resolved once, at submit).',
    ),
    certify: CertifyField,
    candidates: z
      .array(CandidateName)
      .min(2, 'a comparison needs at least 2 candidates')
      .max(MAX_CANDIDATES)
      .describe(
        `2-${MAX_CANDIDATES} distinct names; pairs are oriented by this order (\`a\` is the one listed first).`,
      ),
    items: z.array(ComparisonItemSchema).min(1).max(MAX_COMPARISON_ITEMS),
    design: DesignSchema,
    gate: ComparisonGateSchema.optional(),
    statistics: StatisticsOptionsSchema.optional(),
    webhook: WebhookTargetSchema.optional().describe(
      "Also POST `comparison.completed` (and no other event) to `url`, signed with the tenant's signing secret.",
    ),
    budget: BudgetSchema.optional().describe(
      "Spending limits of the whole comparison (every pair evaluation), as a batch's `budget`: estimated at submit (as `POST /v1/estimates` " +
        "estimates this body) and refused with a 400 naming `budget.<limit>` when not even the estimate's floor fits; shared out as the " +
        'evaluations launch; once used up, evaluations not launched end `failed` (`budget_exceeded`) and their pairs count as missing.',
    ),
    tier: TierField.describe(
      "The service tier of every pair evaluation, as a batch's `tier` (absent: the tenant's default, else the providers' default, else " +
        '`standard`). A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.',
    ),
    flexFallback: FlexFallbackField,
    cache: CacheModeSchema.optional().describe(
      'The verdict cache of every pair evaluation, as on `POST /v1/evaluations` (unset: `use`, except for a judge sampling above ' +
        'temperature 0): a pair this tenant had judged with the same judge, rubric and outputs within VERDICT_CACHE_TTL_DAYS is served ' +
        'from the cache, 0 calls and $0 (so a CI gate re-judging an unchanged candidate pays only for what changed); `refresh` judges ' +
        'every pair anew and replaces the entries; `off` neither reads nor writes.',
    ),
  })
  .strict()
  .superRefine((body, ctx) => {
    const names = new Map<string, number>();
    body.candidates.forEach((c, i) => {
      const first = names.get(c);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['candidates', i],
          message: `"${c}" is listed twice (also candidates.${first})`,
        });
      else names.set(c, i);
    });
    const known = (c: string) => names.has(c);
    const baseline = body.design === 'all-pairs' ? null : body.design.baseline;
    if (baseline !== null && !known(baseline))
      ctx.addIssue({ code: 'custom', path: ['design', 'baseline'], message: `"${baseline}" is not a candidate` });
    if (body.gate) {
      for (const field of ['candidate', 'baseline'] as const) {
        const name = body.gate[field];
        if (!known(name))
          ctx.addIssue({ code: 'custom', path: ['gate', field], message: `"${name}" is not a candidate` });
      }
      const { candidate, baseline: against } = body.gate;
      if (baseline !== null && known(candidate) && known(against) && candidate !== baseline && against !== baseline)
        ctx.addIssue({
          code: 'custom',
          path: ['gate', 'baseline'],
          message: `the design judges every candidate against "${baseline}" only: ${candidate} is never judged against ${against}`,
        });
    }
    const ids = new Map<string, number>();
    body.items.forEach((item, i) => {
      const first = ids.get(item.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'id'],
          message: `duplicate item id "${item.id}" (also items.${first}.id)`,
        });
      else ids.set(item.id, i);
      for (const c of body.candidates) {
        if (item.outputs[c] === undefined)
          ctx.addIssue({ code: 'custom', path: ['items', i, 'outputs', c], message: `no output for candidate "${c}"` });
      }
      for (const c of Object.keys(item.outputs)) {
        if (!known(c))
          ctx.addIssue({ code: 'custom', path: ['items', i, 'outputs', c], message: `"${c}" is not a candidate` });
      }
    });
  })
  .meta({ id: 'CreateComparisonRequest' });
/** Body of `POST /v1/comparisons`. */
export type CreateComparisonRequest = z.infer<typeof CreateComparisonRequestSchema>;

/** A comparison body: the README's CI gate, `v2` against `v1` on two items (the API document's example). */
export const COMPARISON_EXAMPLE = {
  preset: 'fastchat-pair',
  candidates: ['v1', 'v2'],
  design: { baseline: 'v1' },
  gate: { candidate: 'v2', baseline: 'v1', minWinRate: 0.5, confidence: 0.95 },
  items: [
    { id: 'q1', question: 'Capital of Australia?', outputs: { v1: 'Sydney.', v2: 'Canberra.' } },
    { id: 'q2', question: '2 + 2?', outputs: { v1: '5', v2: '4' } },
  ],
};

/** Most items per results page: 200 (default 50). */
export const MAX_RESULTS_ITEMS = 200;
/** Most comparisons per list page: 100 (default 20). */
export const MAX_COMPARISONS_PAGE = 100;

/** Query of `GET /v1/comparisons/{id}/results`. */
export const ComparisonResultsQuery = z
  .object({ cursor: CursorParam, limit: limitParam(MAX_RESULTS_ITEMS, 50, 'Items per page') })
  .strict();

/** Query of `GET /v1/comparisons`. */
export const ComparisonListQuery = z
  .object({ cursor: CursorParam, limit: limitParam(MAX_COMPARISONS_PAGE, 20, 'Comparisons per page, newest first') })
  .strict();

/** Path of `/v1/comparisons/{id}…`. */
export const ComparisonIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { description: 'Comparison id (`cp_…`).' }, example: 'cp_5d1c0b9a8f7e6d5c4b3a291807f6e5d4' }),
});
