/**
 * @module
 * Trust or Escalate with a guarantee (Jung, Brahman & Choi 2024, "Trust or Escalate: LLM Judges with
 * Provable Guarantees for Human Agreement", arXiv 2407.18370): every stage of a cascade gets a confidence
 * threshold; an item's verdict is trusted at the first stage whose confidence reaches its threshold, and an
 * item below every threshold is abstained on, never decided by a coin flip.
 *
 * **Calibration** (the paper's §2 and §4; the authors' `CascadedClassifier.calibrate`): from a labelled run
 * where every stage judged every item (`runAllStages`), stage by stage, on the items no earlier stage
 * trusts, fixed-sequence testing from the strictest threshold down. At a threshold λ the stage trusts the
 * n(λ) items with confidence ≥ λ, e(λ) of which disagree with the human label; λ passes when
 * P(Binomial(n(λ), α) ≤ e(λ)) ≤ δ (the exact binomial test of "disagreement ≥ α", equivalently the
 * Clopper–Pearson upper bound on the disagreement is below α), and the sequence stops at the first λ that
 * fails. The stage's threshold is the last λ that passed; a stage none passes trusts nothing. Thresholds
 * are the distinct confidences seen, testing only those trusting at least `minTrusted` items (30, as the
 * authors' code): below that the binomial test cannot pass (0 errors of n needs (1 − α)ⁿ ≤ δ, n ≥ 11 at α =
 * 0.2, δ = 0.1), and one stubborn top item would end the sequence before it starts.
 *
 * **Guarantee**, for future items exchangeable with the calibration items: with probability ≥ 1 − δ over
 * the calibration draw, the verdicts a stage trusts agree with humans at least 1 − α of the time. The
 * cascade's trusted verdicts are the disjoint union of the stages', so their agreement is a weighted mean
 * of the stages' and is ≥ 1 − α whenever every stage's guarantee holds. The paper spends δ at every stage
 * (`deltaSplit: 'per-stage'`, the default, as the authors' code); all k stages then hold at once with
 * probability ≥ 1 − kδ by the union bound. `deltaSplit: 'bonferroni'` tests each stage at δ/k so that the
 * cascade's guarantee holds with probability ≥ 1 − δ outright, at some cost in coverage.
 *
 * Differences from the authors' code, each on the side of the guarantee: their `lambda_hat` returns the
 * strictest candidate when even it fails the test (trusting items with no guarantee), where here the
 * stage trusts nothing; their stage with no candidate threshold reuses the previous stage's, here it
 * trusts nothing; thresholds are the observed confidences, not a 5,000-point grid (the same sets of
 * trusted items, so the same tests).
 *
 * Runtime-neutral: only `zod` and the engine's verdict schema.
 */
import { z } from 'zod';
import { WinnerSchema } from '../engine/verdict.js';
import type { CascadeItem } from './cascade-thresholds.js';
import { binomialCdf } from './cascade-thresholds.js';

/** A stage's verdict on an item: its winner and its confidence (0-1, the verdict's `confidence`). */
export const StageVerdictSchema = z.object({ winner: WinnerSchema, confidence: z.number().min(0).max(1) }).strict();
/** See {@link StageVerdictSchema}. */
export type StageVerdict = z.infer<typeof StageVerdictSchema>;

/** A labelled calibration item: the human label and each stage's verdict (null: not recorded, no verdict). */
export const EscalateItemSchema = z
  .object({ human: WinnerSchema, stages: z.array(StageVerdictSchema.nullable()).min(1) })
  .strict();
/** See {@link EscalateItemSchema}. */
export type EscalateItem = z.infer<typeof EscalateItemSchema>;

/** Calibration settings. */
export const CascadeCalibrationOptionsSchema = z
  .object({
    /** Tolerated disagreement with humans: the target agreement is 1 − alpha. In (0, 1); default 0.2. */
    alpha: z.number().gt(0).lt(1).default(0.2),
    /** Risk that the guarantee fails (over the calibration draw). In (0, 1); default 0.1. */
    delta: z.number().gt(0).lt(1).default(0.1),
    /** Fewest trusted items a tested threshold must have; default 30. */
    minTrusted: z.number().int().positive().default(30),
    /** `per-stage` (δ at every stage, the paper's; default) or `bonferroni` (δ/k each: 1 − δ for the whole cascade). */
    deltaSplit: z.enum(['per-stage', 'bonferroni']).default('per-stage'),
  })
  .strict();
/** Settings as given (defaults optional). */
export type CascadeCalibrationOptions = z.input<typeof CascadeCalibrationOptionsSchema>;

const nullableShare = z.number().min(0).max(1).nullable();

