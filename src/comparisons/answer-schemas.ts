/**
 * @module
 * The comparison API's answers: the accepted comparison, the comparison with its statistics (the metrics' own
 * schemas, given OpenAPI ids and descriptions here), the list, a results line and the `comparison.completed`
 * payload. The request's schemas are in ./schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import type { WebhookEventDoc } from '../webhooks/event-docs.js';
import type { WebhookEventType } from '../webhooks/outbox.js';
import { BatchCountsSchema, BatchStatusSchema, WebhookTargetSchema } from '../batches/schemas.js';
import { BudgetSchema } from '../engine/budget.js';
import { EvaluationErrorSchema, EvaluationStatusSchema, UsageTotalsSchema } from '../evaluations/schemas.js';
import { SolverSchema, StrengthModelSchema } from '../metrics/bradley-terry.js';
import { CertifiedField, GuaranteeField } from '../evaluations/certified.js';
import { FlexFallbackView, TierView } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';
import { GateOutcomeSchema, GateResultSchema } from '../metrics/gate.js';
import { JudgeRatesSchema, PairResultSchema, WinMatrixSchema } from '../metrics/pairs.js';
import { RankingEntrySchema } from '../metrics/ranking.js';
import { DesignSchema } from './schemas.js';

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
    '`confidence`, the counts behind it, `moreItems` (about how many more items would likely decide an inconclusive gate; null when the gate decided, ' +
    'when no item has a verdict yet, and when no number of items would likely decide it: a win rate exactly at `minWinRate`, e.g. 0.5 against a 0.5 bar, ' +
    'where more items of the same kind leave the interval spanning the bar, or one needing over 10⁹ items) and a one-line `summary`.',
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
