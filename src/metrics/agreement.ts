/**
 * @module
 * Agreement reports of a judge against human labels (the statistics are in `stats.ts`, re-exported here):
 * pairwise accuracy and κ, pointwise item- and group-level correlations, with the figure the papers quote
 * as the report's headline when the dataset has one (`headline.ts`).
 *
 * Undefined statistics are `null` in reports, because JSON has no NaN. Accuracy counts judge ties as wrong
 * against binary labels; `accuracyDecided` (over items where the judge did not say tie), `tieRate` and,
 * when asked for, `accuracyTieAsB` (Bandi et al.'s `1 if s1 > s2 else 0`: a judge tie counts as B) are
 * reported next to it so every reading is available.
 */
import { z } from 'zod';
import type { BootstrapOptions } from './bootstrap.js';
import type { Correlation, PairLabel } from './stats.js';
import {
  accuracy,
  cohenKappa,
  confusionMatrix,
  flipRate,
  groupCorrelation,
  kendallTauB,
  mean,
  PAIR_LABELS,
  pearson,
  pick,
  spearman,
  tieRate,
} from './stats.js';
import { bootstrapInterval, DEFAULT_BOOTSTRAP } from './bootstrap.js';

// ---------------------------------------------------------------------------------------------
// Reports

const num = z.number().nullable();

/** A point estimate with its bootstrap CI; `value` null when undefined, `ci` null without bootstrap. */
export const EstimateSchema = z
  .object({ value: num, ci: z.object({ lo: z.number(), hi: z.number() }).strict().nullable() })
  .strict();
/** See {@link EstimateSchema}. */
export type Estimate = z.infer<typeof EstimateSchema>;

/** A group-level estimate: mean over groups, CI from resampling groups. */
export const GroupEstimateSchema = EstimateSchema.extend({
  groupsUsed: z.number().int().nonnegative(),
  groupsSkipped: z.number().int().nonnegative(),
}).strict();
/** See {@link GroupEstimateSchema}. */
export type GroupEstimate = z.infer<typeof GroupEstimateSchema>;

const counts = {
  /** Items submitted. */
  n: z.number().int().nonnegative(),
  /** Items with a judge value: the ones every metric is computed on. */
  nScored: z.number().int().nonnegative(),
  /** Items without a judge value (unparsed reply, failed call): excluded from the metrics. */
  nMissing: z.number().int().nonnegative(),
  /** Bootstrap settings the CIs used; null when CIs were not computed. */
  bootstrap: z
    .object({ resamples: z.number().int().positive(), seed: z.number(), level: z.number() })
    .strict()
    .nullable(),
};

const distribution = z.object({ A: z.number().int(), B: z.number().int(), tie: z.number().int() }).strict();

/** Agreement of a pairwise judge with human A/B/tie labels. */
export const PairwiseReportSchema = z
  .object({
    kind: z.literal('pairwise'),
    ...counts,
    /** Share of scored items where judge = human; judge ties count as wrong against binary labels. */
    accuracy: EstimateSchema,
    /** Cohen's κ over the 3-class A/B/tie confusion (see the module note on binary labels). */
    kappa: EstimateSchema,
    /** Accuracy over scored items where the judge did not say tie; null when it always did. */
    accuracyDecided: num,
    /**
     * Accuracy with a judge tie counted as B, as Bandi et al.'s `main.py` scores MT-Bench (`1 if s1 > s2
     * else 0`); present when the report was asked for it (`tieAsB`).
     */
    accuracyTieAsB: num.optional(),
    /** Share of scored judge verdicts that are tie. */
    tieRate: num,
    /** Share of position-calibrated items whose outcome changed when the answers were swapped. */
    flipRate: num,
    /** Items where a flip was measured (scored items with a boolean `flip`). */
    nFlipMeasured: z.number().int().nonnegative(),
    /** Scored items per human label and per judge label. */
    humanLabels: distribution,
    judgeLabels: distribution,
    /** Human (rows) × judge (columns) counts in A, B, tie order. */
    confusion: z.array(z.array(z.number().int().nonnegative()).length(3)).length(3),
  })
  .strict();
