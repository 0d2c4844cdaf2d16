/**
 * @module
 * The comparison API's zod schemas: the request (candidates, items with each candidate's output, the
 * design, the gate), the answers, the statistics (the metrics' own schemas, given OpenAPI ids and
 * descriptions here), a results line and the `comparison.completed` payload. One per concept, for
 * validation, the OpenAPI document and the typed client.
 */
import { z } from '@hono/zod-openapi';
import type { WebhookEventDoc } from '../webhooks/event-docs.js';
import type { WebhookEventType } from '../webhooks/outbox.js';
import {
  BatchCountsSchema,
  BatchStatusSchema,
  CursorParam,
  limitParam,
  WebhookTargetSchema,
} from '../batches/schemas.js';
import { BudgetSchema } from '../engine/budget.js';
import { PairwiseTaskSchema } from '../engine/task.js';
import {
  EvaluationErrorSchema,
  EvaluationStatusSchema,
  JudgeConfigField,
  PresetField,
  UsageTotalsSchema,
} from '../evaluations/schemas.js';
import { SolverSchema, StrengthModelSchema } from '../metrics/bradley-terry.js';
import { RubricField } from '../rubrics/schemas.js';
import { CertifiedField, CertifyField, GuaranteeField } from '../evaluations/certified.js';
import { FlexFallbackField, FlexFallbackView, TierField, TierView } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';
import { CacheModeSchema } from '../verdict-cache/schemas.js';
import { GateOutcomeSchema, GateResultSchema, GateSchema } from '../metrics/gate.js';
import { JudgeRatesSchema, PairResultSchema, WinMatrixSchema } from '../metrics/pairs.js';
import { RankingEntrySchema } from '../metrics/ranking.js';

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

/** Relative URLs of a comparison. */
export const ComparisonLinksSchema = z
  .object({
    self: z.string(),
    results: z.string(),
    cancel: z.string(),
    batch: z.string().describe('The same evaluations as a batch (`GET /v1/batches/{id}`).'),
  })
  .strict()
  .meta({ id: 'ComparisonLinks' });

/** How many evaluations judge one pair on one item. */
const EvaluationsPerPair = z
  .union([z.literal(1), z.literal(2)])
  .describe(
    '1 when the judge runs both presentation orders inside each evaluation (its position calibration: most pairwise presets), ' +
      '2 when it runs one order (the pair is judged as AB and as BA, two evaluations, combined by agree-or-tie).',
  );

/** Answer to `POST /v1/comparisons` (202, and the same on an idempotent replay). */
export const ComparisonAcceptedSchema = z
  .object({
    id: z.string(),
    status: BatchStatusSchema,
    items: z.number().int().positive(),
    pairs: z.number().int().positive().describe('Pairs judged on every item.'),
    evaluationsPerPair: EvaluationsPerPair,
    evaluations: z.number().int().positive().describe('items × pairs × evaluationsPerPair.'),
    links: ComparisonLinksSchema,
    warnings: WarningsField,
  })
  .strict()
  .meta({ id: 'ComparisonAccepted' });
/** Answer to `POST /v1/comparisons`. */
export type ComparisonAccepted = z.infer<typeof ComparisonAcceptedSchema>;

/** The pair tallies, documented. */
export const ComparisonPairSchema = PairResultSchema.meta({
  id: 'ComparisonPair',
  description:
    'One pair, oriented as `a` versus `b` (`a` is listed first in `candidates`): items `a` won, tied and lost, items without a verdict ' +
    '(`missing`: failed, cancelled, abstained), `winRate` = (wins + ties/2) / (wins + ties + losses) and its Wilson `interval`.',
});

/** A row of the ranking, documented. */
export const RankingEntryDocSchema = RankingEntrySchema.meta({
  id: 'RankingEntry',
  description:
    'A candidate, best first: its Bradley–Terry strength θ (natural log; under bradley-terry P(i beats j) = 1/(1 + e^(θj − θi)), ×400/ln 10 for Elo ' +
    'points), its bootstrap `interval` (items resampled; it always holds `strength`; null while it cannot be computed yet), and its `rank`: 1 + the candidates whose ' +
    'interval lies wholly above its own, so candidates the data cannot separate share a rank.',
});

