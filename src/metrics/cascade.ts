/**
 * @module
 * The meta-evaluation report of a cascade run: per stage and overall, how many items each stage saw and
 * decided, how well it agreed with the human labels, what it cost; what running the last stage on every item
 * would have cost and what escalation saved; and, for every stage that can escalate, a table of thresholds
 * priced from the recorded stage verdicts plus a calibrated threshold (`cascade-thresholds.ts`). No LLM call.
 *
 * Agreement is pairwise accuracy (the judge's label equals the human's, ties included) or, pointwise, the
 * mean absolute error. The last stage's cost on items it never saw is the mean of its measured cost where it
 * ran (`basis: 'extrapolated'`); a calibration run (`runAllStages`) measures it on every item.
 */
import { z } from 'zod';
import type { CascadeDetails } from '../engine/methods/cascade';
import type { CascadeItem, CalibratedThreshold, RuleRow, ThresholdRow } from './cascade-thresholds.js';
import { agrees, calibrateThreshold, ruleTable, thresholdTable } from './cascade-thresholds.js';

/** What the report reads of a verdict's `details.cascade` (checked, since it may come from a JSON file). */
const CascadeDetailsSchema = z.object({
  decidedBy: z.object({ stage: z.number().int(), label: z.string() }),
  runAllStages: z.boolean(),
  stages: z.array(
    z
      .object({
        stage: z.number().int(),
        label: z.string(),
        method: z.string(),
        ran: z.boolean(),
        calls: z.number(),
        plannedCalls: z.number(),
        usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), costUsd: z.number() }).loose(),
      })
      .loose(),
  ),
  savings: z.object({ basis: z.enum(['measured', 'planned']) }).loose(),
});

/** The `details.cascade` of a verdict, or undefined when it is not a cascade's. */
export function cascadeDetailsOf(details: unknown): CascadeDetails | undefined {
  const c = (details as { cascade?: unknown } | null | undefined)?.cascade;
  // The schema checks the fields the report reads; the rest is the engine's own type.
  return CascadeDetailsSchema.safeParse(c).success ? (c as CascadeDetails) : undefined;
}

/** Calls, tokens and cost. */
export interface Spend {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** One stage of the report. */
export interface StageSummary {
  stage: number;
  label: string;
  /** Items the stage ran for, and items it decided. */
  reached: number;
  decided: number;
  /** Agreement on the items it decided, and of its own verdict on every item it ran for. */
  agreementDecided: number | null;
  agreementAll: number | null;
  spend: Spend;
}

/** A cascade run's report. */
export interface CascadeReport {
  metric: 'accuracy' | 'mean absolute error';
  /** Items with a cascade verdict (failed items are left out). */
  n: number;
  calibrationRun: boolean;
  stages: StageSummary[];
  overall: { agreement: number | null; spend: Spend };
  /** What the last stage on every item costs: measured where it ran, its mean per item elsewhere; null when it never ran. */
  lastStageAlone: (Spend & { basis: 'measured' | 'extrapolated'; measuredOn: number }) | null;
  /** `lastStageAlone` minus the cascade's spend (a calibration run: minus what the cascade would spend); null with it. */
  saved: (Spend & { costShare: number | null }) | null;
  /** Per stage that can escalate: agreement and cost per `minConfidence`, the other rules as run. */
  thresholds: { stage: number; label: string; rows: ThresholdRow[] }[];
  /** Per stage that can escalate: agreement and cost with each on/off rule switched. */
  rules: { stage: number; label: string; rows: RuleRow[] }[];
  /** Per stage that can escalate (pairwise): the calibrated `minConfidence`. */
  calibrated: CalibratedThreshold[];
}

const ZERO: Spend = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };
const plus = (a: Spend, b: Spend): Spend => ({
  calls: a.calls + b.calls,
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  costUsd: a.costUsd + b.costUsd,
});
const spendOf = (s: CascadeDetails['stages'][number]): Spend => ({
  calls: s.calls,
  promptTokens: s.usage.promptTokens,
  completionTokens: s.usage.completionTokens,
  costUsd: s.usage.costUsd,
});
const scale = (a: Spend, f: number): Spend => ({
  calls: a.calls * f,
  promptTokens: a.promptTokens * f,
  completionTokens: a.completionTokens * f,
  costUsd: a.costUsd * f,
});

