/**
 * @module
 * A golden check's examples one by one: each example's expected answer against the judge's (from the check's
 * meta-evaluation, `GET /v1/meta-evaluations/{id}`), whether they agree (pairwise, or a pass/fail scale where
 * the judge's score reads as the nearer point) or by how much they differ (any other scale), and the debate.
 */
import { badge, card, statusPill, winnerChip } from '../components.js';
import { h } from '../dom.js';
import { formatScore, scoreOf, shortId } from '../format.js';
import type { MetaEvaluation, RubricScale } from '../types.js';

type Item = MetaEvaluation['items'][number];

/** `example-3` → `#4` (the version's examples are numbered from 1 on its page). */
function exampleLabel(itemId: string): string {
  const n = /^example-(\d+)$/.exec(itemId)?.[1];
  return n === undefined ? itemId : `#${Number(n) + 1}`;
}

/** The judge's answer, as the expected one is written. */
function judged(i: Item, scale: RubricScale | undefined): Node {
  if (i.winner !== null) return winnerChip(i.winner);
  if (i.score !== null) return h('strong', null, scoreOf(i.score, scale));
  return h('span', { class: 'muted' }, i.status === 'succeeded' ? 'unparsed' : i.status);
}

/** Agreement of one example: yes / no, or the signed difference on a scale of more than two points. */
function agreement(i: Item, scale: RubricScale | undefined): Node {
  if (typeof i.human === 'string')
    return i.winner === null ? h('span', { class: 'muted' }, '—') : agreeBadge(i.winner === i.human);
  if (i.score === null) return h('span', { class: 'muted' }, '—');
  // The reading of src/metrics/pass-fail.ts (the viewer imports no Worker code), so a row agrees exactly when
  // the check's accuracy counts it: the nearer point, the midpoint as the upper one.
  if (scale && scale.max - scale.min === 1) {
    const point = i.score >= (scale.min + scale.max) / 2 ? scale.max : scale.min;
    return agreeBadge(point === i.human);
  }
  const d = i.score - i.human;
  return d === 0 ? agreeBadge(true) : h('span', null, `${d > 0 ? '+' : '\u2212'}${formatScore(Math.abs(d))}`);
}

function agreeBadge(yes: boolean): HTMLElement {
  return yes ? badge('agrees', 'info') : badge('differs', 'warn');
}

/** The card: one row per example, in example order. */
export function checkExamplesCard(m: MetaEvaluation, scale: RubricScale | undefined): HTMLElement {
  const items = [...m.items].sort(
    (a, b) => Number(/\d+$/.exec(a.itemId)?.[0] ?? 0) - Number(/\d+$/.exec(b.itemId)?.[0] ?? 0),
  );
  return card(
    'Judge against expected',
    h(
      'div',
      { class: 'table-wrap table-scroll' },
      h(
        'table',
        { class: 'table check-examples' },
        h('caption', { class: 'visually-hidden' }, "Each golden example's expected answer and the judge's"),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Example', 'Expected', 'Judge', 'Agreement', 'Evaluation'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          null,
          items.map((i) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, exampleLabel(i.itemId)),
              h(
                'td',
                null,
                typeof i.human === 'string' ? winnerChip(i.human) : h('strong', null, scoreOf(i.human, scale)),
              ),
              h('td', null, judged(i, scale)),
              h('td', null, agreement(i, scale)),
              h(
                'td',
                null,
                h('a', { href: `#/evaluations/${encodeURIComponent(i.evaluationId)}` }, shortId(i.evaluationId)),
                ' ',
                i.status === 'succeeded' ? null : statusPill(i.status),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
