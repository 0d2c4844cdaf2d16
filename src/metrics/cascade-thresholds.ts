/**
 * @module
 * A cascade's thresholds priced from a labelled run, without any LLM call: every item's recorded stage
 * verdicts (`details.cascade.stages`) are run through the escalation rules again with another
 * `minConfidence` for one stage, giving agreement and cost per threshold, and a threshold is chosen the way
 * Jung et al. 2024 ("Trust or Escalate", §3) calibrate one: fixed-sequence testing from the strictest
 * threshold down, keeping each threshold whose trusted items' disagreement is below `alpha` by an exact
 * binomial test at level `delta`, and stopping at the first that fails (a guarantee of human agreement
 * ≥ 1 − alpha with probability ≥ 1 − delta on exchangeable data).
 *
 * A threshold that escalates an item to a stage the run never ran for it cannot be priced for that item:
 * such items are counted (`unpriced`), never guessed. A calibration run (`runAllStages: true`) records every
 * stage on every item and prices every threshold.
 */
import type { CascadeDetails, Escalate, StageReport } from '../engine/methods/cascade';
import { escalationReasons } from '../engine/methods/cascade';

/** One judged item of a cascade run: the human label and the verdict's `details.cascade`. */
export interface CascadeItem {
  human: 'A' | 'B' | 'tie' | number;
  cascade: CascadeDetails;
}

/** Agreement of a label or score with the human one: pairwise equality; pointwise the absolute error. */
export function agrees(
  human: CascadeItem['human'],
  stage: Pick<StageReport, 'winner' | 'score'>,
): boolean | number | null {
  if (typeof human === 'number') return stage.score === undefined ? null : Math.abs(stage.score - human);
  return stage.winner === undefined ? null : stage.winner === human;
}

/** Where an item ends under some rules: the deciding stage, or null when a stage it needs did not run. */
export function decideUnder(
  item: CascadeItem,
  rulesFor: (k: number, recorded: Escalate) => Escalate,
): { stage: number; report: StageReport } | null {
  const stages = item.cascade.stages;
  for (const [k, s] of stages.entries()) {
    if (!s.ran) return null;
    const last = k === stages.length - 1;
    if (last || !s.rules) return { stage: k, report: s };
    const signals = {
      ...(s.winner !== undefined ? { winner: s.winner } : {}),
      confidence: s.confidence ?? 0,
      positionFlip: s.positionFlip ?? null,
      split: s.split ?? false,
      unparsed: s.unparsed ?? 0,
    };
    if (escalationReasons(signals, rulesFor(k, s.rules)).length === 0) return { stage: k, report: s };
  }
  return null;
}

/** One row of a threshold table. */
export interface ThresholdRow {
  minConfidence: number;
  /** Items priced at this threshold (every stage they reach was recorded). */
  priced: number;
  /** Items that would reach a stage the run did not record for them. */
  unpriced: number;
  /** Share of priced items decided at each stage. */
  decidedShare: number[];
  /** Pairwise accuracy (pointwise: mean absolute error) over priced items; null without any. */
  agreement: number | null;
  /** Mean calls and cost per priced item (stages up to the deciding one). */
  callsPerItem: number | null;
  costPerItem: number | null;
}