/** One stage's calibration. */
export const StageCalibrationSchema = z
  .object({
    stage: z.number().int().nonnegative(),
    /** Trust this stage's verdict when its confidence is ≥ threshold; null: the stage trusts nothing. */
    threshold: z.number().min(0).max(1).nullable(),
    /** The δ this stage was tested at. */
    delta: z.number(),
    /** Calibration items that reached the stage (no earlier stage trusted them) with its verdict recorded. */
    reached: z.number().int().nonnegative(),
    /** Items that reached it without a recorded verdict: left out of this stage and the ones after. */
    unrecorded: z.number().int().nonnegative(),
    /** Thresholds tested (those that passed, plus the one that failed, if any). */
    tested: z.number().int().nonnegative(),
    /** Items the stage trusts at its threshold, and their agreement with the human labels. */
    trusted: z.number().int().nonnegative(),
    agreement: nullableShare,
    /** Upper confidence bound (level 1 − delta) on the trusted items' disagreement; below alpha by construction. */
    disagreementBound: nullableShare,
  })
  .strict();
/** See {@link StageCalibrationSchema}. */
export type StageCalibration = z.infer<typeof StageCalibrationSchema>;

/** A cascade calibrated for human agreement. */
export const CascadeCalibrationSchema = z
  .object({
    alpha: z.number(),
    delta: z.number(),
    minTrusted: z.number().int(),
    deltaSplit: z.enum(['per-stage', 'bonferroni']),
    /** Per stage, in order: see {@link StageCalibrationSchema}. */
    thresholds: z.array(z.number().nullable()),
    stages: z.array(StageCalibrationSchema),
    /** Calibration items, those a stage trusts (covered), and those abstained on (below every threshold). */
    n: z.number().int().nonnegative(),
    covered: z.number().int().nonnegative(),
    abstained: z.number().int().nonnegative(),
    /** covered / n, and the agreement with humans over the covered items (calibration data). */
    coverage: nullableShare,
    agreement: nullableShare,
    /** The guarantee in words. */
    guarantee: z.string(),
  })
  .strict();
/** See {@link CascadeCalibrationSchema}. */
export type CascadeCalibration = z.infer<typeof CascadeCalibrationSchema>;

/**
 * The Clopper–Pearson upper bound on a disagreement rate at level 1 − delta: the largest r with
 * P(Binomial(n, r) ≤ errors) ≥ delta (bisection to 1e-12). 1 when errors = n; null when n = 0.
 */
export function disagreementUpperBound(errors: number, n: number, delta: number): number | null {
  if (n === 0) return null;
  if (errors >= n) return 1;
  let lo = errors / n;
  let hi = 1;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(errors, n, mid) >= delta) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Fixed-sequence testing on one stage's items (its confidences and whether each agrees with the label). */
function calibrateStage(
  verdicts: readonly { confidence: number; agrees: boolean }[],
  alpha: number,
  delta: number,
  minTrusted: number,
): { threshold: number | null; tested: number; trusted: number; errors: number } {
  const sorted = [...verdicts].sort((x, y) => y.confidence - x.confidence);
  let best: { threshold: number; trusted: number; errors: number } | null = null;
  let tested = 0;
  let errors = 0;
  for (let n = 0; n < sorted.length;) {
    // Take every item at this confidence: a threshold trusts all of them or none.
    const level = (sorted[n] as { confidence: number }).confidence;
    while (n < sorted.length && (sorted[n] as { confidence: number }).confidence === level) {
      if (!(sorted[n] as { agrees: boolean }).agrees) errors++;
      n++;
    }
    if (n < minTrusted) continue;
    tested++;
    if (binomialCdf(errors, n, alpha) > delta) break;
    best = { threshold: level, trusted: n, errors };
  }
  return best ? { ...best, tested } : { threshold: null, tested, trusted: 0, errors: 0 };
}

/**
 * Calibrates every stage's threshold (see the module note) on labelled items.
 * @throws ZodError on malformed items or options; Error when items disagree on the number of stages.
 */