/** See {@link PairwiseReportSchema}. */
export type PairwiseReport = z.infer<typeof PairwiseReportSchema>;

const correlations = <T extends z.ZodType>(estimate: T) =>
  z.object({ pearson: estimate, spearman: estimate, kendall: estimate }).strict();

/** The papers' figure for a dataset: which correlation, defined in words, and its values. */
export const HeadlineSchema = z
  .object({
    /** Short name, e.g. `dialogue level (ChatEval Table 2)`. */
    label: z.string(),
    /** How it is computed, in words. */
    definition: z.string(),
    pearson: num,
    spearman: num,
    kendall: num,
  })
  .strict();
/** See {@link HeadlineSchema}. */
export type Headline = z.infer<typeof HeadlineSchema>;

/** The fields of a pointwise report: the correlations of one score (the overall, or one aspect's) with the humans'. */
const pointwiseShape = {
  ...counts,
  /** Distinct groups among scored items. */
  nGroups: z.number().int().nonnegative(),
  /** Item-level (turn-level) correlations over all scored items. */
  item: correlations(EstimateSchema),
  /** Group-level correlations: per group, constant groups skipped, mean over groups. */
  group: correlations(GroupEstimateSchema),
};

/** Agreement of a multi-aspect judge with the human scores of one aspect (items labelled for it). */
export const AspectAgreementSchema = z
  .object({
    /** The aspect's name, as the rubric and the items' `humanAspects` name it. */
    aspect: z.string(),
    ...pointwiseShape,
  })
  .strict();
/** See {@link AspectAgreementSchema}. */
export type AspectAgreement = z.infer<typeof AspectAgreementSchema>;

/** Agreement of a pointwise judge with human scores. */
export const PointwiseReportSchema = z
  .object({
    kind: z.literal('pointwise'),
    ...pointwiseShape,
    /** The figure the papers quote for this dataset (the group-level values), named and defined; when asked for. */
    headline: HeadlineSchema.optional(),
    /**
     * On a two-point (pass/fail, e.g. 0-1) scale only: the share of scored items whose judge score, read as the
     * nearer point (the midpoint as the upper one), equals the human's, with its CI (src/metrics/pass-fail.ts).
     */
    accuracy: EstimateSchema.optional(),
    /**
     * Per aspect, when items carry human scores per aspect (`humanAspects`): the same correlations of the
     * judge's score for that aspect; the fields above are the overall's. In first-labelled order.
     */
    aspects: z.array(AspectAgreementSchema).optional(),
  })
  .strict();
/** See {@link PointwiseReportSchema}. */
export type PointwiseReport = z.infer<typeof PointwiseReportSchema>;

/** Any agreement report; `kind` discriminates. */
export const AgreementReportSchema = z.discriminatedUnion('kind', [PairwiseReportSchema, PointwiseReportSchema]);
/** See {@link AgreementReportSchema}. */
export type AgreementReport = z.infer<typeof AgreementReportSchema>;

/** Report settings. */
export interface ReportOptions {
  /** Bootstrap settings for CIs (defaults {@link DEFAULT_BOOTSTRAP}); `false` skips CIs (faster). */
  bootstrap?: BootstrapOptions | false;
  /** Pointwise: name and define the group-level correlations as the dataset's headline figure. */
  headline?: { label: string; definition: string };
  /** Pairwise: also report `accuracyTieAsB`. */
  tieAsB?: boolean;
  /** Pointwise: a report per aspect over these observations (an aspect's human and judge scores). */
  aspects?: readonly { name: string; items: readonly PointwiseObservation[] }[];
}

/** One pairwise item: human label, judge label (absent when unparsed), and whether swapping flipped it. */
export interface PairwiseObservation {
  human: PairLabel;
  judge?: PairLabel | null;
  flip?: boolean | null;
}

