/**
 * @module
 * Every aspect of a rubric's verdicts in a batch: each aspect's mean score over the batch (the API's
 * `verdicts.aspects`) on the batch page, and each item's aspect scores in its results row.
 */
import { card } from '../components.js';
import { h } from '../dom.js';
import { formatInt, formatScore } from '../format.js';
import type { Batch, BatchResultLine, VerdictSummary } from '../types.js';

/** An aspect's scale as `1-5`, from the first verdict shown that scored it; null when none did. */
function scaleOf(name: string, lines: readonly BatchResultLine[]): string | null {
  for (const l of lines) {
    const a = l.verdict?.aspects?.find((x) => x.name === name);
    if (a) return `${a.scale.min}-${a.scale.max}`;
  }
  return null;
}

/** The batch's aspects card: mean score and verdicts per aspect, in the rubric's order; null without aspects. */
export function batchAspectsCard(b: Batch, lines: readonly BatchResultLine[]): HTMLElement | null {
  const aspects = b.verdicts.aspects;
  if (aspects.length === 0) return null;
  return card(
    'Aspects',
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table' },
        h('caption', { class: 'visually-hidden' }, "Each aspect's mean score over the batch"),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Aspect', 'Mean score', 'Verdicts'].map((c, i) =>
              h('th', { scope: 'col', class: i > 0 ? 'num' : null }, c),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          aspects.map((a) => {
            const scale = scaleOf(a.name, lines);
            return h(
              'tr',
              null,
              h('th', { scope: 'row' }, a.name),
              h(
                'td',
                { class: 'num' },
                a.meanScore === null ? '—' : formatScore(a.meanScore),
                scale ? h('span', { class: 'muted small' }, ` (${scale})`) : null,
              ),
              h('td', { class: 'num' }, formatInt(a.verdicts)),
            );
          }),
        ),
      ),
    ),
  );
}

/** A verdict's aspect scores as one line (`policy 4 · tone 5`); null without aspects. */
export function aspectScores(v: VerdictSummary | null): HTMLElement | null {
  const aspects = v?.aspects;
  if (!aspects || aspects.length === 0) return null;
  return h(
    'span',
    { class: 'block small muted aspect-scores' },
    aspects.map((a) => `${a.name} ${a.score === undefined ? '—' : formatScore(a.score)}`).join(' · '),
  );
}