export function calibrateCascade(
  itemsInput: readonly EscalateItem[],
  optionsInput: CascadeCalibrationOptions = {},
): CascadeCalibration {
  const options = CascadeCalibrationOptionsSchema.parse(optionsInput);
  const items = itemsInput.map((it) => EscalateItemSchema.parse(it));
  const k = items[0]?.stages.length ?? 0;
  if (items.some((it) => it.stages.length !== k)) throw new Error('every item must list the same number of stages');
  const { alpha, delta, minTrusted, deltaSplit } = options;
  const stageDelta = deltaSplit === 'bonferroni' && k > 0 ? delta / k : delta;

  let pool = items.map((_, i) => i);
  const stages: StageCalibration[] = [];
  let covered = 0;
  let agreeing = 0;
  for (let s = 0; s < k; s++) {
    const recorded = pool.filter((i) => items[i]?.stages[s] != null);
    const verdicts = recorded.map((i) => {
      const it = items[i] as EscalateItem;
      const v = it.stages[s] as StageVerdict;
      return { confidence: v.confidence, agrees: v.winner === it.human };
    });
    const r = calibrateStage(verdicts, alpha, stageDelta, minTrusted);
    const trustedHere =
      r.threshold === null ? [] : recorded.filter((_, x) => (verdicts[x]?.confidence ?? -1) >= (r.threshold as number));
    covered += r.trusted;
    agreeing += r.trusted - r.errors;
    stages.push({
      stage: s,
      threshold: r.threshold,
      delta: stageDelta,
      reached: recorded.length,
      unrecorded: pool.length - recorded.length,
      tested: r.tested,
      trusted: r.trusted,
      agreement: r.trusted === 0 ? null : (r.trusted - r.errors) / r.trusted,
      disagreementBound: r.trusted === 0 ? null : disagreementUpperBound(r.errors, r.trusted, stageDelta),
    });
    const taken = new Set(trustedHere);
    pool = recorded.filter((i) => !taken.has(i));
  }
  const n = items.length;
  const result = {
    alpha,
    delta,
    minTrusted,
    deltaSplit,
    thresholds: stages.map((s) => s.threshold),
    stages,
    n,
    covered,
    abstained: n - covered,
    coverage: n === 0 ? null : covered / n,
    agreement: covered === 0 ? null : agreeing / covered,
  };
  return { ...result, guarantee: guaranteeText(result) };
}

const pct = (x: number) => `${+(x * 100).toFixed(1)}%`;

function guaranteeText(c: Omit<CascadeCalibration, 'guarantee'>): string {
  const k = c.stages.length;
  const base =
    `For new items drawn like the ${c.n} calibration items, with probability at least ${pct(1 - (c.stages[0]?.delta ?? c.delta))} ` +
    `the verdicts each stage trusts agree with the human label at least ${pct(1 - c.alpha)} of the time`;
  const together =
    k === 1
      ? ''
      : c.deltaSplit === 'bonferroni'
        ? `; all stages at once, and so every verdict the cascade trusts, with probability at least ${pct(1 - c.delta)}`
        : `; all ${k} stages at once, and so every verdict the cascade trusts, with probability at least ${pct(Math.max(0, 1 - k * c.delta))} (union bound; δ was spent at each stage, as in the paper)`;
  const observed =
    c.covered === 0
      ? ' No threshold passed: the cascade abstains on every item.'
      : ` On the calibration items it trusts ${pct(c.coverage ?? 0)} of them, at ${pct(c.agreement ?? 0)} agreement, and abstains on the rest.`;
  return `${base}${together}.${observed}`;
}

// ---------------------------------------------------------------------------------------------
// Deciding one item

/** What to do with a stage's verdict: trust it, ask the next stage, or (at the last stage) abstain. */
export type StageAction = 'trust' | 'escalate' | 'abstain';

/**
 * The action for stage `stage`'s verdict with `confidence` (null: the stage gave no verdict): trust when a
 * threshold is set and confidence ≥ it; otherwise escalate, or abstain at the last stage.
 */
export function stageAction(
  stage: number,
  confidence: number | null,
  thresholds: readonly (number | null)[],
): StageAction {
  const t = thresholds[stage];
  if (t === undefined) throw new RangeError(`stage ${stage} is not in a ${thresholds.length}-stage cascade`);
  if (t !== null && confidence !== null && confidence >= t) return 'trust';
  return stage === thresholds.length - 1 ? 'abstain' : 'escalate';
}

/** The decision on one item. */
export const EscalationDecisionSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('trust'),
      /** The stage whose verdict is trusted. */
      stage: z.number().int().nonnegative(),
      winner: WinnerSchema,
      confidence: z.number(),
      threshold: z.number(),
    })
    .strict(),
  /** The next stage has to run before anything can be decided. */
  z.object({ action: z.literal('run'), stage: z.number().int().nonnegative() }).strict(),
  z
    .object({
      action: z.literal('abstain'),
      /** The last stage, which abstained. */
      stage: z.number().int().nonnegative(),
      /** Why, stage by stage, e.g. `stage 0: confidence 0.55 < 0.8; stage 1: no verdict`. */
      reason: z.string(),
    })
    .strict(),
]);
/** See {@link EscalationDecisionSchema}. */
export type EscalationDecision = z.infer<typeof EscalationDecisionSchema>;