/** One pointwise item: its group (article, dialogue), the human score and the judge score (absent when unparsed). */
export interface PointwiseObservation {
  group: string;
  human: number;
  judge?: number | null;
}

/**
 * Pairwise agreement report: accuracy and κ (3-class A/B/tie, with item-bootstrap CIs), accuracy on decided
 * items, tie rate, flip rate, label distributions and the confusion matrix. Items without a judge label are
 * counted in `nMissing` and excluded from every metric.
 */
export function pairwiseReport(items: readonly PairwiseObservation[], options: ReportOptions = {}): PairwiseReport {
  const scored = items.filter((it): it is PairwiseObservation & { judge: PairLabel } => it.judge != null);
  const human = scored.map((it) => it.human);
  const judge = scored.map((it) => it.judge);
  const boot = bootstrapSettings(options);
  const estimate = (stat: (h: PairLabel[], j: PairLabel[]) => number): Estimate => ({
    value: finite(stat(human, judge)),
    ci: boot && bootstrapInterval(scored.length, (idx) => stat(pick(human, idx), pick(judge, idx)), boot),
  });
  const decided = scored.filter((it) => it.judge !== 'tie');
  const flips = flipRate(scored.map((it) => it.flip));
  return {
    kind: 'pairwise',
    n: items.length,
    nScored: scored.length,
    nMissing: items.length - scored.length,
    bootstrap: boot,
    accuracy: estimate(accuracy),
    kappa: estimate((h, j) => cohenKappa(h, j, PAIR_LABELS)),
    accuracyDecided: finite(
      accuracy(
        decided.map((it) => it.human),
        decided.map((it) => it.judge),
      ),
    ),
    ...(options.tieAsB
      ? {
          accuracyTieAsB: finite(
            accuracy(
              human,
              judge.map((j) => (j === 'tie' ? 'B' : j)),
            ),
          ),
        }
      : {}),
    tieRate: finite(tieRate(judge)),
    flipRate: finite(flips.rate),
    nFlipMeasured: flips.measured,
    humanLabels: labelCounts(human),
    judgeLabels: labelCounts(judge),
    confusion: confusionMatrix(human, judge, PAIR_LABELS).counts,
  };
}

/**
 * Pointwise agreement report: Pearson, Spearman and Kendall τ-b at item level (CIs resample items) and at
 * group level (constant groups skipped, mean over groups; CIs resample the usable groups). Items without a
 * judge score are counted in `nMissing` and excluded from every metric.
 */
export function pointwiseReport(items: readonly PointwiseObservation[], options: ReportOptions = {}): PointwiseReport {
  const scored = items.filter(
    (it): it is PointwiseObservation & { judge: number } => typeof it.judge === 'number' && Number.isFinite(it.judge),
  );
  const groups = scored.map((it) => it.group);
  const human = scored.map((it) => it.human);
  const judge = scored.map((it) => it.judge);
  const boot = bootstrapSettings(options);
  const itemLevel = (correlation: Correlation): Estimate => ({
    value: finite(correlation(judge, human)),
    ci: boot && bootstrapInterval(scored.length, (idx) => correlation(pick(judge, idx), pick(human, idx)), boot),
  });
  const groupLevel = (correlation: Correlation): GroupEstimate => {
    const result = groupCorrelation(groups, judge, human, correlation);
    // Groups are the resampling unit; a group's own correlation does not change when it is drawn again.
    const ci = boot && bootstrapInterval(result.perGroup.length, (idx) => mean(pick(result.perGroup, idx)), boot);
    return { value: finite(result.value), ci, groupsUsed: result.groupsUsed, groupsSkipped: result.groupsSkipped };
  };
  const group = { pearson: groupLevel(pearson), spearman: groupLevel(spearman), kendall: groupLevel(kendallTauB) };
  const aspects = options.aspects?.map((a): AspectAgreement => ({
    aspect: a.name,
    ...withoutKind(pointwiseReport(a.items, { ...options, aspects: [], headline: undefined })),
  }));
  return {
    kind: 'pointwise',
    n: items.length,
    nScored: scored.length,
    nMissing: items.length - scored.length,
    bootstrap: boot,
    nGroups: new Set(groups).size,
    item: { pearson: itemLevel(pearson), spearman: itemLevel(spearman), kendall: itemLevel(kendallTauB) },
    group,
    ...(options.headline
      ? {
          headline: {
            ...options.headline,
            pearson: group.pearson.value,
            spearman: group.spearman.value,
            kendall: group.kendall.value,
          },
        }
      : {}),
    ...(aspects && aspects.length > 0 ? { aspects } : {}),
  };
}