/** The fitted model. */
export const StrengthsSchema = z
  .object({
    model: StrengthModelSchema,
    scale: z.literal('log'),
    centring: z.literal('sum-zero').describe('The strengths sum to 0 (only their differences are identified).'),
    nu: z.number().nonnegative().nullable().describe("Davidson's tie parameter ν; null for bradley-terry."),
    prior: z
      .number()
      .nonnegative()
      .describe('Virtual wins and losses per candidate against a θ = 0 opponent (keeps a sweep finite); 1.'),
    solver: SolverSchema,
    converged: z.boolean(),
    iterations: z.number().int().nonnegative(),
    logLikelihood: z.number(),
    bootstrap: z
      .object({
        resamples: z.number().int().nonnegative().describe('0 while the intervals are not computed (see `basis`).'),
        seed: z.number().int(),
        level: z.number(),
        dropped: z.number().int().nonnegative(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'ComparisonStrengths' });

/** The judge's rates over the comparison, documented. */
export const JudgeRatesDocSchema = JudgeRatesSchema.meta({
  id: 'ComparisonJudgeRates',
  description:
    'The judge over every pair verdict: verdicts missing, the share of ties, and the share of verdicts whose two presentation orders disagreed (`flipRate`, ' +
    'over `flipsMeasured` verdicts where both orders gave one).',
});

/** The gate's outcome and the figures behind it, documented. */
export const GateResultDocSchema = GateResultSchema.meta({
  id: 'GateResult',
  description:
    "The gate: `outcome` (`passed` | `failed` | `inconclusive`), the candidate's win rate over the baseline (ties as half) with its Wilson interval at " +
    '`confidence`, the counts behind it, `moreItems` (inconclusive only: items that would likely decide it; null otherwise) and a one-line `summary`.',
});

/** Where the statistics come from. */
export const StatisticsBasisSchema = z.enum(['final', 'live', 'live-counts']).meta({
  id: 'ComparisonStatisticsBasis',
  description:
    '`final`: computed once every evaluation ended and stored; `live`: computed now over the evaluations ended so far (intervals from 200 resamples); `live-counts`: a large running ' +
    'comparison (more than 5,000 evaluations) computed from verdict counts, the strength intervals (and so every rank but 1) appear once it completes.',
});

/** The statistics of a comparison. */
export const ComparisonStatisticsSchema = z
  .object({
    basis: StatisticsBasisSchema,
    pairs: z.array(ComparisonPairSchema).describe('One entry per pair judged, `a` before `b` in `candidates`.'),
    matrix: WinMatrixSchema.meta({
      id: 'WinMatrix',
      description:
        'The N × N win matrix, rows and columns in `candidates` order: `wins[r][c]` items r beat c, `ties[r][c]`, `winRate[r][c]` r over c with ties as half (null on the diagonal and for pairs never judged).',
    }),
    ranking: z.array(RankingEntryDocSchema).describe('Best first.'),
    strengths: StrengthsSchema,
    judge: JudgeRatesDocSchema,
    gate: z.union([GateResultDocSchema, z.null()]).describe('The gate, when the request asked for one.'),
    summary: z
      .string()
      .describe("One line a CI log can print: the gate's summary when there is a gate, else the ranking."),
  })
  .strict();
/** The statistics of a comparison. */
export type ComparisonStatistics = z.infer<typeof ComparisonStatisticsSchema>;

const iso = z.string().describe('ISO 8601 UTC.');

/** A comparison in a list. */
export const ComparisonSummarySchema = z
  .object({
    id: z.string(),
    status: BatchStatusSchema,
    method: z.string(),
    preset: z.string().nullable(),
    /** The service tier of every pair evaluation, and what a flex refusal leads to (its batch's). */
    tier: TierView,
    flexFallback: FlexFallbackView,
    candidates: z.array(z.string()),
    design: DesignSchema,
    items: z.number().int().positive(),
    evaluationsPerPair: EvaluationsPerPair,
    counts: BatchCountsSchema.describe('Its evaluations by status.'),
    gateOutcome: GateOutcomeSchema.nullable().describe(
      "The gate's final outcome; null before the comparison completed or without a gate.",
    ),
    createdAt: iso,
    completedAt: iso.nullable(),
    cancelRequestedAt: iso.nullable(),
    links: ComparisonLinksSchema,
  })
  .strict()
  .meta({ id: 'ComparisonSummary' });
/** A comparison in a list. */
export type ComparisonSummary = z.infer<typeof ComparisonSummarySchema>;

/** Answer to `GET /v1/comparisons/{id}`. */
export const ComparisonSchema = ComparisonSummarySchema.extend({
  ...ComparisonStatisticsSchema.shape,
  webhook: z.union([WebhookTargetSchema, z.null()]),
  budget: z.union([BudgetSchema, z.null()]),
  usage: UsageTotalsSchema.describe('Every LLM call billed for its evaluations.'),
  guarantee: GuaranteeField,
  /** Only on the `Prefer: wait` answer to the creating request. */
  warnings: WarningsField,
})
  .strict()
  .meta({ id: 'Comparison' });
/** Answer to `GET /v1/comparisons/{id}`. */
export type Comparison = z.infer<typeof ComparisonSchema>;

/** Answer to `GET /v1/comparisons`. */
export const ComparisonListSchema = z
  .object({
    data: z.array(ComparisonSummarySchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
  })
  .strict()
  .meta({ id: 'ComparisonList' });

/** One evaluation of a pair on an item. */
const PairEvaluationSchema = z
  .object({
    id: z.string(),
    order: z.enum(['AB', 'BA']).describe('`AB`: `a` shown as answer A; `BA`: `b` shown as answer A.'),
    status: EvaluationStatusSchema,
    winner: z
      .enum(['A', 'B', 'tie'])
      .nullable()
      .describe("The evaluation's own winner, in its own A/B terms (see `order`); null without one."),
    error: z.union([EvaluationErrorSchema, z.null()]),
    certified: CertifiedField,
  })
  .strict();

/** One pair on one item. */
const ItemPairSchema = z
  .object({
    a: z.string(),
    b: z.string(),
    winner: z.string().nullable().describe('The candidate that won, `tie`, or null (no verdict yet, or none).'),
    flip: z.boolean().nullable().describe('Whether the two presentation orders disagreed; null when not measured.'),
    evaluations: z.array(PairEvaluationSchema),
  })
  .strict();

/** One line of `GET /v1/comparisons/{id}/results`: an item, or the closing summary. */
export const ComparisonResultLineSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('item'),
        index: z.number().int().nonnegative().describe('0-based position of the item in the request.'),
        itemId: z.string(),
        pairs: z.array(ItemPairSchema),
        gate: z
          .enum(['win', 'tie', 'loss'])
          .nullable()
          .describe(
            "With a gate: how this item went for the gate's candidate against its baseline; null without a verdict or a gate.",
          ),
      })
      .strict(),
    z
      .object({
        kind: z.literal('summary'),
        status: BatchStatusSchema,
        basis: StatisticsBasisSchema,
        gate: z.union([GateResultDocSchema, z.null()]),
        ranking: z.array(RankingEntryDocSchema),
        summary: z.string(),
      })
      .strict(),
  ])
  .meta({
    id: 'ComparisonResultLine',
    description:
      'An item line (`kind: "item"`) per item in request order, each pair with its verdict and evaluations; the last page ends with one ' +
      '`kind: "summary"` line: the gate and the ranking as of now (`basis`).',
  });