/**
 * Trust, escalate or abstain for one item from its stages' verdicts so far: `undefined` for a stage that has
 * not run (the answer is then `run` it, unless an earlier stage is trusted), `null` for one that ran without
 * a verdict. Stages are consulted in order; the first whose confidence reaches its threshold is trusted.
 */
export function trustOrEscalate(
  verdicts: readonly (StageVerdict | null | undefined)[],
  thresholds: readonly (number | null)[],
): EscalationDecision {
  const reasons: string[] = [];
  for (const [stage, t] of thresholds.entries()) {
    const v = verdicts[stage];
    if (v === undefined) return { action: 'run', stage };
    if (stageAction(stage, v?.confidence ?? null, thresholds) === 'trust' && v !== null && t !== null) {
      return { action: 'trust', stage, winner: v.winner, confidence: v.confidence, threshold: t };
    }
    reasons.push(
      `stage ${stage}: ${v === null ? 'no verdict' : t === null ? 'trusts no verdict (no threshold passed calibration)' : `confidence ${v.confidence} < ${t}`}`,
    );
  }
  return { action: 'abstain', stage: Math.max(0, thresholds.length - 1), reason: reasons.join('; ') };
}

/** What thresholds do on labelled items (e.g. a held-out test set). */
export interface ThresholdsOutcome {
  n: number;
  covered: number;
  /** covered / n; null when n = 0. */
  coverage: number | null;
  /** Agreement with humans over covered items; null when none is covered. */
  agreement: number | null;
  /** Per stage: items it decided and their agreement. */
  perStage: { stage: number; trusted: number; agreement: number | null }[];
}

/** Applies thresholds to labelled items with every stage's verdict: coverage and agreement. */
export function evaluateThresholds(
  items: readonly EscalateItem[],
  thresholds: readonly (number | null)[],
): ThresholdsOutcome {
  const perStage = thresholds.map((_, stage) => ({ stage, trusted: 0, agreeing: 0 }));
  for (const it of items) {
    const d = trustOrEscalate(it.stages, thresholds);
    if (d.action !== 'trust') continue;
    const row = perStage[d.stage];
    if (!row) continue;
    row.trusted++;
    if (d.winner === it.human) row.agreeing++;
  }
  const covered = perStage.reduce((s, r) => s + r.trusted, 0);
  const agreeing = perStage.reduce((s, r) => s + r.agreeing, 0);
  return {
    n: items.length,
    covered,
    coverage: items.length === 0 ? null : covered / items.length,
    agreement: covered === 0 ? null : agreeing / covered,
    perStage: perStage.map((r) => ({
      stage: r.stage,
      trusted: r.trusted,
      agreement: r.trusted === 0 ? null : r.agreeing / r.trusted,
    })),
  };
}

/**
 * Calibration items from a cascade run's judged items (`details.cascade`): pairwise items with a human
 * label; a stage's verdict where it ran and gave a winner. Use a calibration run (`runAllStages: true`) so
 * every stage is recorded for every item. Only confidence decides here, as in the paper: a stage's other
 * escalation rules (`orderFlip`, `split`, `tie`, `unparsed`) are not applied. The engine already halves a
 * verdict's confidence when its two orders disagree, so an order flip still weighs.
 */
export function escalateItemsOf(items: readonly CascadeItem[]): EscalateItem[] {
  return items.flatMap((it) => {
    if (typeof it.human !== 'string') return [];
    const stages = it.cascade.stages.map((s): StageVerdict | null =>
      s.ran && s.winner !== undefined ? { winner: s.winner, confidence: s.confidence ?? 0 } : null,
    );
    return [{ human: it.human, stages }];
  });
}

const share = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);

/** Markdown: the calibrated thresholds per stage, coverage, agreement on the covered items, and the guarantee. */
export function calibrationMarkdown(c: CascadeCalibration): string {
  return [
    `### Trust or Escalate: calibrated for agreement ≥ ${share(1 - c.alpha)} (alpha ${c.alpha}, delta ${c.delta}, ${c.deltaSplit})`,
    '',
    '| stage | threshold | reached | trusted | agreement | disagreement bound |',
    '|---|---|---|---|---|---|',
    ...c.stages.map(
      (s) =>
        `| ${s.stage} | ${s.threshold === null ? 'trusts none' : s.threshold.toFixed(3)} | ${s.reached} | ${s.trusted} | ${share(s.agreement)} | ${share(s.disagreementBound)} |`,
    ),
    '',
    `coverage ${share(c.coverage)} (${c.covered} of ${c.n}) · agreement on the covered items ${share(c.agreement)} · abstained ${c.abstained}`,
    '',
    c.guarantee,
  ].join('\n');
}