/** A pointwise report's correlation fields alone (an aspect's entry). */
function withoutKind(r: PointwiseReport): Omit<AspectAgreement, 'aspect'> {
  const { kind: _kind, headline: _headline, aspects: _aspects, ...rest } = r;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function labelCounts(labels: readonly PairLabel[]): Record<PairLabel, number> {
  const out: Record<PairLabel, number> = { A: 0, B: 0, tie: 0 };
  for (const l of labels) out[l]++;
  return out;
}

function bootstrapSettings(options: ReportOptions): Required<BootstrapOptions> | null {
  if (options.bootstrap === false) return null;
  const settings = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  if (!Number.isInteger(settings.resamples) || settings.resamples < 1)
    throw new Error('bootstrap.resamples must be a positive integer');
  if (!(settings.level > 0 && settings.level < 1)) throw new Error('bootstrap.level must be in (0, 1)');
  return settings;
}

/** One judged item as both meta-evaluation paths see it (the API's stored rows, the CLI's results). */
export interface JudgedItem {
  itemId: string;
  /** Evaluation status; only `succeeded` items carry a judgement. */
  status: string;
  human: 'A' | 'B' | 'tie' | number;
  /** Group for group-level correlation; without one an item is its own group. */
  group?: string | null;
  winner?: 'A' | 'B' | 'tie' | null;
  score?: number | null;
  positionFlip?: boolean | null;
  /** False when no vote of the verdict parsed. */
  decided: boolean;
  /** Pointwise: human scores per aspect, when labelled per aspect. */
  humanAspects?: Readonly<Record<string, number>> | null;
  /** Pointwise: the judge's score per aspect (a multi-aspect verdict's `aspects`). */
  aspectScores?: Readonly<Record<string, number | null>> | null;
}

/**
 * The agreement report of judged items: pairwise compares the verdict's winner with the human label;
 * pointwise correlates scores with human scores by group. Failed or cancelled items, and verdicts none
 * of whose votes parsed (a rule's default such as ChatEval's tie, not a judgement), count as missing.
 */
export function reportOfJudged(items: readonly JudgedItem[], options: ReportOptions = {}): AgreementReport {
  const judged = (it: JudgedItem) => it.status === 'succeeded' && it.decided;
  if (items.every((it) => typeof it.human === 'string')) {
    return pairwiseReport(
      items.map((it) => ({
        human: it.human as 'A' | 'B' | 'tie',
        judge: judged(it) ? (it.winner ?? null) : null,
        flip: it.positionFlip ?? null,
      })),
      options,
    );
  }
  const groupOf = (it: JudgedItem) => it.group ?? `item:${it.itemId}`;
  // Each aspect some item is labelled for: over the items labelled for it, the judge's score for that aspect.
  const names = [...new Set(items.flatMap((it) => Object.keys(it.humanAspects ?? {})))];
  const aspects = names.map((name) => ({
    name,
    items: items.flatMap((it) => {
      const human = it.humanAspects?.[name];
      if (human === undefined) return [];
      return [{ group: groupOf(it), human, judge: judged(it) ? (it.aspectScores?.[name] ?? null) : null }];
    }),
  }));
  return pointwiseReport(
    items.map((it) => ({
      group: groupOf(it),
      human: Number(it.human),
      judge: judged(it) ? (it.score ?? null) : null,
    })),
    { ...options, ...(aspects.length > 0 ? { aspects } : {}) },
  );
}
