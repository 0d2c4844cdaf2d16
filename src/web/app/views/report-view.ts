/**
 * @module
 * An agreement report (`AgreementReport`, src/metrics/agreement.ts) on the page: the headline figures, the
 * estimates with their bootstrap intervals, and for pairwise judges the confusion matrix and label
 * distributions; for pointwise judges the item- and group-level correlations (and a scatter when the
 * caller has per-item scores).
 */
import { estimateTable } from '../charts.js';
import type { EstimateRow } from '../charts.js';
import { confusionMatrix } from '../charts.js';
import { card, facts } from '../components.js';
import { h } from '../dom.js';
import { formatInt, formatPct, formatStat } from '../format.js';
import type { AgreementReport, PairwiseReport, PointwiseReport } from '../types.js';

const PAIR_LABELS = ['A', 'B', 'tie'] as const;

function counts(r: AgreementReport): HTMLElement {
  return facts(
    [
      ['Items', formatInt(r.n)],
      ['Scored', formatInt(r.nScored)],
      ['Missing', r.nMissing > 0 ? `${formatInt(r.nMissing)} (unparsed or failed, excluded)` : '0'],
      [
        'Intervals',
        r.bootstrap
          ? `${Math.round(r.bootstrap.level * 100)}% bootstrap, ${formatInt(r.bootstrap.resamples)} resamples`
          : 'not computed',
      ],
    ],
    'facts facts-inline',
  );
}

/** Bars of A / B / tie counts with their shares (a label distribution). */
export function labelBars(title: string, d: { A: number; B: number; tie: number }): HTMLElement {
  const total = d.A + d.B + d.tie;
  return h(
    'div',
    { class: 'dist' },
    h('h3', null, title),
    h(
      'ul',
      { class: 'dist-bars' },
      PAIR_LABELS.map((l) => {
        const fill = h('span', { class: `dist-fill dist-${l.toLowerCase()}` });
        fill.style.width = `${total > 0 ? (d[l] / total) * 100 : 0}%`;
        return h(
          'li',
          null,
          h('span', { class: 'dist-label' }, l === 'tie' ? 'Tie' : l),
          h('span', { class: 'dist-track', 'aria-hidden': 'true' }, fill),
          h('span', { class: 'dist-value' }, `${d[l]} (${formatPct(total > 0 ? d[l] / total : null)})`),
        );
      }),
    ),
  );
}

function pairwise(r: PairwiseReport, of: string): (HTMLElement | null)[] {
  const rows: EstimateRow[] = [
    {
      label: `Accuracy${of}`,
      value: r.accuracy.value,
      ci: r.accuracy.ci,
      note: 'judge = human; a judge tie counts as wrong against an A/B label',
    },
    { label: "Cohen's κ", value: r.kappa.value, ci: r.kappa.ci, note: 'agreement beyond chance over A / B / tie' },
  ];
  return [
    h(
      'div',
      { class: 'kpis' },
      kpi(
        `Accuracy${of}`,
        formatPct(r.accuracy.value),
        r.accuracy.ci ? `${formatPct(r.accuracy.ci.lo)} – ${formatPct(r.accuracy.ci.hi)}` : null,
      ),
      kpi(
        "Cohen's κ",
        formatStat(r.kappa.value),
        r.kappa.ci ? `${formatStat(r.kappa.ci.lo)} – ${formatStat(r.kappa.ci.hi)}` : null,
      ),
      kpi(`Accuracy without ties${of}`, formatPct(r.accuracyDecided), 'over the items the judge decided'),
      kpi('Tie rate', formatPct(r.tieRate), null),
      kpi(
        'Position flips',
        formatPct(r.flipRate),
        r.nFlipMeasured > 0 ? `of ${r.nFlipMeasured} calibrated items` : 'not measured',
      ),
      r.accuracyTieAsB !== undefined
        ? kpi(`Accuracy, tie as B${of}`, formatPct(r.accuracyTieAsB), "Bandi et al.'s reading")
        : null,
    ),
    card(
      'Agreement with human labels',
      estimateTable('Agreement estimates with confidence intervals', rows, [-1, 1], r.bootstrap?.level ?? null),
    ),
    h(
      'div',
      { class: 'two-col' },
      card(
        'Confusion matrix',
        confusionMatrix(r.confusion, ['A', 'B', 'Tie']),
        h(
          'p',
          { class: 'muted small' },
          'Rows: human label. Columns: judge verdict. The outlined diagonal is agreement.',
        ),
      ),
      card('Labels', labelBars('Human', r.humanLabels), labelBars('Judge', r.judgeLabels)),
    ),
  ];
}

function pointwise(r: PointwiseReport, of: string): (HTMLElement | null)[] {
  const level = r.bootstrap?.level ?? null;
  const names = [
    ['pearson', 'Pearson r'],
    ['spearman', 'Spearman ρ'],
    ['kendall', 'Kendall τ-b'],
  ] as const;
  const item: EstimateRow[] = names.map(([k, label]) => ({ label, value: r.item[k].value, ci: r.item[k].ci }));
  const group: EstimateRow[] = names.map(([k, label]) => ({
    label,
    value: r.group[k].value,
    ci: r.group[k].ci,
    note: `${r.group[k].groupsUsed} groups${r.group[k].groupsSkipped > 0 ? `, ${r.group[k].groupsSkipped} constant skipped` : ''}`,
  }));
  return [
    h(
      'div',
      { class: 'kpis' },
      r.headline
        ? kpi(
            r.headline.label,
            formatStat(r.headline.spearman),
            `Spearman; Pearson ${formatStat(r.headline.pearson)}, Kendall ${formatStat(r.headline.kendall)}`,
          )
        : null,
      r.accuracy
        ? kpi(
            `Accuracy${of}`,
            formatPct(r.accuracy.value),
            r.accuracy.ci
              ? `${formatPct(r.accuracy.ci.lo)} – ${formatPct(r.accuracy.ci.hi)}; pass/fail: judge = expected`
              : 'pass/fail: judge = expected',
          )
        : null,
      kpi(
        'Item-level Spearman',
        formatStat(r.item.spearman.value),
        r.item.spearman.ci ? `${formatStat(r.item.spearman.ci.lo)} – ${formatStat(r.item.spearman.ci.hi)}` : null,
      ),
      kpi('Groups', formatInt(r.nGroups), null),
    ),
    r.headline ? h('p', { class: 'muted' }, r.headline.definition) : null,
    h(
      'div',
      { class: 'two-col' },
      card('Item level', estimateTable('Correlation with human scores over all items', item, [-1, 1], level)),
      card('Group level', estimateTable('Mean correlation within groups (resampling groups)', group, [-1, 1], level)),
    ),
  ];
}

/** A key figure: its label, its value big, and a line under it. */
export function kpi(label: string, value: string, sub: string | null): HTMLElement {
  return h(
    'div',
    { class: 'kpi' },
    h('span', { class: 'kpi-label' }, label),
    h('span', { class: 'kpi-value' }, value),
    sub ? h('span', { class: 'kpi-sub muted' }, sub) : null,
  );
}

/**
 * The report's sections. `repeats` > 1 (a reliability run): the report reads each item's first repeat, and its
 * accuracies say so, apart from the reliability card's per-repeat and majority ones.
 */
export function reportSections(r: AgreementReport, repeats = 1): HTMLElement[] {
  const of = repeats > 1 ? ` (first of ${repeats} repeats)` : '';
  return [counts(r), ...(r.kind === 'pairwise' ? pairwise(r, of) : pointwise(r, of))].filter((x) => x !== null);
}