/** The candidate thresholds for a stage: 0, every recorded confidence, 1 (at most 11 values; else tenths). */
export function candidateThresholds(items: readonly CascadeItem[], stage: number): number[] {
  const seen = items.flatMap((it) => {
    const c = it.cascade.stages[stage]?.confidence;
    return c === undefined ? [] : [Math.round(c * 1e6) / 1e6];
  });
  const all = [...new Set([0, ...seen, 1])].sort((a, b) => a - b);
  return all.length <= 11 ? all : Array.from({ length: 11 }, (_, i) => i / 10);
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Agreement, decided shares and cost over the items priced under the given rules. */
export function priceRules(
  items: readonly CascadeItem[],
  rulesFor: (k: number, recorded: Escalate) => Escalate,
): Omit<ThresholdRow, 'minConfidence'> {
  const nStages = items[0]?.cascade.stages.length ?? 0;
  const decidedAt = new Array<number>(nStages).fill(0);
  const agreement: number[] = [];
  const calls: number[] = [];
  const cost: number[] = [];
  let unpriced = 0;
  for (const it of items) {
    const d = decideUnder(it, rulesFor);
    if (!d) {
      unpriced += 1;
      continue;
    }
    decidedAt[d.stage] = (decidedAt[d.stage] ?? 0) + 1;
    const a = agrees(it.human, d.report);
    if (a !== null) agreement.push(typeof a === 'boolean' ? (a ? 1 : 0) : a);
    const spent = it.cascade.stages.slice(0, d.stage + 1);
    calls.push(spent.reduce((n, s) => n + s.calls, 0));
    cost.push(spent.reduce((n, s) => n + s.usage.costUsd, 0));
  }
  const priced = items.length - unpriced;
  return {
    priced,
    unpriced,
    decidedShare: decidedAt.map((n) => (priced === 0 ? 0 : n / priced)),
    agreement: mean(agreement),
    callsPerItem: mean(calls),
    costPerItem: mean(cost),
  };
}

/** Agreement and cost for each candidate `minConfidence` of `stage`, the other stages' rules as recorded. */
export function thresholdTable(items: readonly CascadeItem[], stage: number): ThresholdRow[] {
  return candidateThresholds(items, stage).map((t) => ({
    minConfidence: t,
    ...priceRules(items, (k, recorded) => (k === stage ? { ...recorded, minConfidence: t } : recorded)),
  }));
}

/** One row of a rule table: a stage's rules with one switch flipped from the run's. */
export interface RuleRow extends Omit<ThresholdRow, 'minConfidence'> {
  /** `as run`, or the switched rule and its new value, e.g. `orderFlip: false`. */
  change: string;
}

const SWITCHES = ['orderFlip', 'split', 'tie', 'unparsed'] as const;

/**
 * Agreement and cost with each on/off rule of `stage` switched in turn (the run's rules first): what a stage
 * whose confidence takes few values (FastChat's both orders: 1 or 0.5) can be tuned by. The switches are read
 * from the first item's recorded rules (one cascade config per run).
 */
export function ruleTable(items: readonly CascadeItem[], stage: number): RuleRow[] {
  const recorded = items[0]?.cascade.stages[stage]?.rules;
  if (!recorded) return [];
  const row = (change: string, patch: Partial<Escalate>): RuleRow => ({
    change,
    ...priceRules(items, (k, rules) => (k === stage ? { ...rules, ...patch } : rules)),
  });
  return [
    row('as run', {}),
    ...SWITCHES.map((key) => row(`${key}: ${String(!recorded[key])}`, { [key]: !recorded[key] })),
  ];
}

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space (exact for the sizes a labelled run has). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  if (k < 0) return 0;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let logC = 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logC + i * Math.log(p) + (n - i) * Math.log1p(-p));
  }
  return Math.min(1, sum);
}

/** A stage's threshold chosen by fixed-sequence testing, with what it covers. */
export interface CalibratedThreshold {
  stage: number;
  alpha: number;
  delta: number;
  /** The lowest threshold that passed (most items trusted); null when even the strictest failed. */
  minConfidence: number | null;
  /** Items the stage ran for (the calibration set). */
  n: number;
  /** Items it trusts at that threshold, and their agreement with the human labels. */
  trusted: number;
  agreement: number | null;
}

/**
 * Calibrates `minConfidence` of a pairwise cascade's `stage` (Trust or Escalate §3.2): over the items the
 * stage ran for, thresholds from the strictest down; at each, the trusted items are those the stage's rules
 * (its other rules as recorded) let it decide; the threshold passes when P(Binomial(trusted, alpha) ≤
 * disagreements) ≤ delta. The sequence stops at the first failure (thresholds trusting no item are skipped).
 */
export function calibrateThreshold(
  items: readonly CascadeItem[],
  stage: number,
  alpha = 0.2,
  delta = 0.1,
): CalibratedThreshold {
  const ran = items.filter((it) => it.cascade.stages[stage]?.ran === true && typeof it.human === 'string');
  const out: CalibratedThreshold = {
    stage,
    alpha,
    delta,
    minConfidence: null,
    n: ran.length,
    trusted: 0,
    agreement: null,
  };
  for (const t of [...candidateThresholds(ran, stage)].reverse()) {
    const trusted = ran.filter((it) => {
      const s = it.cascade.stages[stage];
      if (!s?.rules) return false;
      const signals = {
        ...(s.winner !== undefined ? { winner: s.winner } : {}),
        confidence: s.confidence ?? 0,
        positionFlip: s.positionFlip ?? null,
        split: s.split ?? false,
        unparsed: s.unparsed ?? 0,
      };
      return escalationReasons(signals, { ...s.rules, minConfidence: t }).length === 0;
    });
    if (trusted.length === 0) continue;
    const errors = trusted.filter((it) => it.cascade.stages[stage]?.winner !== it.human).length;
    if (binomialCdf(errors, trusted.length, alpha) > delta) break;
    Object.assign(out, { minConfidence: t, trusted: trusted.length, agreement: 1 - errors / trusted.length });
  }
  return out;
}