function meanAgreement(items: readonly CascadeItem[], stageOf: (it: CascadeItem) => number): number | null {
  const xs = items.flatMap((it) => {
    const s = it.cascade.stages[stageOf(it)];
    const a = s ? agrees(it.human, s) : null;
    return a === null ? [] : [typeof a === 'boolean' ? (a ? 1 : 0) : a];
  });
  return xs.length === 0 ? null : xs.reduce((t, x) => t + x, 0) / xs.length;
}

/** Options of {@link cascadeReport}. */
export interface CascadeReportOptions {
  /** Target disagreement and error level of the calibrated thresholds. Defaults 0.2 and 0.1. */
  alpha?: number;
  delta?: number;
}

/** The report of a cascade run's items; undefined when no item has a cascade verdict. */
export function cascadeReport(
  items: readonly CascadeItem[],
  options: CascadeReportOptions = {},
): CascadeReport | undefined {
  const first = items[0];
  if (!first) return undefined;
  const nStages = first.cascade.stages.length;
  const last = nStages - 1;
  const calibrationRun = items.every((it) => it.cascade.runAllStages);
  // What the cascade spends (a calibration run: what it would have spent, up to the deciding stage).
  const cascadeSpend = (it: CascadeItem) =>
    it.cascade.stages
      .slice(0, (calibrationRun ? it.cascade.decidedBy.stage : last) + 1)
      .filter((s) => s.ran)
      .map(spendOf)
      .reduce(plus, ZERO);

  const stages: StageSummary[] = first.cascade.stages.map((s, k) => {
    const ran = items.filter((it) => it.cascade.stages[k]?.ran === true);
    const decided = items.filter((it) => it.cascade.decidedBy.stage === k);
    return {
      stage: k,
      label: s.label,
      reached: ran.length,
      decided: decided.length,
      agreementDecided: meanAgreement(decided, () => k),
      agreementAll: meanAgreement(ran, () => k),
      spend: ran
        .map((it) => it.cascade.stages[k])
        .flatMap((x) => (x ? [spendOf(x)] : []))
        .reduce(plus, ZERO),
    };
  });

  const lastRan = items.filter((it) => it.cascade.stages[last]?.ran === true);
  const measured = lastRan
    .map((it) => it.cascade.stages[last])
    .flatMap((x) => (x ? [spendOf(x)] : []))
    .reduce(plus, ZERO);
  const perItem = lastRan.length === 0 ? ZERO : scale(measured, 1 / lastRan.length);
  const lastStageAlone =
    lastRan.length === 0
      ? null
      : {
          ...plus(measured, scale(perItem, items.length - lastRan.length)),
          basis: lastRan.length === items.length ? ('measured' as const) : ('extrapolated' as const),
          measuredOn: lastRan.length,
        };
  const spent = items.map(cascadeSpend).reduce(plus, ZERO);

  const escalating = first.cascade.stages.slice(0, last);
  return {
    metric: typeof first.human === 'number' ? 'mean absolute error' : 'accuracy',
    n: items.length,
    calibrationRun,
    stages,
    overall: {
      agreement: meanAgreement(items, (it) => it.cascade.decidedBy.stage),
      spend: calibrationRun ? spent : stages.map((s) => s.spend).reduce(plus, ZERO),
    },
    lastStageAlone,
    saved: lastStageAlone && {
      ...plus(lastStageAlone, scale(spent, -1)),
      costShare: lastStageAlone.costUsd > 0 ? (lastStageAlone.costUsd - spent.costUsd) / lastStageAlone.costUsd : null,
    },
    thresholds: escalating.map((s, k) => ({ stage: k, label: s.label, rows: thresholdTable(items, k) })),
    rules: escalating.map((s, k) => ({ stage: k, label: s.label, rows: ruleTable(items, k) })),
    calibrated:
      typeof first.human === 'number'
        ? []
        : escalating.map((_, k) => calibrateThreshold(items, k, options.alpha, options.delta)),
  };
}

/** The report of judged items as the meta-evaluation paths hold them; undefined when none is a cascade's. */
export function cascadeReportOfJudged(
  items: readonly { human: CascadeItem['human']; status: string; details?: unknown }[],
  options: CascadeReportOptions = {},
): CascadeReport | undefined {
  const judged = items.flatMap((it) => {
    const cascade = it.status === 'succeeded' ? cascadeDetailsOf(it.details) : undefined;
    return cascade ? [{ human: it.human, cascade }] : [];
  });
  return cascadeReport(judged, options);
}