/** One line of the results. */
export type ComparisonResultLine = z.infer<typeof ComparisonResultLineSchema>;

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

/** `data` of `comparison.completed`. Times are ISO 8601 UTC; links relative to the API. */
export const ComparisonEventDataSchema = z
  .object({
    id: z.string(),
    status: z
      .enum(['completed', 'cancelled'])
      .describe(
        '`cancelled` when a cancel was asked before every evaluation ended (the figures cover what was judged).',
      ),
    method: z.string(),
    preset: z.string().nullable(),
    candidates: z.array(z.string()),
    design: DesignSchema,
    items: z.number().int(),
    counts: z.object({ succeeded: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }).strict(),
    gate: z.union([GateResultDocSchema, z.null()]),
    ranking: z.array(RankingEntryDocSchema),
    pairs: z.array(ComparisonPairSchema),
    judge: JudgeRatesDocSchema,
    summary: z.string(),
    createdAt: z.string(),
    completedAt: z.string(),
    links: z.object({ self: z.string(), results: z.string() }).strict(),
  })
  .strict()
  .meta({
    id: 'ComparisonEventData',
    description:
      "The completed comparison: the gate's outcome and figures, the ranking, the pairs and the judge's rates; usage and cost: `links.self`; per item: `links.results`.",
  });
/** `data` of `comparison.completed`. */
export type ComparisonEventData = z.infer<typeof ComparisonEventDataSchema>;

/** The comparison's event as the OpenAPI document's `webhooks` section shows it (src/webhooks/event-docs.ts). */
export const COMPARISON_WEBHOOK_DOCS = {
  'comparison.completed': {
    data: ComparisonEventDataSchema,
    what:
      "Every evaluation of a comparison ended (`data.status` `cancelled` after a cancel): the gate's outcome and figures, the ranking, the pairs " +
      "and the judge's rates; sent once, to the comparison's `webhook.url` too.",
  },
} satisfies Partial<Record<WebhookEventType, WebhookEventDoc>>;
