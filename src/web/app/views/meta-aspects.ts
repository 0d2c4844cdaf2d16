/**
 * @module
 * Every aspect of a multi-aspect pointwise meta-evaluation: the agreement per aspect (the report's
 * `aspects`, each correlation with its bootstrap interval drawn as the `.ci-table` strips are) and, in the
 * items table, each item's per-aspect human and judge scores on one compact line.
 */
import { strip } from '../charts.js';
import { card } from '../components.js';
import { h } from '../dom.js';
import { formatInt, formatScore, formatStat } from '../format.js';
import type { AgreementReport, MetaEvaluation } from '../types.js';

/** The correlations of the table, in its column order, with their headings. */
const CORRELATIONS = [
  ['pearson', 'Pearson', 'r'],
  ['spearman', 'Spearman', 'ρ'],
  ['kendall', 'Kendall', 'τ-b'],
] as const;

/** Correlations run from −1 to 1: every strip shares this axis. */
const DOMAIN = [-1, 1] as const;

/**
 * The per-aspect agreement card: one row per aspect (as the report lists them, first-labelled order) with
 * the items scored for it and each item-level correlation: its value, interval and strip; null unless the
 * report is pointwise with aspects.
 */
export function aspectAgreementCard(r: AgreementReport): HTMLElement | null {
  if (r.kind !== 'pointwise' || !r.aspects || r.aspects.length === 0) return null;
  const level = r.bootstrap?.level ?? null;
  return card(
    'Agreement per aspect',
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table ci-table aspect-agreement' },
        h(
          'caption',
          null,
          `Item-level correlation of the judge's aspect score with the human one, over the items labelled for it${level !== null ? `; ${Math.round(level * 100)}% bootstrap intervals` : ''}`,
        ),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Aspect'),
            h('th', { scope: 'col', class: 'num' }, 'n'),
            // A phone shows the symbols alone (the names stay for screen readers), so the table fits 375 px.
            CORRELATIONS.map(([, name, symbol]) =>
              h('th', { scope: 'col', class: 'aspect-corr' }, h('span', { class: 'corr-name' }, `${name} `), symbol),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          r.aspects.map((a) =>
            h(
              'tr',
              { 'data-aspect': a.aspect },
              h('th', { scope: 'row' }, a.aspect),
              h(
                'td',
                { class: 'num' },
                formatInt(a.nScored),
                a.nMissing > 0 ? h('span', { class: 'muted small block' }, `${formatInt(a.nMissing)} missing`) : null,
              ),
              CORRELATIONS.map(([k]) => {
                const e = a.item[k];
                return h(
                  'td',
                  { class: 'aspect-corr', 'data-measure': k },
                  h('span', { class: 'aspect-value' }, formatStat(e.value)),
                  h(
                    'span',
                    { class: 'muted small block aspect-ci' },
                    // A narrow column breaks the interval before its dash only, never inside a bound.
                    e.ci
                      ? [`${formatStat(e.ci.lo)} `, h('span', { class: 'nowrap' }, `– ${formatStat(e.ci.hi)}`)]
                      : 'no interval',
                  ),
                  strip({ label: k, value: e.value, ci: e.ci }, DOMAIN),
                );
              }),
            ),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted small' },
      'Each strip runs from −1 to 1 (dashed line at 0): the dot is the correlation, the bar its interval. The overall score’s figures are above.',
    ),
  );
}

/** The aspects an item table shows, in the report's order, then any only items name. */
function aspectNames(m: MetaEvaluation): string[] {
  const names: string[] = [];
  const add = (n: string): void => {
    if (!names.includes(n)) names.push(n);
  };
  if (m.report?.kind === 'pointwise') for (const a of m.report.aspects ?? []) add(a.aspect);
  for (const i of m.items) for (const n of Object.keys({ ...i.humanAspects, ...i.aspects })) add(n);
  return names;
}

/**
 * Per-aspect scores as one wrapping line (`coherence 4 · fluency 3`, a dash for none), in `names`' order;
 * null without aspects.
 */
function scoresLine(
  names: readonly string[],
  scores: Readonly<Record<string, number | null>> | null,
): HTMLElement | null {
  if (!scores || names.length === 0) return null;
  return h(
    'span',
    { class: 'block small muted aspect-scores' },
    names
      .map((n) => {
        const s = scores[n];
        return `${n} ${s === undefined || s === null ? '—' : formatScore(s)}`;
      })
      .join(' · '),
  );
}

/**
 * An item's per-aspect scores for the items table: the human ones (`humanAspects`) and the judge's
 * (`aspects`), each a line under the overall score; nulls for an item or run without them.
 */
export function itemAspectLines(
  m: MetaEvaluation,
): (item: MetaEvaluation['items'][number]) => { human: HTMLElement | null; judge: HTMLElement | null } {
  const names = aspectNames(m);
  return (i) => ({ human: scoresLine(names, i.humanAspects), judge: scoresLine(names, i.aspects) });
}