const f3 = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
const pct = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(0)}%`);
const usd = (v: number | null) => (v === null ? 'n/a' : `$${v.toFixed(4)}`);
const tokens = (s: Spend) => `${Math.round(s.promptTokens)} / ${Math.round(s.completionTokens)}`;

function savingsLine(r: CascadeReport): string {
  const alone = r.lastStageAlone;
  const saved = r.saved;
  if (!alone || !saved)
    return 'Last stage on every item: not measured (it ran for no item; a calibration run, `runAllStages: true`, measures it).';
  return (
    `Last stage on every item (${alone.basis}${alone.basis === 'extrapolated' ? ` from the ${alone.measuredOn} items it ran for` : ''}): ` +
    `${Math.round(alone.calls)} calls, ${tokens(alone)} tokens, ${usd(alone.costUsd)}. ` +
    `Escalation saved ${Math.round(saved.calls)} calls, ${tokens(saved)} tokens, ${usd(saved.costUsd)}${saved.costShare !== null ? ` (${pct(saved.costShare)} of the cost)` : ''}.`
  );
}

/** Markdown: the stage table, the savings line, a threshold table per escalating stage and the calibrated thresholds. */
export function cascadeMarkdown(r: CascadeReport): string {
  const lines = [
    `### Cascade: per stage (${r.metric}; n = ${r.n}${r.calibrationRun ? ', calibration run: every stage ran on every item' : ''})`,
    '',
    `| stage | reached | decided | ${r.metric} (decided here) | ${r.metric} (stage alone, items reached) | calls | tokens in / out | cost |`,
    '|---|---|---|---|---|---|---|---|',
    ...r.stages.map(
      (s) =>
        `| ${s.stage} ${s.label} | ${s.reached} | ${s.decided} (${pct(r.n === 0 ? null : s.decided / r.n)}) | ${f3(s.agreementDecided)} | ${f3(s.agreementAll)} | ${s.spend.calls} | ${tokens(s.spend)} | ${usd(s.spend.costUsd)} |`,
    ),
    `| overall | ${r.n} | ${r.n} | ${f3(r.overall.agreement)} | – | ${r.overall.spend.calls} | ${tokens(r.overall.spend)} | ${usd(r.overall.spend.costUsd)} |`,
    '',
    savingsLine(r),
  ];
  for (const t of r.thresholds) {
    lines.push(
      '',
      `#### Thresholds for stage ${t.stage} (${t.label}): \`minConfidence\`, its other rules as run`,
      '',
      `| minConfidence | decided per stage | ${r.metric} | calls / item | cost / item | items priced | not priced (stage not run) |`,
      '|---|---|---|---|---|---|---|',
      ...t.rows.map(
        (row) =>
          `| ${row.minConfidence.toFixed(3)} | ${row.decidedShare.map(pct).join(' / ')} | ${f3(row.agreement)} | ${row.callsPerItem === null ? 'n/a' : row.callsPerItem.toFixed(2)} | ${usd(row.costPerItem)} | ${row.priced} | ${row.unpriced} |`,
      ),
    );
  }
  for (const t of r.rules) {
    lines.push(
      '',
      `#### Rules of stage ${t.stage} (${t.label}), one switched at a time`,
      '',
      `| rules | decided per stage | ${r.metric} | calls / item | cost / item | items priced | not priced (stage not run) |`,
      '|---|---|---|---|---|---|---|',
      ...t.rows.map(
        (row) =>
          `| ${row.change} | ${row.decidedShare.map(pct).join(' / ')} | ${f3(row.agreement)} | ${row.callsPerItem === null ? 'n/a' : row.callsPerItem.toFixed(2)} | ${usd(row.costPerItem)} | ${row.priced} | ${row.unpriced} |`,
      ),
    );
  }
  for (const c of r.calibrated) {
    lines.push(
      '',
      c.minConfidence === null
        ? `Calibrated (α = ${c.alpha}, δ = ${c.delta}): no threshold of stage ${c.stage} keeps disagreement below ${c.alpha} on its ${c.n} items — escalate them all.`
        : `Calibrated (α = ${c.alpha}, δ = ${c.delta}, fixed-sequence binomial test): stage ${c.stage} \`minConfidence\` ${c.minConfidence.toFixed(3)} trusts ${c.trusted} of ${c.n} items at ${f3(c.agreement)} agreement.`,
    );
  }
  return lines.join('\n') + '\n';
}
